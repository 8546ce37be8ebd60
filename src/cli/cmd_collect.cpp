// `aerun collect [CASE] [--wait]`: gathers the batch jobs submitted earlier (logs, stamps,
// metrics, status) into the store.
#include <fmt/format.h>

#include <iostream>

#include "aerun/job_collection.hpp"
#include "aerun/store.hpp"
#include "cli/app.hpp"

namespace aerun::cli {

namespace {

struct CollectArgs {
  std::string case_ref;
  bool wait = false;
  double poll_s = 2;
};

int collect_command(const Globals& g, const CollectArgs& a) {
  Store store(g.resolved_db());
  CollectOptions o;
  o.case_ref = a.case_ref;
  o.wait = a.wait;
  o.follow.poll_s = a.poll_s;
  const CollectSummary s = collect_jobs(store, o, std::cerr);
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
  c->add_option("--poll", a->poll_s, "seconds between scheduler queries at first (grows to 30)")
      ->check(CLI::Range(0.1, 3600.0));
  c->add_option("--db", g.db, "results store (default: $AERUN_DB or results/aerun.db)");
  c->callback([&action, &g, a] { action = [&g, a] { return collect_command(g, *a); }; });
}

}  // namespace aerun::cli
