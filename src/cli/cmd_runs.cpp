// `aerun runs`: the stored runs, one line each, as Markdown, CSV or JSON.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <functional>
#include <iostream>
#include <map>

#include "aerun/case_loader.hpp"
#include "aerun/case_versions.hpp"
#include "aerun/error.hpp"
#include "aerun/presets.hpp"
#include "aerun/table.hpp"
#include "aerun/text_format.hpp"
#include "cli/app.hpp"
#include "cli/open_store.hpp"
#include "cli/regress_sessions.hpp"
#include "cli/run_selection.hpp"

namespace aerun::cli {

namespace {

struct RunsArgs {
  std::string case_name;
  std::string status;
  std::string format = "md";
  bool all_versions = false;
  std::string session;
  SelectionArgs select;
  std::vector<std::string> columns;  // --columns
  bool all_columns = false;
};

void add_unique(std::vector<std::string>& names, const std::string& n) {
  if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
}

// At most 60 characters of a reason, cut at a UTF-8 character boundary, "…" when cut.
std::string short_reason(const std::string& reason) {
  constexpr size_t kMax = 60;
  if (reason.size() <= kMax) return reason;
  size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(reason[cut]) & 0xC0) == 0x80) --cut;
  return reason.substr(0, cut) + "…";
}

// The metrics `aerun runs` shows by default, of those the runs have: per case (its file as it is
// now), its own metrics, those its tables show and its presets' headline ones (docs/store.md).
std::vector<std::string> headline_metrics(const std::vector<RunRecord>& runs,
                                          const std::vector<std::string>& metrics) {
  std::map<std::string, std::vector<RunRecord>> by_case;
  for (const auto& r : runs) {
    auto& v = by_case[r.case_name];
    if (v.size() < 3) v.push_back(r);
  }
  std::vector<std::string> wanted;
  for (const auto& [name, some] : by_case) {
    const auto spec = case_of(some);
    if (!spec) {
      // No case file (ingested with --preset, or gone): the headline metrics of the presets
      // whose metrics the runs have, and every metric no preset defines (the case's own).
      std::vector<std::string> have;
      for (const auto& r : runs)
        if (r.case_name == name)
          for (const auto& m : r.metrics) add_unique(have, m.name);
      for (const auto& m : have) {
        bool of_preset = false;
        for (const auto& p : builtin_presets())
          for (const auto& pm : p.metrics)
            if (pm.name == m) {
              of_preset = true;
              for (const auto& h : p.headline) add_unique(wanted, h);
            }
        if (!of_preset) add_unique(wanted, m);
      }
      continue;
    }
    std::vector<std::string> of_presets;
    for (const auto& ref : spec->presets)
      if (const Preset* p = find_preset(ref)) {
        for (const auto& m : p->headline) add_unique(wanted, m);
        for (const auto& m : p->metrics) add_unique(of_presets, m.name);
      }
    for (const auto& m : spec->metrics)  // the case's own
      if (std::find(of_presets.begin(), of_presets.end(), m.name) == of_presets.end())
        add_unique(wanted, m.name);
    for (const auto& t : spec->tables)
      for (const auto& c : t.columns) add_unique(wanted, c.source);
  }
  std::vector<std::string> out;
  for (const auto& m : metrics)
    if (std::find(wanted.begin(), wanted.end(), m) != wanted.end()) out.push_back(m);
  return out;
}

// As tables print numbers: 4 significant digits, no exponent below 10^15 (12000.5 -> 12000).
std::string opt_num(const std::optional<double>& v) {
  return v ? format_cell_number(*v) : "";
}

int runs_command(const Globals& g, const RunsArgs& a) {
  Store store = open_existing_store(g.resolved_db());
  RunFilter f;
  f.case_name = a.case_name;
  f.status = a.status;
  if (!a.session.empty()) {
    const auto s = store.find_session(a.session);
    if (!s)
      throw InputError(SourceLoc{}, "--session",
                       "no session '" + a.session + "' in " + g.resolved_db());
    f.session_id = s->id;
  }
  std::vector<RunRecord> runs = store.list(f);
  if (runs.empty() && !a.case_name.empty()) require_case(store, a.case_name, g.resolved_db());
  keep_selected(runs, a.select);
  // Runs of earlier versions of their case are left out, or (--all-versions) kept and marked.
  CurrentVersions versions;
  std::vector<char> current;
  size_t older = 0;
  {
    std::vector<RunRecord> kept;
    for (auto& r : runs) {
      const bool now = versions.holds(r);
      if (!now) ++older;
      if (!now && !a.all_versions) continue;
      current.push_back(now);
      kept.push_back(std::move(r));
    }
    runs = std::move(kept);
  }
  if (older > 0 && !a.all_versions)
    std::cerr << "aerun: note: " << older
              << " run(s) of earlier versions of their case left out (--all-versions includes "
                 "them)\n";
  auto version_text = [&](size_t i) {
    const std::string d = runs[i].case_digest.substr(0, 8);
    return current[i] ? d : d + " (old)";
  };

  std::vector<std::string> params, metrics;
  for (const auto& r : runs) {
    for (const auto& [n, v] : r.params) add_unique(params, n);
    for (const auto& m : r.metrics) add_unique(metrics, m.name);
  }
  auto param_text = [](const RunRecord& r, const std::string& n) {
    const Value* v = find_param(r.params, n);
    return v ? v->text() : std::string();
  };
  auto metric_value = [](const RunRecord& r, const std::string& n) -> std::optional<double> {
    const MetricValue* m = r.metric(n);
    return m ? std::optional<double>(m->value) : std::nullopt;
  };
  std::string out;
  if (a.format == "json") {
    out += "[";
    for (size_t i = 0; i < runs.size(); ++i) {
      const auto& r = runs[i];
      out += i ? ",\n " : "\n ";
      out += fmt::format(
          "{{\"id\": {}, \"key\": {}, \"case\": {}, \"repeat\": {}, \"attempt\": {}, \"status\": "
          "{}, "
          "\"reason\": {}, \"startup_s\": {}, \"wall_s\": {}, \"queue_wait_s\": {}, \"job_id\": "
          "{}, "
          "\"log\": {}, \"case_digest\": {}, \"current_version\": {}, \"params\": {{",
          r.id, json_string(r.key), json_string(r.case_name), r.repeat_index, r.attempt,
          json_string(r.status), json_string(r.reason), json_number(r.startup_s),
          json_number(r.wall_s), json_number(r.queue_wait_s), json_string(r.job_id),
          json_string(r.log_path), json_string(r.case_digest), current[i] ? "true" : "false");
      for (size_t j = 0; j < r.params.size(); ++j)
        out += fmt::format(
            "{}{}: {}", j ? ", " : "", json_string(r.params[j].first),
            r.params[j].second.is_number() && r.params[j].second.kind() != Value::Kind::Bool
                ? r.params[j].second.text()
                : json_string(r.params[j].second.text()));
      out += "}, \"metrics\": {";
      for (size_t j = 0; j < r.metrics.size(); ++j)
        out += fmt::format("{}{}: {}", j ? ", " : "", json_string(r.metrics[j].name),
                           json_number(r.metrics[j].value));
      out += "}}";
    }
    out += runs.empty() ? "]\n" : "\n]\n";
  } else {
    const bool md = a.format == "md";
    // Every column, in the order of the full listing: name and cell text (md: as people read
    // it, csv: exact).
    struct Column {
      std::string name;
      std::function<std::string(size_t)> cell;
    };
    std::vector<Column> all;
    auto num = [md](const std::optional<double>& v) {
      return !v ? std::string() : md ? opt_num(v) : fmt::format("{}", *v);
    };
    all.push_back({"key", [&](size_t i) { return md ? runs[i].key.substr(0, 12) : runs[i].key; }});
    all.push_back({"case", [&](size_t i) { return runs[i].case_name; }});
    all.push_back({"repeat", [&](size_t i) { return std::to_string(runs[i].repeat_index); }});
    all.push_back({"attempt", [&](size_t i) { return std::to_string(runs[i].attempt); }});
    all.push_back({"status", [&](size_t i) {
                     const RunRecord& r = runs[i];
                     // md: the class and a short reason; the whole reason stays in `aerun show`
                     // and the reason column.
                     if (md && !r.reason.empty() && r.status != "ok")
                       return r.status + " (" + short_reason(r.reason) + ")";
                     return r.status;
                   }});
    all.push_back({"reason", [&](size_t i) { return runs[i].reason; }});
    all.push_back({"version", [&](size_t i) { return version_text(i); }});
    for (const auto& p : params)
      all.push_back({p, [&, p](size_t i) { return param_text(runs[i], p); }});
    for (const auto& m : metrics)
      all.push_back({m, [&, m, num](size_t i) { return num(metric_value(runs[i], m)); }});
    all.push_back({"startup_s", [&, num](size_t i) { return num(runs[i].startup_s); }});
    all.push_back({"wall_s", [&, num](size_t i) { return num(runs[i].wall_s); }});
    all.push_back({"queue_wait_s", [&, num](size_t i) { return num(runs[i].queue_wait_s); }});
    all.push_back({"job_id", [&](size_t i) { return runs[i].job_id; }});
    all.push_back({"log", [&](size_t i) { return runs[i].log_path; }});
    all.push_back({"case_digest", [&](size_t i) { return runs[i].case_digest; }});
    all.push_back(
        {"current_version", [&](size_t i) { return std::string(current[i] ? "true" : "false"); }});
    auto named = [&](const std::string& n) -> const Column* {
      for (const auto& c : all)
        if (c.name == n) return &c;
      return nullptr;
    };
    std::vector<const Column*> shown;
    if (!a.columns.empty()) {
      for (const auto& n : a.columns) {
        const Column* c = named(n);
        if (!c) {
          std::vector<std::string> names;
          for (const auto& x : all) names.push_back(x.name);
          const std::string near = nearest_key(n, names);
          throw InputError(SourceLoc{}, "--columns",
                           fmt::format("no column '{}'{}; columns: {}", n,
                                       near.empty() ? "" : " (did you mean '" + near + "'?)",
                                       fmt::join(names, ", ")));
        }
        shown.push_back(c);
      }
    } else if (!md || a.all_columns) {
      for (const auto& c : all)
        if (c.name != "version" || a.all_versions) shown.push_back(&c);
      if (!md) std::erase_if(shown, [](const Column* c) { return c->name == "version"; });
    } else {
      // The default listing: who, what, the parameters, the headline metrics, the times.
      for (const char* n : {"key", "case", "repeat", "status"}) shown.push_back(named(n));
      if (a.all_versions) shown.push_back(named("version"));
      for (const auto& p : params) shown.push_back(named(p));
      for (const auto& m : headline_metrics(runs, metrics)) shown.push_back(named(m));
      shown.push_back(named("startup_s"));
      shown.push_back(named("wall_s"));
    }
    if (md) {
      out += "|";
      for (const Column* c : shown)
        out += " " + md_cell(c->name == "repeat" ? "rep" : c->name) + " |";
      out += "\n|";
      for (size_t i = 0; i < shown.size(); ++i) out += "---|";
      out += "\n";
      for (size_t i = 0; i < runs.size(); ++i) {
        out += "|";
        for (const Column* c : shown) out += " " + md_cell(c->cell(i)) + " |";
        out += "\n";
      }
      const size_t hidden = all.size() - shown.size() - (a.all_versions ? 0 : 1);
      out += fmt::format("\n{} run{}", runs.size(), runs.size() == 1 ? "" : "s");
      if (a.columns.empty() && !a.all_columns && hidden > 0)
        out += fmt::format(" ({} more columns: --all-columns, or --columns NAME,...)", hidden);
      out += "\n";
    } else {
      for (size_t k = 0; k < shown.size(); ++k) out += (k ? "," : "") + csv_field(shown[k]->name);
      out += "\n";
      for (size_t i = 0; i < runs.size(); ++i) {
        for (size_t k = 0; k < shown.size(); ++k)
          out += (k ? "," : "") + csv_field(shown[k]->cell(i));
        out += "\n";
      }
    }
  }
  std::cout << out;
  return 0;
}

}  // namespace

void add_runs_command(CLI::App& app, Globals& g, Action& action) {
  auto args = std::make_shared<RunsArgs>();
  CLI::App* c = app.add_subcommand("runs", "list stored runs");
  c->add_option("--case", args->case_name, "only this case");
  c->add_option("--status", args->status, "only runs with this status (ok, failed, oom, ...)");
  c->add_option("--format", args->format, "md | csv | json")
      ->check(CLI::IsMember({"md", "csv", "json"}));
  c->add_option("--session", args->session,
                "only runs whose latest attempt is of this session (label or id)");
  c->add_flag("--all-versions", args->all_versions,
              "include runs of earlier versions of their case, marked (old)");
  c->add_option("--columns", args->columns,
                "NAME,...: these columns, in this order (md and csv; see --all-columns)")
      ->delimiter(',');
  c->add_flag("--all-columns", args->all_columns,
              "every column (md); the default shows key, case, rep, status, parameters, the "
              "headline metrics, startup_s, wall_s");
  add_selection_options(c, args->select);
  c->add_option("--db", g.db, "results store");
  c->callback([&action, &g, args] { action = [&g, args] { return runs_command(g, *args); }; });
}

}  // namespace aerun::cli
