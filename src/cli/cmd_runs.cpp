// `aerun runs`: the stored runs, one line each, as Markdown, CSV or JSON.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>

#include "aerun/case_loader.hpp"
#include "aerun/case_versions.hpp"
#include "aerun/error.hpp"
#include "aerun/table.hpp"
#include "aerun/text_format.hpp"
#include "cli/app.hpp"
#include "cli/open_store.hpp"

namespace aerun::cli {

namespace {

struct RunsArgs {
  std::string case_name;
  std::string status;
  std::string format = "md";
  bool all_versions = false;
  std::string session;
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
  } else if (a.format == "csv") {
    std::vector<std::string> head = {"key", "case", "repeat", "attempt", "status", "reason"};
    head.insert(head.end(), params.begin(), params.end());
    head.insert(head.end(), metrics.begin(), metrics.end());
    for (const char* h :
         {"startup_s", "wall_s", "queue_wait_s", "job_id", "log", "case_digest", "current_version"})
      head.push_back(h);
    for (size_t i = 0; i < head.size(); ++i) {
      if (i) out += ',';
      out += csv_field(head[i]);
    }
    out += "\n";
    for (size_t i = 0; i < runs.size(); ++i) {
      const RunRecord& r = runs[i];
      std::vector<std::string> row = {
          r.key,    r.case_name, std::to_string(r.repeat_index), std::to_string(r.attempt),
          r.status, r.reason};
      for (const auto& p : params) row.push_back(param_text(r, p));
      for (const auto& m : metrics) {
        const auto v = metric_value(r, m);
        row.push_back(v ? fmt::format("{}", *v) : "");
      }
      row.push_back(r.startup_s ? fmt::format("{}", *r.startup_s) : "");
      row.push_back(r.wall_s ? fmt::format("{}", *r.wall_s) : "");
      row.push_back(r.queue_wait_s ? fmt::format("{}", *r.queue_wait_s) : "");
      row.push_back(r.job_id);
      row.push_back(r.log_path);
      row.push_back(r.case_digest);
      row.push_back(current[i] ? "true" : "false");
      for (size_t k = 0; k < row.size(); ++k) {
        if (k) out += ',';
        out += csv_field(row[k]);
      }
      out += "\n";
    }
  } else {
    std::vector<std::string> head = {"key", "case", "rep", "status"};
    if (a.all_versions) head.push_back("version");
    head.insert(head.end(), params.begin(), params.end());
    head.insert(head.end(), metrics.begin(), metrics.end());
    for (const char* h : {"startup_s", "wall_s", "log"}) head.push_back(h);
    out += "|";
    for (const auto& h : head) out += " " + md_cell(h) + " |";
    out += "\n|";
    for (size_t i = 0; i < head.size(); ++i) out += "---|";
    out += "\n";
    for (size_t i = 0; i < runs.size(); ++i) {
      const RunRecord& r = runs[i];
      std::string status = r.status;
      // The class and a short reason; the whole reason stays in `aerun show` and the CSV/JSON.
      if (!r.reason.empty() && r.status != "ok") status += " (" + short_reason(r.reason) + ")";
      std::vector<std::string> row = {r.key.substr(0, 12), r.case_name,
                                      std::to_string(r.repeat_index), status};
      if (a.all_versions) row.push_back(version_text(i));
      for (const auto& p : params) row.push_back(param_text(r, p));
      for (const auto& m : metrics) row.push_back(opt_num(metric_value(r, m)));
      row.push_back(opt_num(r.startup_s));
      row.push_back(opt_num(r.wall_s));
      row.push_back(r.log_path);
      out += "|";
      for (const auto& c : row) out += " " + md_cell(c) + " |";
      out += "\n";
    }
    out += fmt::format("\n{} run{}\n", runs.size(), runs.size() == 1 ? "" : "s");
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
  c->add_option("--db", g.db, "results store");
  c->callback([&action, &g, args] { action = [&g, args] { return runs_command(g, *args); }; });
}

}  // namespace aerun::cli
