#include "aerun/sha256.hpp"

#include <openssl/evp.h>

#include <cstdio>
#include <memory>

#include "aerun/error.hpp"

namespace aerun {

namespace {

struct MdCtxDeleter {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

std::string to_hex(const unsigned char* d, unsigned n) {
  static const char* digits = "0123456789abcdef";
  std::string s(n * 2, '0');
  for (unsigned i = 0; i < n; ++i) {
    s[2 * i] = digits[d[i] >> 4];
    s[2 * i + 1] = digits[d[i] & 15];
  }
  return s;
}

// Incremental SHA-256 over an EVP context.
class Sha256 {
 public:
  Sha256() : ctx_(EVP_MD_CTX_new()) {
    if (!ctx_ || EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr) != 1)
      throw SystemError("sha256: cannot initialise OpenSSL digest");
  }
  void update(const void* p, size_t n) { EVP_DigestUpdate(ctx_.get(), p, n); }
  std::string hex() {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned n = 0;
    EVP_DigestFinal_ex(ctx_.get(), md, &n);
    return to_hex(md, n);
  }

 private:
  std::unique_ptr<EVP_MD_CTX, MdCtxDeleter> ctx_;
};

}  // namespace

std::string sha256_hex(std::string_view data) {
  Sha256 h;
  h.update(data.data(), data.size());
  return h.hex();
}

std::string sha256_file(const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (!f) throw SystemError("cannot read " + path);
  Sha256 h;
  std::unique_ptr<char[]> buf(new char[1 << 16]);
  size_t n;
  while ((n = std::fread(buf.get(), 1, 1 << 16, f.get())) > 0) h.update(buf.get(), n);
  if (std::ferror(f.get())) throw SystemError("error reading " + path);
  return h.hex();
}

}  // namespace aerun
