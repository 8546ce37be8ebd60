// `aerun diff RUN_A RUN_B [--all]`: what differs between two stored runs (exit 1 when they differ
// in what they are: parameters, how they ran, their environment).
#include <fmt/format.h>

#include <iostream>

#include "aerun/report/run_diff.hpp"
#include "cli/app.hpp"
#include "cli/open_store.hpp"

namespace aerun::cli {

namespace {

struct DiffArgs {
  std::string a, b;
  bool all = false;
};

int diff_command(const Globals& g, const DiffArgs& args) {
  Store store = open_existing_store(g.resolved_db());
  const auto find = [&](const std::string& ref, const char* which) {
    auto r = store.find(ref);
    if (!r)
      throw InputError(SourceLoc{}, which, fmt::format("no run '{}' in {}", ref, g.resolved_db()));
    return *r;
  };
  const RunRecord a = find(args.a, "RUN_A");
  const RunRecord b = find(args.b, "RUN_B");
  const RunDiff d = diff_runs(a, b, args.all);
  std::cout << d.text;
  return d.differs ? 1 : 0;
}

}  // namespace

void add_diff_command(CLI::App& app, Globals& g, Action& action) {
  auto a = std::make_shared<DiffArgs>();
  CLI::App* c = app.add_subcommand(
      "diff", "what differs between two runs: parameters, metrics, times, how they ran");
  c->add_option("run_a", a->a, "run id, key or key prefix")->required();
  c->add_option("run_b", a->b, "run id, key or key prefix")->required();
  c->add_flag("--all", a->all, "list what is the same too");
  c->add_option("--db", g.db, "results store");
  c->callback([&action, &g, a] { action = [&g, a] { return diff_command(g, *a); }; });
}

}  // namespace aerun::cli
