// `aerun forget`: remove stored runs (and the logs aerun wrote for them), in one transaction.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "aerun/case/case_loader.hpp"
#include "aerun/run/forget.hpp"
#include "aerun/run/owned_log.hpp"
#include "aerun/sched/job_stamps.hpp"
#include "aerun/util/error.hpp"
#include "cli/app.hpp"
#include "cli/open_store.hpp"

namespace aerun::cli {

namespace {

struct ForgetArgs {
  std::string case_name;
  std::vector<std::string> only, statuses;
  std::string before;
  std::string where;
  bool dry_run = false;
  bool keep_logs = false;
};

int forget_command(const Globals& g, const ForgetArgs& a) {
  Store store = open_existing_store(g.resolved_db());
  ForgetSelection s{a.case_name, a.only, a.statuses, std::nullopt, a.where};
  if (!a.before.empty()) {
    s.before = parse_date(a.before);
    if (!s.before)
      throw InputError(
          SourceLoc{}, "--before",
          "'" + a.before + "' is not a date: write 2026-11-01 or 2026-11-01T12:00 (UTC)");
  }
  if (!a.case_name.empty()) require_case(store, a.case_name, g.resolved_db());

  std::vector<RunRecord> busy;
  const std::vector<RunRecord> runs = select_runs_to_forget(store, s, &busy);
  for (const auto& r : runs)
    std::cout << fmt::format("{} {}  {:<8} {:<12} {}\n", a.dry_run ? "would forget" : "forget",
                             r.key.substr(0, 12), r.case_name, r.status, describe_params(r.params));
  for (const auto& r : busy)
    std::cerr << fmt::format("aerun: run {} is {} (aerun process {} on {}): left alone\n",
                             r.key.substr(0, 12), r.status, r.runner_pid, r.host);
  if (a.dry_run) {
    std::cout << fmt::format("{} run(s) would be forgotten (--dry-run: nothing changed)\n",
                             runs.size());
    return 0;
  }
  std::vector<long long> ids;
  for (const auto& r : runs) ids.push_back(r.id);
  const int removed = store.remove(ids);
  int logs = 0, kept = 0;
  if (!a.keep_logs) {
    // Only what aerun wrote under this store's logs folder (an ingested run's log is the user's
    // file, a merged one another store's, one in another store's folder that store's), and no log
    // a remaining attempt still names.
    for (const auto& r : runs) {
      if (!aerun_wrote_log(r.log_path, r.log_state, g.logs_dir())) {
        kept += !r.log_path.empty() && r.log_state != "pruned" &&
                std::filesystem::exists(std::filesystem::symlink_status(r.log_path));
        continue;
      }
      if (store.log_in_use(r.log_path)) continue;
      std::error_code ec;
      logs += std::filesystem::remove(r.log_path, ec) ? 1 : 0;
      std::filesystem::remove(stamps_path(r.log_path), ec);
    }
  }
  std::cout << fmt::format(
      "forgot {} run(s){}\n", removed,
      a.keep_logs ? " (logs kept)"
      : kept == 0 ? fmt::format(", removed {} log(s)", logs)
                  : fmt::format(", removed {} log(s), kept {} this store did not write "
                                "under {}",
                                logs, kept, g.logs_dir()));
  return 0;
}

}  // namespace

void add_forget_command(CLI::App& app, Globals& g, Action& action) {
  auto args = std::make_shared<ForgetArgs>();
  CLI::App* c = app.add_subcommand("forget", "remove stored runs (one transaction) and their logs");
  c->add_option("--case", args->case_name, "the runs of this case");
  c->add_option("--only", args->only,
                "KEY=VALUE[,VALUE...]: only runs with one of these values (repeatable)");
  c->add_option("--where", args->where,
                "CONDITION: only runs where it holds (`layers >= 48 && method != \"l2l\"`)");
  c->add_option("--status", args->statuses, "only runs with this status (repeatable)");
  c->add_option("--before", args->before, "only runs launched before this date (UTC)");
  c->add_flag("--dry-run,-n", args->dry_run, "list what would be forgotten; change nothing");
  c->add_flag("--keep-logs", args->keep_logs, "leave the log files where they are");
  c->add_option("--db", g.db, "results store (default: $AERUN_DB or results/aerun.db)");
  c->callback([&action, &g, args] { action = [&g, args] { return forget_command(g, *args); }; });
}

}  // namespace aerun::cli
