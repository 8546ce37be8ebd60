// Files aerun creates, never through a link (issue 40): a link, a FIFO or a device planted at a
// path aerun writes is removed, not followed, and a file another name also links to (a hard link
// planted to a victim) is replaced by a new one rather than written into.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

#include "aerun/util/unique_fd.hpp"

namespace aerun {

enum class CreateMode { Truncate, Append };

// Opens path for writing as a regular file of aerun's: what is at path and is not a regular file
// of one name (a symbolic link, a FIFO, a socket, a device, a file with other hard links) is
// unlinked first, then the file is opened with O_NOFOLLOW (a link planted between the two makes
// it fail, never followed). A directory at path is an error. Throws SystemError "cannot write
// [what ]PATH: reason".
UniqueFd create_file(const std::string& path, CreateMode how = CreateMode::Truncate,
                     mode_t mode = 0644, const char* what = nullptr);

// create_file for a file in folders of aerun's: the last own_levels folders above it (`logs/` and
// `logs/<case>` for a run's log: 2) are walked from the one above them with openat(O_NOFOLLOW), as
// make_own_directory walks them, and the file is made relative to the last one. A folder of
// aerun's swapped for a link after it was made (between the two calls) is then never followed:
// it is replaced. own_levels 0 is create_file.
UniqueFd create_own_file(const std::string& path, int own_levels,
                         CreateMode how = CreateMode::Truncate, mode_t mode = 0644,
                         const char* what = nullptr);

// Writes text to path through create_own_file (whole, every write checked); what names the file
// in the error ("job script"). exact_mode, when not 0, is set on the open file (fchmod: never a
// path a link could be put at), whatever the umask.
void write_created_file(const std::string& path, std::string_view text, const char* what,
                        int own_levels = 0, mode_t exact_mode = 0);

// Creates the folder path (and its missing parents) for aerun's files. Its last own_levels
// components are aerun's (`logs/<case>` under the store's folder): each is walked from the one
// above with openat(O_NOFOLLOW); a link, a FIFO or a socket put at one is removed first, never
// followed, and a file there is an error (never removed: it may be the user's); the folders above them are the user's, taken as they are.
// Throws SystemError naming path.
void make_own_directory(const std::string& path, int own_levels = 1);

// make_own_directory, returning the folder opened (O_DIRECTORY): what is made in it relative to
// this descriptor can never be sent elsewhere by a link put at one of aerun's folders later.
UniqueFd open_own_directory(const std::string& path, int own_levels = 1);

}  // namespace aerun
