// `aerun runs`: the stored runs, one line each, as Markdown, CSV or JSON.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <functional>
#include <iostream>
#include <map>
#include <optional>

#include "aerun/case_loader.hpp"
#include "aerun/case_versions.hpp"
#include "aerun/error.hpp"
#include "aerun/presets.hpp"
#include "aerun/run_status.hpp"
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
std::vector<std::string> headline_metrics(const Store::Outline& o) {
  std::vector<std::string> wanted;
  for (const auto& [name, have] : o.case_metrics) {
    const auto spec = case_of(o.file_stubs(name));
    if (!spec) {
      // No case file (ingested with --preset, or gone): the headline metrics of the presets
      // whose metrics the runs have, and every metric no preset defines (the case's own).
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
  for (const auto& m : o.metrics)
    if (std::find(wanted.begin(), wanted.end(), m) != wanted.end()) out.push_back(m);
  return out;
}

// As tables print numbers: 4 significant digits, no exponent below 10^15 (12000.5 -> 12000).
std::string opt_num(const std::optional<double>& v) {
  return v ? format_cell_number(*v) : "";
}

// Output in chunks: the listing of a million runs is written as it is read.
class ChunkedOut {
 public:
  ~ChunkedOut() { flush(); }
  std::string& text() { return buf_; }
  void maybe_flush() {
    if (buf_.size() >= (1 << 16)) flush();
  }
  void flush() {
    std::cout << buf_;
    buf_.clear();
  }

 private:
  std::string buf_;
};

int runs_command(const Globals& g, const RunsArgs& a) {
  Store store = open_existing_store(g.resolved_db());
  RunFilter f;
  f.case_name = a.case_name;
  f.status = a.status;
  f.with_env = false;
  f.with_series = false;
  if (!a.session.empty()) {
    const auto s = store.find_session(a.session);
    if (!s)
      throw InputError(SourceLoc{}, "--session",
                       "no session '" + a.session + "' in " + g.resolved_db());
    f.session_id = s->id;
  }
  // The names first (light queries), then the runs streamed one at a time: memory stays flat
  // however many runs the store holds.
  const Store::Outline outline = store.outline(f);
  if (outline.runs == 0 && !a.case_name.empty()) require_case(store, a.case_name, g.resolved_db());
  const std::vector<std::string>& params = outline.params;
  const std::vector<std::string>& metrics = outline.metrics;
  std::optional<RunSelector> selector;
  if (!a.select.empty()) selector.emplace(a.select.only, params, a.select.where);
  // Runs of earlier versions of their case are left out, or (--all-versions) kept and marked.
  CurrentVersions versions;
  bool now = true;  // the current run is of its case's current version
  const RunRecord* run = nullptr;
  const bool md = a.format == "md";

  auto param_text = [](const RunRecord& r, const std::string& n) {
    const Value* v = find_param(r.params, n);
    return v ? v->text() : std::string();
  };
  auto metric_value = [](const RunRecord& r, const std::string& n) -> std::optional<double> {
    const MetricValue* m = r.metric(n);
    return m ? std::optional<double>(m->value) : std::nullopt;
  };
  auto num = [md](const std::optional<double>& v) {
    return !v ? std::string() : md ? opt_num(v) : fmt::format("{}", *v);
  };
  // Every column, in the order of the full listing: name and cell text of the current run
  // (md: as people read it, csv: exact).
  struct Column {
    std::string name;
    std::function<std::string()> cell;
  };
  std::vector<Column> all;
  all.push_back({"key", [&] { return md ? run->key.substr(0, 12) : run->key; }});
  all.push_back({"case", [&] { return run->case_name; }});
  all.push_back({"repeat", [&] { return std::to_string(run->repeat_index); }});
  all.push_back({"attempt", [&] { return std::to_string(run->attempt); }});
  all.push_back({"status", [&] {
                   // md: the class and a short reason; the whole reason stays in `aerun show`
                   // and the reason column.
                   if (md && !run->reason.empty() && run->status != run_status::ok)
                     return run->status + " (" + short_reason(run->reason) + ")";
                   return run->status;
                 }});
  all.push_back({"reason", [&] { return run->reason; }});
  all.push_back({"version", [&] {
                   const std::string d = run->case_digest.substr(0, 8);
                   return now ? d : d + " (old)";
                 }});
  for (const auto& p : params) all.push_back({p, [&, p] { return param_text(*run, p); }});
  for (const auto& m : metrics) all.push_back({m, [&, m] { return num(metric_value(*run, m)); }});
  all.push_back({"startup_s", [&] { return num(run->startup_s); }});
  all.push_back({"wall_s", [&] { return num(run->wall_s); }});
  all.push_back({"queue_wait_s", [&] { return num(run->queue_wait_s); }});
  all.push_back({"job_id", [&] { return run->job_id; }});
  all.push_back({"log", [&] { return run->log_path; }});
  all.push_back({"case_digest", [&] { return run->case_digest; }});
  all.push_back({"current_version", [&] { return std::string(now ? "true" : "false"); }});
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
      if (c.name != "version" || (md && a.all_versions)) shown.push_back(&c);
  } else {
    // The default listing: who, what, the parameters, the headline metrics, the times.
    for (const char* n : {"key", "case", "repeat", "status"}) shown.push_back(named(n));
    if (a.all_versions) shown.push_back(named("version"));
    for (const auto& p : params) shown.push_back(named(p));
    for (const auto& m : headline_metrics(outline)) shown.push_back(named(m));
    shown.push_back(named("startup_s"));
    shown.push_back(named("wall_s"));
  }

  ChunkedOut out;
  if (md) {
    out.text() += "|";
    for (const Column* c : shown)
      out.text() += " " + md_cell(c->name == "repeat" ? "rep" : c->name) + " |";
    out.text() += "\n|";
    for (size_t i = 0; i < shown.size(); ++i) out.text() += "---|";
    out.text() += "\n";
  } else if (a.format == "csv") {
    for (size_t k = 0; k < shown.size(); ++k)
      out.text() += (k ? "," : "") + csv_field(shown[k]->name);
    out.text() += "\n";
  } else {
    out.text() += "[";
  }
  size_t listed = 0, older = 0;
  store.for_each(f, [&](RunRecord& r) {
    if (selector && !selector->keeps(r.params, r.repeat_index)) return true;
    now = versions.holds(r);
    if (!now) ++older;
    if (!now && !a.all_versions) return true;
    run = &r;
    std::string& o = out.text();
    if (md) {
      o += "|";
      for (const Column* c : shown) o += " " + md_cell(c->cell()) + " |";
      o += "\n";
    } else if (a.format == "csv") {
      for (size_t k = 0; k < shown.size(); ++k) o += (k ? "," : "") + csv_field(shown[k]->cell());
      o += "\n";
    } else {
      o += listed ? ",\n " : "\n ";
      o += fmt::format(
          "{{\"id\": {}, \"key\": {}, \"case\": {}, \"repeat\": {}, \"attempt\": {}, \"status\": "
          "{}, \"reason\": {}, \"startup_s\": {}, \"wall_s\": {}, \"queue_wait_s\": {}, "
          "\"job_id\": {}, \"log\": {}, \"case_digest\": {}, \"current_version\": {}, "
          "\"params\": {{",
          r.id, json_string(r.key), json_string(r.case_name), r.repeat_index, r.attempt,
          json_string(r.status), json_string(r.reason), json_number(r.startup_s),
          json_number(r.wall_s), json_number(r.queue_wait_s), json_string(r.job_id),
          json_string(r.log_path), json_string(r.case_digest), now ? "true" : "false");
      for (size_t j = 0; j < r.params.size(); ++j)
        o += fmt::format(
            "{}{}: {}", j ? ", " : "", json_string(r.params[j].first),
            r.params[j].second.is_number() && r.params[j].second.kind() != Value::Kind::Bool
                ? r.params[j].second.text()
                : json_string(r.params[j].second.text()));
      o += "}, \"metrics\": {";
      for (size_t j = 0; j < r.metrics.size(); ++j)
        o += fmt::format("{}{}: {}", j ? ", " : "", json_string(r.metrics[j].name),
                         json_number(r.metrics[j].value));
      o += "}}";
    }
    ++listed;
    out.maybe_flush();
    return true;
  });
  if (md) {
    const size_t hidden = all.size() - shown.size() - (a.all_versions ? 0 : 1);
    out.text() += fmt::format("\n{} run{}", listed, listed == 1 ? "" : "s");
    if (a.columns.empty() && !a.all_columns && hidden > 0)
      out.text() += fmt::format(" ({} more columns: --all-columns, or --columns NAME,...)", hidden);
    out.text() += "\n";
  } else if (a.format == "json") {
    out.text() += listed == 0 ? "]\n" : "\n]\n";
  }
  out.flush();
  if (older > 0 && !a.all_versions)
    std::cerr << "aerun: note: " << older
              << " run(s) of earlier versions of their case left out (--all-versions includes "
                 "them)\n";
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
