// Errors aerun reports to users: bad input (exit 2) with the place it came from.
#pragma once

#include <stdexcept>
#include <string>

namespace aerun {

// Where something came from in a user's file (line and column are 1-based; 0 = unknown).
struct SourceLoc {
  std::string file;
  int line = 0;
  int col = 0;

  // "file:line:col" (parts that are unknown are left out).
  std::string str() const;
};

// Bad input or usage: a case file, a flag, a pattern. The CLI prints what() and exits 2.
// what() reads "file:line:col: key: message" with the parts that are known.
class InputError : public std::runtime_error {
 public:
  InputError(SourceLoc loc, std::string key, std::string message);
  explicit InputError(std::string message);

  const SourceLoc& loc() const { return loc_; }
  const std::string& key() const { return key_; }
  const std::string& message() const { return message_; }

 private:
  SourceLoc loc_;
  std::string key_;
  std::string message_;
};

// A failure of the environment (a database that cannot be opened, a disk that is full).
class SystemError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The store stayed locked by another process for longer than its busy limit (10 s): a write
// that can be tried again later (an `aerun case` keeps the result and its runs going).
class StoreBusy : public SystemError {
 public:
  using SystemError::SystemError;
};

}  // namespace aerun
