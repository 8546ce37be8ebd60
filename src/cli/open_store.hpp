// Opening the results store for commands that only read it.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

#include "aerun/error.hpp"
#include "aerun/store.hpp"

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

}  // namespace aerun::cli
