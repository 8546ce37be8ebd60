// SHA-256 digests (OpenSSL's EVP), as lowercase hex.
#pragma once

#include <string>
#include <string_view>

namespace aerun {

std::string sha256_hex(std::string_view data);
// Streams the file; throws SystemError when it cannot be read.
std::string sha256_file(const std::string& path);

}  // namespace aerun
