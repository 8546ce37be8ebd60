// `aerun merge A.db [B.db ...] --into C.db`: several stores (clusters, laptops) into one. Every
// attempt keeps its session (label, host, cluster); merging again changes nothing; the same run
// measured on two clusters is kept twice (one current, one in the history, each in its session).
#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>

#include "aerun/judge/run_status.hpp"
#include "aerun/util/shell_quote.hpp"
#include "cli/app.hpp"
#include "cli/open_store.hpp"

namespace aerun::cli {

namespace {

namespace fs = std::filesystem;

struct MergeArgs {
  std::vector<std::string> sources;
  std::string into;
};

// The target's session for a source session: the same session (same label and start) when it
// is there already, else a new one, its label suffixed with its origin when the label is taken.
long long target_session(Store& into, const SessionInfo& s) {
  if (auto t = into.find_session(s.label); t && std::fabs(t->started_at - s.started_at) < 1e-3)
    return t->id;
  SessionInfo copy = s;
  copy.id = 0;
  const std::string origin = !s.cluster.empty() ? s.cluster : !s.host.empty() ? s.host : "merged";
  for (int n = 1;; ++n) {
    auto t = into.find_session(copy.label);
    if (!t) break;
    if (std::fabs(t->started_at - s.started_at) < 1e-3) return t->id;
    copy.label = n == 1 ? s.label + "@" + origin : fmt::format("{}@{}-{}", s.label, origin, n);
  }
  copy.named = true;
  return into.open_session(copy);
}

int merge_command(const MergeArgs& a) {
  for (const auto& src : a.sources) {
    if (!fs::exists(src)) throw InputError(SourceLoc{}, "store", "no results store at " + src);
    std::error_code ec;
    if (fs::exists(a.into) && fs::equivalent(src, a.into, ec))
      throw InputError(SourceLoc{}, "--into", src + " is the store merged into");
  }
  Store into(a.into);
  int added = 0, skipped = 0;
  for (const auto& src : a.sources) {
    // The source is read, never written: not migrated, not switched to WAL (a copy is migrated
    // when its schema is older), so another site's file keeps its bytes (issue 28).
    if (!fs::exists(src)) throw InputError(SourceLoc{}, "store", "no results store at " + src);
    const std::string scratch =
        (fs::path(a.into).parent_path() / (".aerun-merge-" + std::to_string(::getpid()) + ".db"))
            .string();
    struct Remove {
      std::string p;
      ~Remove() {
        std::error_code ec;
        for (const char* ext : {"", "-wal", "-shm", "-journal"}) fs::remove(p + ext, ec);
      }
    } remove_scratch{scratch};
    const Store from = Store::read_untouched(src, scratch);
    if (const long long orphans = from.attempts_without_case())
      std::cerr << fmt::format(
          "aerun: {}: {} attempt(s) without a case name (not written by aerun) left out\n",
          printable(src), orphans);
    std::map<long long, long long> session_of;  // source id -> target id
    for (const auto& s : from.sessions()) {
      // The session's environment record comes along (same content, same digest).
      if (!s.env_record.empty())
        if (const auto rec = from.env_record(s.env_record)) into.save_env_record(*rec);
      session_of[s.id] = target_session(into, s);
    }
    int here = 0, there = 0;
    for (const auto& name : from.case_names()) {
      std::vector<RunRecord> attempts = from.all_attempts(name);
      std::stable_sort(attempts.begin(), attempts.end(),
                       [](const RunRecord& x, const RunRecord& y) {
                         return x.end_time.value_or(x.launch_time.value_or(-1)) <
                                y.end_time.value_or(y.launch_time.value_or(-1));
                       });
      for (RunRecord& r : attempts) {
        if (r.status == run_status::running || r.status == run_status::pending)
          continue;  // still in flight there
        const auto it = session_of.find(r.session_id);
        r.session_id = it == session_of.end() ? 0 : it->second;
        r.runner_pid = 0;  // not a claim of any process here
        if (into.import_attempt(r))
          ++here;
        else
          ++there;
      }
    }
    std::cerr << fmt::format("aerun: {}: {} attempt(s) added, {} already in {}\n", src, here, there,
                             a.into);
    added += here;
    skipped += there;
  }
  std::cout << fmt::format("{}: {} attempt(s) added, {} already there\n", a.into, added, skipped);
  return 0;
}

}  // namespace

void add_merge_command(CLI::App& app, Globals& /*g*/, Action& action) {
  auto a = std::make_shared<MergeArgs>();
  CLI::App* c = app.add_subcommand(
      "merge", "merge stores (other clusters' runs) into one; merging twice changes nothing");
  c->add_option("stores", a->sources, "the stores to read")->required();
  c->add_option("--into", a->into, "the store to merge into (created if absent)")->required();
  c->callback([&action, a] { action = [a] { return merge_command(*a); }; });
}

}  // namespace aerun::cli
