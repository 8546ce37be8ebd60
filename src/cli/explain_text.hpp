// What `--explain` prints of one log (aerun ingest --explain, aerun show --explain): its status
// and reason, every metric with its line, and the generic reader's templates with their keys.
#pragma once

#include <string>

#include "aerun/ingest/ingest.hpp"

namespace aerun::cli {

// detect: the formats were detected (--preset auto), so the text says which were found.
std::string explained_log_text(const std::string& path, const ExplainedLog& x, bool detect);

}  // namespace aerun::cli
