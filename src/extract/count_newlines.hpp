// Counting line ends in a block of text.
#pragma once

#include <cstddef>

namespace aerun {

// The number of '\n' bytes in p[0, n) (16 bytes at a time with SSE2).
size_t count_newlines(const char* p, size_t n);

}  // namespace aerun
