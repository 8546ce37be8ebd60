// SHA-256 digests (OpenSSL's EVP), as lowercase hex.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace aerun {

// Incremental SHA-256: update() as data arrives, hex() once at the end.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(const void* data, size_t n);
  void update(std::string_view s) { update(s.data(), s.size()); }
  std::string hex();

 private:
  struct Ctx;
  std::unique_ptr<Ctx> ctx_;
};

std::string sha256_hex(std::string_view data);
// Streams the file; throws SystemError when it cannot be read.
std::string sha256_file(const std::string& path);

}  // namespace aerun
