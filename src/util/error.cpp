#include "aerun/util/error.hpp"

#include <fmt/format.h>

namespace aerun {

std::string SourceLoc::str() const {
  std::string s = file;
  if (line > 0) {
    s += fmt::format(":{}", line);
    if (col > 0) s += fmt::format(":{}", col);
  }
  return s;
}

namespace {
std::string compose(const SourceLoc& loc, const std::string& key, const std::string& message) {
  std::string s;
  const std::string where = loc.str();
  if (!where.empty()) s += where + ": ";
  if (!key.empty()) s += key + ": ";
  return s + message;
}
}  // namespace

InputError::InputError(SourceLoc loc, std::string key, std::string message)
    : std::runtime_error(compose(loc, key, message)),
      loc_(std::move(loc)),
      key_(std::move(key)),
      message_(std::move(message)) {}

InputError::InputError(std::string message)
    : std::runtime_error(message), message_(std::move(message)) {}

}  // namespace aerun
