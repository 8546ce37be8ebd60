// Locating a table by name among case files.
#pragma once

#include <string>
#include <utility>

#include "aerun/case_spec.hpp"

namespace aerun {

// Finds a table by name among case files: `where` is a case file (.yaml/.yml) or a directory
// searched recursively (sorted paths, skipping files that fail to load with a warning on stderr).
// Throws InputError when not found (listing the table names that exist) or when two cases define
// the same name.
std::pair<CaseSpec, TableSpec> find_table(const std::string& name, const std::string& where);

}  // namespace aerun
