// Which logs aerun may compress or remove: only files it wrote itself (issue 28).
#pragma once

#include <string>

#include "aerun/record/run_record.hpp"

namespace aerun {

// Whether `prune` / `forget` may compress or remove the file at log_path: its state is not
// foreign, it is a regular file (not a link), and its real path (links resolved) lies inside
// the store's logs folder, itself resolved. Anything else is somebody else's file.
bool aerun_wrote_log(const std::string& log_path, const std::string& log_state,
                     const std::string& logs_dir);

}  // namespace aerun
