// `--only KEY=VALUE[,VALUE...]` and `--where CONDITION` on commands that read stored runs (runs,
// table, plot, history, forget): the same selection `aerun case` makes of planned runs.
#pragma once

#include <CLI/CLI.hpp>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aerun/case/system_catalog.hpp"
#include "aerun/record/run_record.hpp"
#include "aerun/report/table.hpp"
#include "aerun/report/table_query.hpp"
#include "aerun/run/run_plan.hpp"

namespace aerun::cli {

struct SelectionArgs {
  std::vector<std::string> only;
  std::string where;
  bool empty() const { return only.empty() && where.empty(); }
};

inline void add_selection_options(CLI::App* c, SelectionArgs& s) {
  c->add_option("--only", s.only,
                "KEY=VALUE[,VALUE...]: only runs with one of these values (repeatable)");
  c->add_option("--where", s.where,
                "CONDITION: only runs where it holds (`layers >= 48 && method != \"l2l\"`)");
}

// `--only system=NAME[,NAME...]` (and --system NAME) select by the system the runs ran on
// (docs/systems.md; `local`: on none named) unless a parameter is named `system`: taken out of
// the selection, as the store's filter. nullopt when nothing selects by system.
inline std::optional<std::vector<std::string>> take_system_selection(
    SelectionArgs& s, const std::vector<std::string>& params, const std::string& system_option) {
  std::optional<std::vector<std::string>> out;
  auto add = [&out](const std::string& list) {
    if (!out) out.emplace();
    for (size_t at = 0; at <= list.size();) {
      const size_t comma = std::min(list.find(',', at), list.size());
      const std::string name = list.substr(at, comma - at);
      out->push_back(stored_system_name(name));
      at = comma + 1;
    }
  };
  if (!system_option.empty()) add(system_option);
  if (std::find(params.begin(), params.end(), "system") != params.end()) return out;
  std::erase_if(s.only, [&add](const std::string& only) {
    if (!only.starts_with("system=")) return false;
    add(only.substr(7));
    return true;
  });
  return out;
}

// Whether take_system_selection may find something (a parameter's names are read only then).
inline bool selects_by_system(const SelectionArgs& s, const std::string& system_option) {
  return !system_option.empty() || std::any_of(s.only.begin(), s.only.end(), [](const auto& o) {
    return o.starts_with("system=");
  });
}

// Every parameter name of the runs, in order of first appearance.
inline std::vector<std::string> param_names_of(const std::vector<RunRecord>& runs) {
  std::vector<std::string> names;
  for (const auto& r : runs)
    for (const auto& [n, v] : r.params)
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  return names;
}

// Drops the runs the selection does not keep. Throws InputError for a key or a variable that
// neither a run nor `known` (the case's own parameter names) has, the nearest named, and for a
// condition that does not parse.
inline void keep_selected(std::vector<RunRecord>& runs, const SelectionArgs& s,
                          std::vector<std::string> known = {}) {
  if (s.empty()) return;
  for (const auto& n : param_names_of(runs))
    if (std::find(known.begin(), known.end(), n) == known.end()) known.push_back(n);
  const RunSelector selector(s.only, known, s.where);
  std::erase_if(runs,
                [&](const RunRecord& r) { return !selector.keeps(r.params, r.repeat_index); });
}

// The same selection of a table's planned points: a point stays when one of its repeats is
// selected, and the repeats per point are those selected of the first point kept.
inline void keep_selected(std::vector<PlannedRuns>& plans, const SelectionArgs& s,
                          const std::vector<std::string>& known) {
  if (s.empty()) return;
  const RunSelector selector(s.only, known, s.where);
  for (auto& p : plans) {
    int repeats = -1;
    std::erase_if(p.points, [&](const ParamList& point) {
      int n = 0;
      for (int r = 0; r < p.repeat; ++r) n += selector.keeps(point, r) ? 1 : 0;
      if (n > 0 && repeats < 0) repeats = n;
      return n == 0;
    });
    if (repeats > 0) p.repeat = repeats;
  }
}

// The selection as a table query applies it (a selector per reading thread); empty when there is
// none. Throws InputError as keep_selected does, once the first selector is made.
inline std::function<TableQuery::Selection()> table_selection(const SelectionArgs& s,
                                                              std::vector<std::string> known) {
  if (s.empty()) return {};
  const RunSelector check(s.only, known, s.where);  // a bad key or condition: said now
  return [s, known] {
    auto selector = std::make_shared<const RunSelector>(s.only, known, s.where);
    return [selector](const RunRecord& r) { return selector->keeps(r.params, r.repeat_index); };
  };
}

}  // namespace aerun::cli
