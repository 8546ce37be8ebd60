// The stable identity of a run: what was run, with which parameters, environment and repeat.
#pragma once

#include <string>

#include "aerun/util/value.hpp"

namespace aerun {

// Lowercase hex SHA-256 over a canonical, unambiguous serialisation of: case name, resolved
// command, parameters (name=value in the point's order), environment (name=value in order) and
// repeat index. Every field is length-prefixed and every list count-prefixed, so no two different
// inputs serialise alike (("ab","c") and ("a","bc") differ). Values contribute their text. On a
// named system the key is key_on_system() of that (record/system_key.hpp).
std::string run_key(const std::string& case_name, const std::string& command,
                    const ParamList& params, const ParamList& env, int repeat_index,
                    const std::string& system = "");

}  // namespace aerun
