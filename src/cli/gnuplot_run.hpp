// Running gnuplot for `aerun plot` and `aerun history`.
#pragma once

#include <string>

namespace aerun::cli {

// gnuplot's path in PATH, or "" when there is none.
std::string find_gnuplot();
// Runs gnuplot on the script in `dir`; throws SystemError with gnuplot's output when it fails.
void run_gnuplot(const std::string& gnuplot, const std::string& dir, const std::string& script);

}  // namespace aerun::cli
