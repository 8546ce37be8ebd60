// UTF-8 as RFC 3629 defines it: no overlong forms, no surrogates, nothing past U+10FFFF.
#pragma once

#include <cstddef>

namespace aerun {

// The length of the UTF-8 sequence at s[0..n) (its code point in *cp), 0 when it is not one, or
// -1 when the n bytes are the valid start of a longer one.
int utf8_length(const unsigned char* s, size_t n, char32_t* cp);

}  // namespace aerun
