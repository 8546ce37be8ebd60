// Locating a table by name among case files.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "aerun/case/case_spec.hpp"

namespace aerun {

// Finds a table by name among case files: `where` is a case file (.yaml/.yml) or a directory
// searched recursively (sorted paths, skipping files that fail to load with a warning on stderr).
// Throws InputError when not found (listing the table names that exist) or when two cases define
// the same name.
std::pair<CaseSpec, TableSpec> find_table(const std::string& name, const std::string& where);

// Finds a plot by name (that plot alone) or a case by name (all its plots), searching like
// find_table. Throws InputError when neither exists, listing the plot names that do.
std::pair<CaseSpec, std::vector<PlotSpec>> find_plots(const std::string& name,
                                                      const std::string& where);

// What `aerun table` (plots false: the table names) or `aerun plot` (plots true: the plot names
// and the names of the cases that have plots) accept among the case files at `where`, sorted, for
// completion: files that fail to load are left out silently; none when `where` does not exist.
std::vector<std::string> defined_names(const std::string& where, bool plots);

}  // namespace aerun
