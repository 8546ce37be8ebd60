#include "aerun/report/table_finder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <vector>

#include "aerun/case/case_loader.hpp"
#include "aerun/util/error.hpp"

namespace aerun {

namespace fs = std::filesystem;

namespace {

bool is_case_file(const fs::path& p) {
  const auto ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml";
}

// Case files under a directory, recursively, in sorted path order.
std::vector<std::string> case_files_under(const fs::path& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec),
       end;
       !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_regular_file(type_ec) && is_case_file(it->path()))
      files.push_back(it->path().string());
  }
  if (ec) throw SystemError(fmt::format("cannot list {}: {}", dir.string(), ec.message()));
  std::sort(files.begin(), files.end());
  return files;
}

// The cases at `where` (a file, or a directory searched recursively).
std::vector<CaseSpec> load_cases_at(const std::string& where, const std::string& what,
                                    const std::string& name, bool quiet = false) {
  std::error_code ec;
  const bool is_dir = fs::is_directory(where, ec);
  if (!is_dir && !fs::exists(where, ec))
    throw InputError(
        SourceLoc{where, 0, 0}, what,
        fmt::format("no such case file or directory (looking for {} '{}')", what, name));

  std::vector<CaseSpec> cases;
  if (is_dir) {
    for (const auto& file : case_files_under(where)) {
      try {
        cases.push_back(load_case(file));
      } catch (const std::exception& e) {
        if (!quiet) std::cerr << "aerun: warning: skipping " << file << ": " << e.what() << "\n";
      }
    }
  } else {
    cases.push_back(load_case(where));  // one named file: its errors are the user's to see
  }
  return cases;
}

}  // namespace

std::pair<CaseSpec, TableSpec> find_table(const std::string& name, const std::string& where) {
  std::vector<CaseSpec> cases = load_cases_at(where, "table", name);

  std::optional<std::pair<size_t, size_t>> found;  // (case, table)
  std::vector<std::string> existing;
  for (size_t i = 0; i < cases.size(); ++i) {
    for (size_t j = 0; j < cases[i].tables.size(); ++j) {
      const TableSpec& t = cases[i].tables[j];
      existing.push_back(t.name);
      if (t.name != name) continue;
      if (found) {
        const TableSpec& first = cases[found->first].tables[found->second];
        const SourceLoc first_loc =
            first.loc.file.empty() ? SourceLoc{cases[found->first].file, 0, 0} : first.loc;
        const SourceLoc loc = t.loc.file.empty() ? SourceLoc{cases[i].file, 0, 0} : t.loc;
        throw InputError(loc, "tables." + name,
                         fmt::format("table '{}' is also defined at {} (case '{}'); table names "
                                     "must be unique",
                                     name, first_loc.str(), cases[found->first].name));
      }
      found = {i, j};
    }
  }
  if (!found) {
    std::sort(existing.begin(), existing.end());
    throw InputError(
        SourceLoc{where, 0, 0}, "table",
        existing.empty()
            ? fmt::format("no table named '{}' (no case there defines a table)", name)
            : fmt::format("no table named '{}'; tables: {}", name, fmt::join(existing, ", ")));
  }
  const TableSpec table = cases[found->first].tables[found->second];
  return {std::move(cases[found->first]), table};
}

}  // namespace aerun

namespace aerun {

std::pair<CaseSpec, std::vector<PlotSpec>> find_plots(const std::string& name,
                                                      const std::string& where) {
  std::vector<CaseSpec> cases = load_cases_at(where, "plot", name);
  std::vector<std::string> existing;
  for (auto& c : cases)
    for (const auto& p : c.plots)
      if (p.name == name) return {c, {p}};
  for (auto& c : cases) {
    if (c.name == name && !c.plots.empty()) return {c, c.plots};
    for (const auto& p : c.plots) existing.push_back(p.name);
  }
  std::sort(existing.begin(), existing.end());
  throw InputError(
      SourceLoc{where, 0, 0}, "plot",
      existing.empty()
          ? fmt::format("no plot or case with plots named '{}' (no case there has plots)", name)
          : fmt::format("no plot or case with plots named '{}'; plots: {}", name,
                        fmt::join(existing, ", ")));
}

std::vector<std::string> defined_names(const std::string& where, bool plots) {
  std::vector<std::string> names;
  std::error_code ec;
  if (!fs::exists(where, ec)) return names;
  std::vector<CaseSpec> cases;
  try {
    cases = load_cases_at(where, plots ? "plot" : "table", "", true);
  } catch (const std::exception&) {
    return names;
  }
  for (const auto& c : cases) {
    if (!plots)
      for (const auto& t : c.tables) names.push_back(t.name);
    if (plots && !c.plots.empty()) {
      names.push_back(c.name);
      for (const auto& p : c.plots) names.push_back(p.name);
    }
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace aerun
