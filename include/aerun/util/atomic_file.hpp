// Files written whole or not at all: a full disk or a kill never leaves half a file in place.
#pragma once

#include <string>
#include <string_view>

namespace aerun {

// Writes text to a new file beside path, checks every write and the close (a full disk is seen
// there on some filesystems), then renames it over path: readers see the old file or the new
// one, never a truncated one. Throws SystemError naming path and the reason (e.g. "No space
// left on device"); the temporary file is removed then.
void write_file_atomic(const std::string& path, std::string_view text);

}  // namespace aerun
