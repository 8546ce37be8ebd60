// `aerun merge A.db [B.db ...] --into C.db`: several stores (clusters, laptops) into one. Every
// attempt keeps its session (label, host, cluster); merging again changes nothing; the same run
// measured on two clusters is kept twice (one current, one in the history, each in its session).
#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "aerun/judge/run_status.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/util/file_name.hpp"
#include "aerun/util/shell_quote.hpp"
#include "aerun/util/store_signature.hpp"
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

// The scratch copies a merge killed earlier on this host left beside the target (`kill -9`: no
// destructor ran), removed: `.aerun-merge-<host>-<pid>.db` of this host, and the older
// `.aerun-merge-<pid>.db`, when that process is gone (issue 40: 61 MB after three kills). A live
// process of that number keeps its files, whoever it is.
// A merge's scratch file by its kind (the text after `.db`): the copy itself is an aerun store,
// its rollback journal and WAL start with SQLite's magic numbers (sqlite.org/fileformat.html).
bool is_sqlite_scratch(const std::string& path, const std::string& tail) {
  if (tail.empty()) return is_aerun_store_file(path);
  std::ifstream in(path, std::ios::binary);
  unsigned char magic[8] = {};
  in.read(reinterpret_cast<char*>(magic), sizeof magic);
  if (in.gcount() != sizeof magic) return false;
  static constexpr unsigned char kJournal[8] = {0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7};
  if (tail == "-journal") return std::equal(magic, magic + 8, kJournal);
  if (tail == "-wal")
    return magic[0] == 0x37 && magic[1] == 0x7f && magic[2] == 0x06 &&
           (magic[3] == 0x82 || magic[3] == 0x83);
  return false;
}

void remove_dead_merges_scratch(const fs::path& folder) {
  const std::string host = file_name_part(host_name());
  std::error_code ec;
  for (fs::directory_iterator it(folder.empty() ? fs::path(".") : folder, ec), end;
       !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(".aerun-merge-")) continue;
    std::string rest = name.substr(13);
    if (const size_t dot = rest.find(".db"); dot != std::string::npos)
      rest = rest.substr(0, dot);
    else
      continue;
    if (rest.starts_with(host + "-"))
      rest = rest.substr(host.size() + 1);
    else if (rest.find_first_not_of("0123456789") != std::string::npos)
      continue;  // another host's
    if (rest.empty() || rest.size() > 9 ||
        rest.find_first_not_of("0123456789") != std::string::npos)
      continue;
    const pid_t pid = static_cast<pid_t>(std::stol(rest));
    if (pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
    std::error_code rm;
    // Only a copy of an aerun store (SQLite, with aerun's schema_migrations): a file of the user's
    // that merely has such a name is never removed (issue 40's third pass).
    if (fs::is_regular_file(fs::symlink_status(it->path(), rm)) &&
        is_sqlite_scratch(it->path().string(), name.substr(name.rfind(".db") + 3)))
      fs::remove(it->path(), rm);
  }
}

int merge_command(const MergeArgs& a) {
  for (const auto& src : a.sources) {
    if (!fs::exists(src)) throw InputError(SourceLoc{}, "store", "no results store at " + src);
    std::error_code ec;
    if (fs::exists(a.into) && fs::equivalent(src, a.into, ec))
      throw InputError(SourceLoc{}, "--into", src + " is the store merged into");
  }
  Store into(a.into);
  remove_dead_merges_scratch(fs::path(a.into).parent_path());
  int added = 0, skipped = 0;
  for (const auto& src : a.sources) {
    // The source is read, never written: not migrated, not switched to WAL (a copy is migrated
    // when its schema is older), so another site's file keeps its bytes (issue 28).
    if (!fs::exists(src)) throw InputError(SourceLoc{}, "store", "no results store at " + src);
    const std::string scratch =
        (fs::path(a.into).parent_path() /
         (".aerun-merge-" + file_name_part(host_name()) + "-" + std::to_string(::getpid()) + ".db"))
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
