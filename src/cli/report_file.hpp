// A file a command writes where the user points it (`regress --json FILE`, `--junit FILE`): never
// over a store or into the store's logs folder (issue 40's fourth pass: `--json results/aerun.db`
// replaced the store it had just read with JSON), and written whole or not at all.
#pragma once

#include <string>
#include <string_view>

namespace aerun::cli {

// Throws InputError naming `option` when path is a folder or not a regular file, an SQLite
// database (any store, this one or another), the store's own journal files, or a file of its logs
// folder (logs_dir). Called before the work, so that a bad path costs nothing.
void check_report_file(const std::string& path, const std::string& option,
                       const std::string& store_path, const std::string& logs_dir);
// check_report_file again (the path may have changed since), then writes text to path
// (write_file_atomic).
void write_report_file(const std::string& path, std::string_view text, const std::string& option,
                       const std::string& store_path, const std::string& logs_dir);

}  // namespace aerun::cli
