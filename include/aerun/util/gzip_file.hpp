// Compressing a log with zlib's gzip format (a Debian library; `zcat` and `zless` read it).
#pragma once

#include <string>

namespace aerun {

// Writes `path`.gz (replacing one left by an earlier try) and checks it reads back to the same
// size. Returns the new path; `path` is left for the caller to remove once the store records the
// .gz (a kill in between then leaves both files, never a row naming a file that is gone). Throws
// SystemError and leaves `path` as it was when anything fails.
std::string gzip_file(const std::string& path);

}  // namespace aerun
