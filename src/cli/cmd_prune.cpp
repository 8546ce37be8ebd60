// `aerun prune --keep-logs 30d [--compress]`: old logs compressed (gzip) or removed; every run's
// status, metrics, provenance and file:line trace stay in the store, the log marked.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "aerun/case/case_loader.hpp"
#include "aerun/run/owned_log.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/util/gzip_file.hpp"
#include "cli/app.hpp"
#include "cli/open_store.hpp"

namespace aerun::cli {

namespace {

namespace fs = std::filesystem;

struct PruneArgs {
  std::string keep = "30d";
  bool compress = false;
  bool dry_run = false;
  std::string case_name;
};

int prune_command(const Globals& g, const PruneArgs& a) {
  const double keep_s = parse_duration(a.keep, SourceLoc{}, "--keep-logs");
  Store store = open_existing_store(g.resolved_db());
  if (!a.case_name.empty()) require_case(store, a.case_name, g.resolved_db());
  const auto logs = store.logs_ended_before(wall_now() - keep_s, a.case_name);
  long long bytes_before = 0, bytes_after = 0;
  int done = 0, missing = 0, foreign = 0;
  std::vector<std::string> seen;  // a log shared by two attempts is handled once
  for (const auto& f : logs) {
    if (std::find(seen.begin(), seen.end(), f.path) != seen.end()) continue;
    seen.push_back(f.path);
    // A compressed log whose original is still there: a `prune --compress` stopped between
    // recording the .gz and removing the original. The original goes now.
    if (f.state == "compressed" && f.path.size() > 3 &&
        f.path.compare(f.path.size() - 3, 3, ".gz") == 0) {
      const std::string original = f.path.substr(0, f.path.size() - 3);
      std::error_code ec;
      if (!a.dry_run && fs::exists(fs::symlink_status(original, ec)) &&
          aerun_wrote_log(original, "", g.logs_dir()))
        fs::remove(original, ec);
    }
    if (a.compress && f.state == "compressed") continue;
    std::error_code ec;
    if (f.state != kForeignLog && !fs::exists(fs::symlink_status(f.path, ec))) {
      ++missing;  // moved or deleted by hand: only the mark changes
      if (!a.dry_run) store.set_log(f, f.path, "pruned");
      continue;
    }
    // An ingested log is the user's own file, a merged one another machine's: never touched.
    if (!aerun_wrote_log(f.path, f.state, g.logs_dir())) {
      ++foreign;
      continue;
    }
    const auto size = fs::file_size(f.path, ec);
    if (ec) throw SystemError("cannot read the size of " + f.path + ": " + ec.message());
    bytes_before += static_cast<long long>(size);
    if (a.dry_run) {
      std::cout << fmt::format("{} {}  {}\n", a.compress ? "compress" : "remove  ",
                               f.key.substr(0, 12), f.path);
      ++done;
      continue;
    }
    if (a.compress) {
      const std::string gz = gzip_file(f.path);
      bytes_after += static_cast<long long>(fs::file_size(gz));
      store.set_log(f, gz, "compressed");
      fs::remove(f.path, ec);  // only once the store names the .gz
    } else {
      fs::remove(f.path, ec);
      if (ec) throw SystemError("cannot remove " + f.path + ": " + ec.message());
      store.set_log(f, f.path, "pruned");
    }
    ++done;
  }
  std::cerr << fmt::format(
      "aerun: {}{} log(s) older than {} {}: {:.1f} MB{}{}{}\n", a.dry_run ? "would have " : "",
      done, a.keep, a.compress ? "compressed" : "removed", bytes_before / 1e6,
      a.compress && !a.dry_run ? fmt::format(" -> {:.1f} MB", bytes_after / 1e6) : "",
      missing ? fmt::format(" ({} already gone: marked pruned)", missing) : "",
      foreign ? fmt::format("; {} log(s) aerun did not write (ingested or merged, or outside {}) "
                            "left as they are",
                            foreign, g.logs_dir())
              : "");
  return 0;
}

}  // namespace

void add_prune_command(CLI::App& app, Globals& g, Action& action) {
  auto a = std::make_shared<PruneArgs>();
  CLI::App* c = app.add_subcommand(
      "prune", "compress or remove old logs; statuses, metrics and provenance stay in the store");
  c->add_option("--keep-logs", a->keep,
                "keep the logs of runs that ended within this (default 30d; e.g. 14d, 90d, 12h)");
  c->add_flag("--compress", a->compress, "compress older logs (gzip) instead of removing them");
  c->add_flag("--dry-run", a->dry_run, "list what would be compressed or removed");
  c->add_option("--case", a->case_name, "only this case's runs");
  c->add_option("--db", g.db, "results store (default: $AERUN_DB or results/aerun.db)");
  c->callback([&action, &g, a] { action = [&g, a] { return prune_command(g, *a); }; });
}

}  // namespace aerun::cli
