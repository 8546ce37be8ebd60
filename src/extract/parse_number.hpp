// Reading the numbers metric patterns capture.
#pragma once

#include <optional>
#include <string_view>

namespace aerun {

// The finite number s holds ("12.5", " +1E-3 ", "6123"), blanks around it allowed; also in quotes
// ("'2.345'", Transformers 5), with thousands separators ("1,234,567": torchtitan's tps) and with
// one SI suffix after a digit (k or K = 1e3, M, G or B = 1e9, T, P: nanotron's "11.5K", "480B");
// nullopt for anything else (empty, "1.2.3", "+-1", "1,5", "12a", "inf", "nan", out of range). The
// double nearest to the decimal value: std::from_chars (libstdc++ 12 implements it with the
// fast_float algorithm, which is faster than a hand-written fast path; measured).
std::optional<double> parse_number(std::string_view s);

}  // namespace aerun
