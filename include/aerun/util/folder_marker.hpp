// A marker file that says a folder is aerun's own (a run folder, a figure folder): it names the
// folder's path and identity (device, inode), so a copied, moved or hand-written marker never
// makes aerun empty or remove a folder it did not make (issue 40).
#pragma once

#include <string>

namespace aerun {

// The marker's text for dir as it is now, after a first line saying what made it; "" when dir is
// not a folder (a link put there included).
std::string folder_marker_text(const std::string& dir, const std::string& first_line);

// Writes dir/name (create_file: never through a link); SystemError when dir is not a folder.
void write_folder_marker(const std::string& dir, const std::string& name,
                         const std::string& first_line);

// Whether dir/name is a regular file holding exactly the marker of this very folder.
bool holds_folder_marker(const std::string& dir, const std::string& name,
                         const std::string& first_line);

}  // namespace aerun
