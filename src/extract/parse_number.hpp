// Reading the numbers metric patterns capture.
#pragma once

#include <optional>
#include <string_view>

namespace aerun {

// The finite number s holds ("12.5", " +1E-3 ", "6123"), blanks around it allowed; nullopt for
// anything else (empty, "1.2.3", "+-1", "inf", "nan", out of range). The double nearest to the
// decimal value: std::from_chars (libstdc++ 12 implements it with the fast_float algorithm, which
// is faster than a hand-written fast path; measured).
std::optional<double> parse_number(std::string_view s);

}  // namespace aerun
