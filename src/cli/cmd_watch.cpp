// `aerun watch [CASE]`: the running and pending runs of a case (or of every case), read from the
// store and their logs as they are written: status, host, iteration/total, rate, time since the
// last output, ETA and the last metric values. Refreshes in place on a terminal until nothing runs;
// `--once` prints one plain report.
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>

#include "aerun/calendar_time.hpp"
#include "aerun/extractor.hpp"
#include "aerun/provenance.hpp"
#include "aerun/text_format.hpp"
#include "cli/app.hpp"
#include "cli/open_store.hpp"
#include "cli/regress_sessions.hpp"

namespace aerun::cli {

namespace {

namespace fs = std::filesystem;

struct WatchArgs {
  std::string case_name;
  bool once = false;
  double interval_s = 2;
};

// The last `bytes` of a log (from a line start), for the latest counter and metric values.
std::string log_tail(const std::string& path, size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  in.seekg(0, std::ios::end);
  const auto size = static_cast<size_t>(in.tellg());
  const size_t from = size > bytes ? size - bytes : 0;
  in.seekg(static_cast<std::streamoff>(from));
  std::string text(size - from, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (from > 0) {
    const auto nl = text.find('\n');
    text.erase(0, nl == std::string::npos ? text.size() : nl + 1);
  }
  return text;
}

std::string clock_text(double s) {
  if (s < 0) return "?";
  const long long t = static_cast<long long>(s + 0.5);
  return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
                   : fmt::format("{}:{:02}", t / 60, t % 60);
}

std::string ago(double s) {
  if (s < 0) return "-";
  return s < 120 ? fmt::format("{:.0f} s ago", s) : fmt::format("{:.0f} min ago", s / 60);
}

// One report of what runs now; empty when nothing is running or pending.
std::string watch_report(const Store& store, const std::string& case_name, bool* any) {
  std::vector<RunRecord> runs;
  for (const char* status : {"running", "pending"}) {
    RunFilter f;
    f.case_name = case_name;
    f.status = status;
    auto more = store.list(f);
    runs.insert(runs.end(), more.begin(), more.end());
  }
  *any = !runs.empty();
  const double now = wall_now();
  std::string out = fmt::format(
      "aerun watch{}: {} running, {} pending at {}\n", case_name.empty() ? "" : " " + case_name,
      std::count_if(runs.begin(), runs.end(),
                    [](const RunRecord& r) { return r.status == "running"; }),
      std::count_if(runs.begin(), runs.end(),
                    [](const RunRecord& r) { return r.status == "pending"; }),
      iso8601(now));
  if (runs.empty()) return out + "nothing is running.\n";
  out += fmt::format("{:<13} {:<9} {:<12} {:<20} {:>9} {:>11} {:>8}  {}\n", "run", "status", "host",
                     "progress", "rate", "last output", "ETA", "last values");
  std::map<std::string, std::optional<CaseSpec>> specs;
  for (const auto& r : runs) {
    auto it = specs.find(r.case_name);
    if (it == specs.end()) it = specs.emplace(r.case_name, case_of({r})).first;
    std::string progress = "-", rate = "-", eta = "-", last = "-", values;
    if (r.status == "running" && !r.log_path.empty() && it->second) {
      const CaseSpec& spec = *it->second;
      Extractor ex(spec);
      ex.feed(log_tail(r.log_path, 1 << 20));
      ex.finish();
      RunEvidence ev;
      ex.describe(ev);
      const double started = r.launch_time.value_or(r.job_start_time.value_or(now));
      const double elapsed = now - started;
      if (ev.counter_done && ev.counter_planned && *ev.counter_planned > 0) {
        const double done = *ev.counter_done, total = *ev.counter_planned;
        progress = fmt::format("{:.0f}/{:.0f} ({:.0f}%)", done, total, 100 * done / total);
        if (done > 0 && elapsed > 0) {
          rate = fmt::format("{:.3g}/s", done / elapsed);
          eta = clock_text((total - done) * elapsed / done);
        }
      } else if (ev.progress_lines > 0) {
        progress = fmt::format("{} lines", ev.progress_lines);
      }
      struct stat st {};
      if (::stat(r.log_path.c_str(), &st) == 0)
        last = ago(now - (st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9));
      for (const auto& m : ex.metrics()) {
        if (values.size() > 60) break;
        values += fmt::format("{}{}={}", values.empty() ? "" : " ", m.name, format_number(m.value));
      }
    }
    out += fmt::format("{:<13} {:<9} {:<12} {:<20} {:>9} {:>11} {:>8}  {}\n", r.key.substr(0, 12),
                       r.status, r.host.substr(0, 12), progress, rate, last, eta, values);
  }
  return out;
}

int watch_command(const Globals& g, const WatchArgs& a) {
  const Store store = open_existing_store(g.resolved_db());
  if (!a.case_name.empty()) require_case(store, a.case_name, g.resolved_db());
  bool any = false;
  if (a.once || !::isatty(STDOUT_FILENO)) {
    std::cout << watch_report(store, a.case_name, &any);
    return 0;
  }
  for (;;) {
    const std::string report = watch_report(store, a.case_name, &any);
    std::cout << "\033[H\033[2J" << report << std::flush;  // home, clear: refresh in place
    if (!any) return 0;
    std::this_thread::sleep_for(std::chrono::duration<double>(a.interval_s));
  }
}

}  // namespace

void add_watch_command(CLI::App& app, Globals& g, Action& action) {
  auto a = std::make_shared<WatchArgs>();
  CLI::App* c = app.add_subcommand(
      "watch", "the running and pending runs: progress, rate, ETA, last values (live)");
  c->add_option("case", a->case_name, "a case (default: every case)");
  c->add_flag("--once", a->once, "print one report and exit (also when not on a terminal)");
  c->add_option("--interval", a->interval_s, "seconds between refreshes (default 2)")
      ->check(CLI::Range(0.2, 3600.0));
  c->add_option("--db", g.db, "results store (default: $AERUN_DB or results/aerun.db)");
  c->callback([&action, &g, a] { action = [&g, a] { return watch_command(g, *a); }; });
}

}  // namespace aerun::cli
