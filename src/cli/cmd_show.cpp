// `aerun show RUN`: one run in full — parameters, metrics with their log lines, times, provenance.
#include <fmt/format.h>

#include <cmath>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "aerun/case/case_loader.hpp"
#include "aerun/ingest/ingest.hpp"
#include "aerun/util/secret_text.hpp"
#include "aerun/util/shell_quote.hpp"
#include "aerun/util/text_format.hpp"
#include "cli/app.hpp"
#include "cli/explain_text.hpp"
#include "cli/open_store.hpp"

namespace aerun::cli {

namespace {

std::string when(const std::optional<double>& t) {
  if (!t) return "-";
  // A time no clock gives (a store edited by hand: -1e308, NaN) is shown as its number, never cast
  // (out of range, a cast to an integer is undefined: issue 40's fourth pass).
  if (!std::isfinite(*t) || std::fabs(*t) > 1e11) return fmt::format("({})", *t);
  const time_t s = static_cast<time_t>(*t);
  std::tm tm{};
  localtime_r(&s, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  const int ms = static_cast<int>((*t - static_cast<double>(s)) * 1000);
  char zone[16];
  std::strftime(zone, sizeof zone, "%z", &tm);
  return fmt::format("{}.{:03} {} ({:.3f})", buf, ms, zone, *t);
}

// The environment record of the run's session, part by part.
std::string env_record_text(const Store& store, const RunRecord& r) {
  const auto s = r.session_id ? store.find_session(std::to_string(r.session_id)) : std::nullopt;
  if (!s || s->env_record.empty())
    return fmt::format(
        "run {}: no environment record (its session {} kept none: an ingested log, or a run "
        "stored before aerun 0.1 kept records)\n",
        r.key.substr(0, 12), s ? printable(s->label) : "-");
  const auto rec = store.env_record(s->env_record);
  if (!rec) return fmt::format("run {}: its environment record is missing\n", r.key.substr(0, 12));
  std::string o = fmt::format("environment record of session {} (run {}, host {}; record {})\n",
                              printable(s->label), r.key.substr(0, 12), printable(r.host),
                              s->env_record.substr(0, 16));
  for (const auto& item : rec->items) {
    o += fmt::format("== {}{} ==\n", item.name,
                     item.status.empty() ? "" : "  [" + item.status + "]");
    size_t b = 0;
    while (b < item.text.size()) {
      size_t e = item.text.find('\n', b);
      if (e == std::string::npos) e = item.text.size();
      // A record kept before secrets in free text were redacted at capture is redacted here.
      o += printable(redacted_text(std::string_view(item.text).substr(b, e - b))) + "\n";
      b = e + 1;
    }
  }
  return o;
}

// The run: key, case and version, status, what ran where, parameters, environment.
std::string identity_text(const RunRecord& r) {
  std::string o;
  o += fmt::format("run {}  (id {})\n", r.key, r.id);
  o += fmt::format("case        {}  ({})\n", r.case_name, r.case_file);
  if (!r.system.empty()) o += fmt::format("system      {}\n", printable(r.system));
  if (!r.case_version.empty())
    o += fmt::format("version     {}  (case file sha256 {})\n", r.case_version,
                     r.case_digest.substr(0, 16));
  o += fmt::format("status      {}{}\n", r.status, r.reason.empty() ? "" : "  — " + r.reason);
  o += fmt::format("repeat      {}   attempt {}\n", r.repeat_index, r.attempt);
  o +=
      fmt::format("command     {}\n", without_param_secrets(redacted_command(r.command), r.params));
  o += fmt::format("workdir     {}\n", r.workdir);
  if (!r.container_image.empty())
    o += fmt::format("image       {}  ({})\n", printable(r.container_image),
                     r.container_digest.empty() ? "digest unknown" : printable(r.container_digest));
  if (!r.rundir.empty())
    o += fmt::format("rundir      {}\n", printable(without_param_secrets(r.rundir, r.params)));
  o += "parameters\n";
  for (const auto& [n, v] : r.params)
    o += fmt::format("  {:<18} {}\n", n, shown_param(n, v.text()));
  if (!r.env.empty()) {
    o += "environment\n";
    for (const auto& [n, v] : r.env) o += fmt::format("  {}={}\n", n, shown_variable(n, v.text()));
  }
  return o;
}

// Its instants and durations, and its batch job's.
std::string times_text(const RunRecord& r) {
  std::string o;
  o += "times\n";
  o += fmt::format("  launch            {}\n", when(r.launch_time));
  o += fmt::format("  first output      {}\n", when(r.first_output_time));
  o += fmt::format("  first step        {}\n", when(r.startup_time));
  o += fmt::format("  end               {}\n", when(r.end_time));
  o += fmt::format("  startup           {}\n",
                   r.startup_s ? fmt::format("{:.3f} s", *r.startup_s) : "-");
  o += fmt::format("  wall              {}\n", r.wall_s ? fmt::format("{:.3f} s", *r.wall_s) : "-");
  if (!r.scheduler.empty()) {
    o += "scheduler\n";
    o += fmt::format("  {:<17} {}\n", r.scheduler, r.job_id.empty() ? "-" : r.job_id);
    if (r.array_index) o += fmt::format("  array index       {}\n", *r.array_index);
    o += fmt::format("  submitted         {}\n", when(r.submit_time));
    o += fmt::format("  job start         {}\n", when(r.job_start_time));
    o += fmt::format("  queue wait        {}\n",
                     r.queue_wait_s ? fmt::format("{:.3f} s", *r.queue_wait_s) : "-");
    o += fmt::format("  state             {}{}\n",
                     r.scheduler_state.empty() ? "-" : r.scheduler_state,
                     r.scheduler_reason.empty() ? "" : "  (" + r.scheduler_reason + ")");
  }
  return o;
}

// Its exit and the resources it used ("-" when aerun did not reap it).
std::string process_text(const RunRecord& r) {
  std::string o;
  o += "process\n";
  o += fmt::format("  exit              {}\n", r.exit_code ? fmt::format("code {}", *r.exit_code)
                                               : r.signal  ? fmt::format("signal {}", *r.signal)
                                                           : "-");
  // Unknown (an ingested log, a batch job: aerun did not reap the process) is "-", never 0.
  const bool measured = r.max_rss_kb > 0 || r.user_cpu_s > 0 || r.sys_cpu_s > 0;
  o += measured ? fmt::format("  cpu               user {:.3f} s, system {:.3f} s\n", r.user_cpu_s,
                              r.sys_cpu_s)
                : std::string("  cpu               -\n");
  o += measured ? fmt::format("  max rss           {} KiB\n", r.max_rss_kb)
                : std::string("  max rss           -\n");
  return o;
}

// Where and by what it ran.
std::string provenance_text(const RunRecord& r, const Store& store) {
  std::string o;
  o += "provenance\n";
  o += fmt::format("  host              {}\n", r.host);
  if (!r.nodes.empty() && r.nodes != r.host)
    o += fmt::format("  nodes             {}\n", printable(r.nodes));
  o += fmt::format("  aerun             {}\n", r.aerun_version);
  o += fmt::format("  git commit        {}\n", r.git_commit.empty() ? "-" : r.git_commit);
  if (const auto s = r.session_id ? store.find_session(std::to_string(r.session_id)) : std::nullopt)
    o += fmt::format("  session           {}{}\n", printable(s->label),
                     s->env_record.empty() ? "" : "  (environment record: aerun show --env)");
  return o;
}

// Its log, and what was read from it: metrics (each to its line), series, warnings.
std::string results_text(const RunRecord& r) {
  std::string o;
  o += fmt::format("log         {}  ({} bytes, sha256 {}){}\n",
                   without_param_secrets(r.log_path, r.params), r.log_size, r.log_sha256,
                   r.log_state == "pruned"       ? "  [log pruned: the lines below are gone]"
                   : r.log_state == "compressed" ? "  [compressed: zless reads it]"
                                                 : "");
  if (!r.metrics.empty()) {
    o += "metrics (value ← log line)\n";
    for (const auto& m : r.metrics)
      o += fmt::format("  {:<18} {} {}  (n={}) ← {}:{}\n", m.name, format_number(m.value, ".6g"),
                       m.unit, m.count, r.log_path, m.source_line);
  }
  for (const auto& s : r.series) {
    o += fmt::format("series {} ({} points):", s.name, s.points.size());
    for (size_t i = 0; i < s.points.size() && i < 20; ++i)
      o += fmt::format(" {}", format_number(s.points[i].value, ".4g"));
    if (s.points.size() > 20) o += " ...";
    o += "\n";
  }
  if (!r.warnings.empty()) {
    o += "extraction warnings (what the log gave that was not used)\n";
    for (const auto& w : r.warnings) o += fmt::format("  {}\n", w);
  }
  return o;
}

// `--explain`: the run's log read again as its case reads it (its case file when it is still
// there, else each preset the log shows, then the generic reader), line by line and why.
int explain_run(const RunRecord& r) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (r.log_path.empty() || !fs::is_regular_file(r.log_path, ec))
    throw InputError(SourceLoc{}, "--explain",
                     "the run's log is not there to read: " + printable(r.log_path));
  // A log aerun wrote is a file of one name: a link put at its path since is not read (issue
  // 40); an ingested log is the user's own file, a link if they made one.
  if (r.log_state != kForeignLog && (fs::is_symlink(fs::symlink_status(r.log_path, ec)) ||
                                     fs::hard_link_count(r.log_path, ec) != 1))
    throw InputError(SourceLoc{}, "--explain",
                     "the run's log " + printable(r.log_path) +
                         " was replaced by a link since aerun wrote it: not read");
  CaseSpec spec;
  bool detect = true;
  if (!r.case_file.empty() && fs::is_regular_file(r.case_file, ec)) {
    spec = load_case(r.case_file);
    detect = spec.presets.empty() && spec.metrics.empty();
  } else {
    spec.name = r.case_name;
  }
  std::cout << explained_log_text(r.log_path, explain_log(spec, r.log_path, detect), detect);
  return 0;
}

int show_command(const Globals& g, const std::string& ref, bool env, bool explain) {
  Store store = open_existing_store(g.resolved_db());
  const auto r = store.find(ref);
  if (!r)
    throw InputError(SourceLoc{}, "RUN", fmt::format("no run '{}' in {}", ref, g.resolved_db()));
  if (env) {
    std::cout << env_record_text(store, *r);
    return 0;
  }
  if (explain) return explain_run(*r);
  std::cout << identity_text(*r) << times_text(*r) << process_text(*r) << provenance_text(*r, store)
            << results_text(*r);
  return 0;
}

}  // namespace

void add_show_command(CLI::App& app, Globals& g, Action& action) {
  struct ShowArgs {
    std::string ref;
    bool env = false;
    bool explain = false;
  };
  auto a = std::make_shared<ShowArgs>();
  CLI::App* c = app.add_subcommand("show", "one run in full");
  c->add_option("run", a->ref, "run id, key or key prefix")->required();
  c->add_flag("--env", a->env,
              "the environment record of the run's session: variables (secrets redacted), "
              "modules, compilers, MPI, GPUs, Python packages, CPU, kernel, git, case file");
  c->add_flag("--explain", a->explain,
              "read the run's log again and print what each line gave and why (its metrics with "
              "their lines, the generic reader's templates, keys, units and names)");
  c->add_option("--db", g.db, "results store");
  c->callback([&action, &g, a] {
    action = [&g, a] { return show_command(g, a->ref, a->env, a->explain); };
  });
}

}  // namespace aerun::cli
