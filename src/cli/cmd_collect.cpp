// `aerun collect [CASE] [--wait]`: gathers the batch jobs submitted earlier (logs, stamps,
// metrics, status) into the store.
#include <fmt/format.h>

#include <iostream>

#include "aerun/case/poll_interval.hpp"
#include "aerun/sched/job_collection.hpp"
#include "aerun/store/store.hpp"
#include "cli/app.hpp"
#include "cli/progress_line.hpp"
#include "cli/session_scope.hpp"

#include <filesystem>

namespace aerun::cli {

namespace {

struct CollectArgs {
  std::string case_ref;
  bool wait = false;
  std::string poll;   // --poll-interval as written
  std::string label;  // the session's (the runs keep the session they were submitted in)
};

int collect_command(const Globals& g, const CollectArgs& a) {
  Store store(g.resolved_db());
  SessionScope session(store, describe_session(SessionArgs{a.label, ""}, "collect", {}, "",
                                               std::filesystem::current_path().string()));
  CollectOptions o;
  o.case_ref = a.case_ref;
  o.wait = a.wait;
  std::optional<PollInterval> cli;
  if (!a.poll.empty()) cli = parse_poll_interval(a.poll, SourceLoc{}, "--poll-interval");
  std::string warning;
  const PollInterval p = resolve_poll_interval(cli, std::nullopt, &warning);
  if (!warning.empty()) std::cerr << "aerun: note: " << warning << "\n";
  o.follow.poll_s = p.min_s;
  o.follow.max_poll_s = p.max_s;
  ProgressLine progress(std::cerr);
  o.progress = [&](int collected, int followed) {
    progress.show(fmt::format("[aerun] collect: {}/{} runs collected, {} queued or running",
                              collected, followed, followed - collected),
                  true);
  };
  const CollectSummary s = collect_jobs(store, o, progress.stream());
  progress.clear();
  if (s.stop_signal) return 128 + s.stop_signal;
  if (s.query_failures > 0 && s.ok + s.failed == 0 && s.outstanding > 0) {
    std::cerr << "aerun: error: " << s.last_error << "\n";
    return 2;
  }
  return s.failed > 0 || (a.wait && s.outstanding > 0) ? 1 : 0;
}

}  // namespace

void add_collect_command(CLI::App& app, Globals& g, Action& action) {
  auto a = std::make_shared<CollectArgs>();
  CLI::App* c = app.add_subcommand(
      "collect", "gather finished batch jobs (submitted with --no-wait) into the store");
  c->add_option("case", a->case_ref, "a case name or case file (default: every case)");
  c->add_flag("--wait", a->wait, "follow the jobs until every one ended");
  c->add_option("--poll-interval,--poll", a->poll,
                "with --wait: the first interval between scheduler queries, or FIRST..LONGEST "
                "(default 1s..30s, or $AERUN_POLL_INTERVAL)");
  c->add_option("--label", a->label, "name this collect's session (default: its start time)");
  c->add_option("--db", g.db, "results store (default: $AERUN_DB or results/aerun.db)");
  c->callback([&action, &g, a] { action = [&g, a] { return collect_command(g, *a); }; });
}

}  // namespace aerun::cli
