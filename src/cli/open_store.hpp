// Opening the results store for commands that only read it.
#pragma once

#include <filesystem>
#include <string>

#include "aerun/error.hpp"
#include "aerun/store.hpp"

namespace aerun::cli {

// The store at path; an InputError when there is none (reading must not create one).
inline Store open_existing_store(const std::string& path) {
  if (!std::filesystem::exists(path))
    throw InputError(
        SourceLoc{}, "--db",
        "no results store at " + path + " (run a case first, or pass --db / AERUN_DB)");
  return Store(path);
}

}  // namespace aerun::cli
