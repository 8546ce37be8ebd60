#include "aerun/util/sha256.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <cstdio>
#include <memory>

#include "aerun/util/error.hpp"

namespace aerun {

struct Sha256::Ctx {
  EVP_MD_CTX* md = EVP_MD_CTX_new();
  ~Ctx() { EVP_MD_CTX_free(md); }
};

namespace {

// SHA-256 from OpenSSL's default provider, fetched once. The site's openssl.cnf is not read: it
// cannot change SHA-256, and reading it cost every invocation ~1 ms (a tenth of a one-run case's
// own work).
const EVP_MD* sha256_md() {
  static const EVP_MD* md = [] {
    OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, nullptr);
    return EVP_MD_fetch(nullptr, "SHA256", nullptr);
  }();
  return md;
}

}  // namespace

Sha256::Sha256() : ctx_(std::make_unique<Ctx>()) {
  if (!ctx_->md || !sha256_md() || EVP_DigestInit_ex(ctx_->md, sha256_md(), nullptr) != 1)
    throw SystemError("sha256: cannot initialise OpenSSL digest");
}

Sha256::~Sha256() = default;

void Sha256::update(const void* data, size_t n) {
  EVP_DigestUpdate(ctx_->md, data, n);
}

std::string Sha256::hex() {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned n = 0;
  EVP_DigestFinal_ex(ctx_->md, md, &n);
  static const char* digits = "0123456789abcdef";
  std::string s(n * 2, '0');
  for (unsigned i = 0; i < n; ++i) {
    s[2 * i] = digits[md[i] >> 4];
    s[2 * i + 1] = digits[md[i] & 15];
  }
  return s;
}

namespace {
struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
}  // namespace

std::string sha256_hex(std::string_view data) {
  Sha256 h;
  h.update(data);
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
