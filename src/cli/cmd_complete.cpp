// `aerun __complete WHAT ...` (hidden): the words bash completion offers, one a line, read from
// the command line's own definition (subcommands, options, their fixed values), the case files
// (table and plot names) and the store (case names). It never fails loudly: a completion that
// finds nothing prints nothing and exits 0.
#include <filesystem>
#include <iostream>
#include <regex>

#include "aerun/report/table_finder.hpp"
#include "aerun/store/store.hpp"
#include "aerun/util/text_format.hpp"
#include "cli/app.hpp"

namespace aerun::cli {

namespace {

struct CompleteArgs {
  std::string what;
  std::vector<std::string> rest;
  std::string cases;
};

const CLI::App* find_sub(const CLI::App& app, const std::string& name) {
  for (const CLI::App* s : app.get_subcommands({}))
    if (s->get_name() == name) return s;
  return nullptr;
}

// The fixed values of an option whose type reads "TEXT:{md,csv,json}" (a CLI::IsMember check).
std::vector<std::string> fixed_values(const CLI::Option& o) {
  static const std::regex braces(R"(\{([^}]*)\})");
  std::smatch m;
  const std::string type = o.get_type_name();
  if (!std::regex_search(type, m, braces)) return {};
  return comma_items(m[1].str());
}

int complete(const CLI::App& app, const Globals& g, const CompleteArgs& a) {
  const auto print = [](const std::vector<std::string>& words) {
    for (const auto& w : words) std::cout << w << "\n";
  };
  if (a.what == "subcommands") {
    for (const CLI::App* s : app.get_subcommands({}))
      if (!s->get_group().empty()) std::cout << s->get_name() << "\n";
    return 0;
  }
  if (a.what == "flags" || a.what == "valued" || a.what == "values") {
    const CLI::App* sub = a.rest.empty() ? &app : find_sub(app, a.rest[0]);
    if (!sub) return 0;
    for (const CLI::Option* o : sub->get_options()) {
      if (o->get_positional() && !o->nonpositional()) continue;
      const bool takes_value = o->get_items_expected_max() != 0;
      std::vector<std::string> names;
      for (const auto& l : o->get_lnames()) names.push_back("--" + l);
      for (const auto& s : o->get_snames()) names.push_back("-" + s);
      if (a.what == "values") {  // the option without its dashes (CLI11 would read it)
        const auto& l = o->get_lnames();
        if (a.rest.size() > 1 && std::find(l.begin(), l.end(), a.rest[1]) != l.end())
          print(fixed_values(*o));
        continue;
      }
      if (takes_value == (a.what == "valued")) print(names);
    }
    return 0;
  }
  if (a.what == "tables" || a.what == "plots") {
    std::string where = a.cases;
    if (where.empty()) {
      const char* e = std::getenv("AERUN_CASES");
      where = e && *e ? e : "cases";
    }
    print(defined_names(where, a.what == "plots"));
    return 0;
  }
  if (a.what == "cases") {
    const std::string db = g.resolved_db();
    if (!std::filesystem::exists(db)) return 0;
    try {
      const Store store(db, Store::ReadOnly{});
      print(store.case_names());
    } catch (const std::exception&) {
    }
    return 0;
  }
  return 0;
}

}  // namespace

void add_complete_command(CLI::App& app, Globals& g, Action& action) {
  auto a = std::make_shared<CompleteArgs>();
  CLI::App* c = app.add_subcommand(
      "__complete",
      "words for shell completion: subcommands | flags SUB | valued SUB | values "
      "SUB LONG_OPTION_WITHOUT_DASHES | tables [--cases PATH] | plots [--cases PATH] | cases [--db "
      "PATH]");
  c->group("");  // hidden: the bash completion script calls it
  c->add_option("what", a->what)->required();
  c->add_option("rest", a->rest);
  c->add_option("--cases", a->cases);
  c->add_option("--db", g.db);
  c->callback([&app, &g, &action, a] { action = [&app, &g, a] { return complete(app, g, *a); }; });
}

}  // namespace aerun::cli
