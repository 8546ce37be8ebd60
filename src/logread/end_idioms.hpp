// The ways trainers say training finished, as written by their own code (each cited in
// end_idioms.cpp): a line holding one is the end of training for the generic reader.
#pragma once

#include <string_view>

namespace aerun::logread {

// Whether line says training finished (case-insensitive; the line's words, not a prefix).
bool says_training_ended(std::string_view line);

// Whether hay holds needle (lowercase), ASCII letters of hay compared in any case.
bool contains_ci(std::string_view hay, std::string_view needle);

// Whether a launcher says a process of the run exited successfully (DeepSpeed's launcher).
bool launcher_says_success(std::string_view line);

}  // namespace aerun::logread
