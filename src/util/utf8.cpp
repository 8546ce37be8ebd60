#include "aerun/util/utf8.hpp"

namespace aerun {

int utf8_length(const unsigned char* s, size_t n, char32_t* cp) {
  const unsigned char c = s[0];
  int len;
  char32_t v;
  unsigned char lo = 0x80, hi = 0xbf;  // the second byte's range
  if (c >= 0xc2 && c <= 0xdf) {
    len = 2, v = c & 0x1f;
  } else if (c >= 0xe0 && c <= 0xef) {
    len = 3, v = c & 0x0f;
    if (c == 0xe0) lo = 0xa0;
    if (c == 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    len = 4, v = c & 0x07;
    if (c == 0xf0) lo = 0x90;
    if (c == 0xf4) hi = 0x8f;
  } else {
    return 0;
  }
  for (int i = 1; i < len; ++i) {
    if (static_cast<size_t>(i) >= n) return -1;
    const unsigned char b = s[i];
    if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xbf)) return 0;
    v = (v << 6) | (b & 0x3f);
  }
  *cp = v;
  return len;
}

}  // namespace aerun
