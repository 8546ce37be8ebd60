// Opening the results store for commands that only read it.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "aerun/case/case_loader.hpp"
#include "aerun/store/store.hpp"
#include "aerun/util/error.hpp"

namespace aerun::cli {

// The store at path; an InputError when there is none (reading must not create one). A store
// this user cannot write (a reviewer's copy on read-only media) is opened read-only.
inline Store open_existing_store(const std::string& path) {
  if (!std::filesystem::exists(path))
    throw InputError(
        SourceLoc{}, "--db",
        "no results store at " + path + " (run a case first, or pass --db / AERUN_DB)");
  const auto dir = std::filesystem::absolute(path).parent_path();
  if (::access(path.c_str(), W_OK) != 0 || ::access(dir.c_str(), W_OK) != 0)
    return Store(path, Store::ReadOnly{});
  return Store(path);
}

// A case name the store holds no run of is an error naming what it holds (nearest first).
inline void require_case(const Store& store, const std::string& name, const std::string& db) {
  const auto names = store.case_names();
  if (std::find(names.begin(), names.end(), name) != names.end()) return;
  const std::string near = nearest_key(name, names);
  std::string all;
  for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
  throw InputError(SourceLoc{}, "--case",
                   "no runs of case '" + name + "' in " + db +
                       (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                       "; cases: " + (all.empty() ? "none" : all));
}

}  // namespace aerun::cli
