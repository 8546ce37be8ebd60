// The error a case file gives, for the tests of the case loader's checks.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "aerun/case/case_loader.hpp"
#include "aerun/util/error.hpp"

namespace aerun::testing {

// The InputError message parse_case gives for yaml read as file (in /tmp); a test failure, and
// "", when it gives none.
inline std::string parse_error(const std::string& yaml, const std::string& file) {
  try {
    parse_case(yaml, file, "/tmp");
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError for:\n" << yaml;
  return "";
}

}  // namespace aerun::testing
