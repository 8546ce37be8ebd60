// Compressing a log with zlib's gzip format (a Debian library; `zcat` and `zless` read it).
#pragma once

#include <string>

namespace aerun {

// Writes `path`.gz (replacing one left by an earlier try), checks it reads back to the same size,
// then removes `path`. Returns the new path; throws SystemError and leaves `path` as it was when
// anything fails.
std::string gzip_file(const std::string& path);

}  // namespace aerun
