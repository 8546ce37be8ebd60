// A run's key on a named system (issue 41): the system a run ran on is part of its identity, so
// the same point measured on two machines is two runs, each current, in one store and after
// `aerun merge`. The key of a run on no named system (`local`, or none recognised) is the key it
// always had, so stores and cases of before keep reusing their runs.
#pragma once

#include <string>

#include "aerun/util/sha256.hpp"

namespace aerun {

// The key of a run whose system-less key is `key`, on `system` ("" : `key` itself). Derived from
// the key alone, so that a store's migration can give its rows the system their host names say
// without reading their commands again.
inline std::string key_on_system(const std::string& key, const std::string& system) {
  if (system.empty()) return key;
  std::string s = "aerun-run-key-on-system-v1";
  s += std::to_string(key.size()) + ":" + key;
  s += std::to_string(system.size()) + ":" + system;
  return sha256_hex(s);
}

}  // namespace aerun
