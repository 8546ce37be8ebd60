// `aerun show RUN`: one run in full — parameters, metrics with their log lines, times, provenance.
#include <fmt/format.h>

#include <ctime>
#include <iostream>

#include "aerun/util/text_format.hpp"
#include "cli/app.hpp"
#include "cli/open_store.hpp"

namespace aerun::cli {

namespace {

std::string when(const std::optional<double>& t) {
  if (!t) return "-";
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

int show_command(const Globals& g, const std::string& ref) {
  Store store = open_existing_store(g.resolved_db());
  const auto r = store.find(ref);
  if (!r)
    throw InputError(SourceLoc{}, "RUN", fmt::format("no run '{}' in {}", ref, g.resolved_db()));
  std::string o;
  o += fmt::format("run {}  (id {})\n", r->key, r->id);
  o += fmt::format("case        {}  ({})\n", r->case_name, r->case_file);
  if (!r->case_version.empty())
    o += fmt::format("version     {}  (case file sha256 {})\n", r->case_version,
                     r->case_digest.substr(0, 16));
  o += fmt::format("status      {}{}\n", r->status, r->reason.empty() ? "" : "  — " + r->reason);
  o += fmt::format("repeat      {}   attempt {}\n", r->repeat_index, r->attempt);
  o += fmt::format("command     {}\n", r->command);
  o += fmt::format("workdir     {}\n", r->workdir);
  o += "parameters\n";
  for (const auto& [n, v] : r->params) o += fmt::format("  {:<18} {}\n", n, v.text());
  if (!r->env.empty()) {
    o += "environment\n";
    for (const auto& [n, v] : r->env) o += fmt::format("  {}={}\n", n, v.text());
  }
  o += "times\n";
  o += fmt::format("  launch            {}\n", when(r->launch_time));
  o += fmt::format("  first output      {}\n", when(r->first_output_time));
  o += fmt::format("  first step        {}\n", when(r->startup_time));
  o += fmt::format("  end               {}\n", when(r->end_time));
  o += fmt::format("  startup           {}\n",
                   r->startup_s ? fmt::format("{:.3f} s", *r->startup_s) : "-");
  o += fmt::format("  wall              {}\n",
                   r->wall_s ? fmt::format("{:.3f} s", *r->wall_s) : "-");
  if (!r->scheduler.empty()) {
    o += "scheduler\n";
    o += fmt::format("  {:<17} {}\n", r->scheduler, r->job_id.empty() ? "-" : r->job_id);
    if (r->array_index) o += fmt::format("  array index       {}\n", *r->array_index);
    o += fmt::format("  submitted         {}\n", when(r->submit_time));
    o += fmt::format("  job start         {}\n", when(r->job_start_time));
    o += fmt::format("  queue wait        {}\n",
                     r->queue_wait_s ? fmt::format("{:.3f} s", *r->queue_wait_s) : "-");
    o += fmt::format("  state             {}{}\n",
                     r->scheduler_state.empty() ? "-" : r->scheduler_state,
                     r->scheduler_reason.empty() ? "" : "  (" + r->scheduler_reason + ")");
  }
  o += "process\n";
  o += fmt::format("  exit              {}\n", r->exit_code ? fmt::format("code {}", *r->exit_code)
                                               : r->signal  ? fmt::format("signal {}", *r->signal)
                                                            : "-");
  // Unknown (an ingested log, a batch job: aerun did not reap the process) is "-", never 0.
  const bool measured = r->max_rss_kb > 0 || r->user_cpu_s > 0 || r->sys_cpu_s > 0;
  o += measured ? fmt::format("  cpu               user {:.3f} s, system {:.3f} s\n", r->user_cpu_s,
                              r->sys_cpu_s)
                : std::string("  cpu               -\n");
  o += measured ? fmt::format("  max rss           {} KiB\n", r->max_rss_kb)
                : std::string("  max rss           -\n");
  o += "provenance\n";
  o += fmt::format("  host              {}\n", r->host);
  o += fmt::format("  aerun             {}\n", r->aerun_version);
  o += fmt::format("  git commit        {}\n", r->git_commit.empty() ? "-" : r->git_commit);
  o += fmt::format("log         {}  ({} bytes, sha256 {}){}\n", r->log_path, r->log_size,
                   r->log_sha256,
                   r->log_state == "pruned"       ? "  [log pruned: the lines below are gone]"
                   : r->log_state == "compressed" ? "  [compressed: zless reads it]"
                                                  : "");
  if (!r->metrics.empty()) {
    o += "metrics (value ← log line)\n";
    for (const auto& m : r->metrics)
      o += fmt::format("  {:<18} {} {}  (n={}) ← {}:{}\n", m.name, format_number(m.value, ".6g"),
                       m.unit, m.count, r->log_path, m.source_line);
  }
  for (const auto& s : r->series) {
    o += fmt::format("series {} ({} points):", s.name, s.points.size());
    for (size_t i = 0; i < s.points.size() && i < 20; ++i)
      o += fmt::format(" {}", format_number(s.points[i].value, ".4g"));
    if (s.points.size() > 20) o += " ...";
    o += "\n";
  }
  if (!r->warnings.empty()) {
    o += "extraction warnings (what the log gave that was not used)\n";
    for (const auto& w : r->warnings) o += fmt::format("  {}\n", w);
  }
  std::cout << o;
  return 0;
}

}  // namespace

void add_show_command(CLI::App& app, Globals& g, Action& action) {
  auto ref = std::make_shared<std::string>();
  CLI::App* c = app.add_subcommand("show", "one run in full");
  c->add_option("run", *ref, "run id, key or key prefix")->required();
  c->add_option("--db", g.db, "results store");
  c->callback([&action, &g, ref] { action = [&g, ref] { return show_command(g, *ref); }; });
}

}  // namespace aerun::cli
