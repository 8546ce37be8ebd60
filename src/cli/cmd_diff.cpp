// `aerun diff RUN_A RUN_B [--all]` or `aerun diff SESSION_A SESSION_B`: what differs between two
// stored runs or two sessions (exit 1 when they differ in what they are: parameters, how they
// ran, their environment records).
#include <fmt/format.h>

#include <iostream>

#include "aerun/report/run_diff.hpp"
#include "aerun/report/session_diff.hpp"
#include "cli/app.hpp"
#include "cli/open_store.hpp"

namespace aerun::cli {

namespace {

struct DiffArgs {
  std::string a, b;
  bool all = false;
  bool sessions = false;
};

std::optional<EnvRecord> record_of(const Store& store, const std::optional<SessionInfo>& s) {
  if (!s || s->env_record.empty()) return std::nullopt;
  return store.env_record(s->env_record);
}

std::optional<SessionInfo> session_of(const Store& store, long long id) {
  return id ? store.find_session(std::to_string(id)) : std::nullopt;
}

SessionSide side(const Store& store, const SessionInfo& s) {
  SessionSide out;
  out.info = s;
  out.env = record_of(store, s);
  for (const auto& name : store.case_names())
    if (store.session_has_runs(s.id, name))
      for (auto& r : store.session_runs(s.id, name)) out.runs.push_back(std::move(r));
  return out;
}

int diff_command(const Globals& g, const DiffArgs& args) {
  Store store = open_existing_store(g.resolved_db());
  if (!args.sessions) {
    auto a = store.find(args.a);
    auto b = store.find(args.b);
    if (a && b) {
      const auto ea = record_of(store, session_of(store, a->session_id));
      const auto eb = record_of(store, session_of(store, b->session_id));
      const RunDiff d = diff_runs(*a, *b, args.all, ea ? &*ea : nullptr, eb ? &*eb : nullptr);
      std::cout << d.text;
      return d.differs ? 1 : 0;
    }
    const bool sa = a || store.find_session(args.a), sb = b || store.find_session(args.b);
    if (a || b || !sa || !sb) {  // not two sessions either: name the ref that is neither
      const bool a_missing = !a && !store.find_session(args.a);
      const std::string& ref = a_missing ? args.a : args.b;
      throw InputError(SourceLoc{}, a_missing ? "A" : "B",
                       fmt::format("no run or session '{}' in {} (a run: id, key or key prefix; "
                                   "a session: label or id with --sessions)",
                                   ref, g.resolved_db()));
    }
  }
  const auto find = [&](const std::string& ref, const char* which) {
    auto s = store.find_session(ref);
    if (!s)
      throw InputError(
          SourceLoc{}, which,
          fmt::format("no session '{}' in {} (a label or an id)", ref, g.resolved_db()));
    return *s;
  };
  const RunDiff d =
      diff_sessions(side(store, find(args.a, "A")), side(store, find(args.b, "B")), args.all);
  std::cout << d.text;
  return d.differs ? 1 : 0;
}

}  // namespace

void add_diff_command(CLI::App& app, Globals& g, Action& action) {
  auto a = std::make_shared<DiffArgs>();
  CLI::App* c = app.add_subcommand(
      "diff",
      "what differs between two runs (or two sessions): parameters, metrics, times, how they "
      "ran, their environment records");
  c->add_option("a", a->a, "run id, key or key prefix; or a session's label")->required();
  c->add_option("b", a->b, "run id, key or key prefix; or a session's label")->required();
  c->add_flag("--all", a->all, "list what is the same too");
  c->add_flag("--sessions", a->sessions,
              "A and B are sessions (label or id), e.g. two nights of a regression");
  c->add_option("--db", g.db, "results store");
  c->callback([&action, &g, a] { action = [&g, a] { return diff_command(g, *a); }; });
}

}  // namespace aerun::cli
