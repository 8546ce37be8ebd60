// Whether a file is an aerun store (or a copy of one): an SQLite file whose schema holds aerun's
// schema_migrations table. Used before aerun removes a file it only believes to be its own.
#pragma once

#include <string>

namespace aerun {

bool is_aerun_store_file(const std::string& path);

}  // namespace aerun
