// `aerun schema`: the JSON Schema of case files, for editors (yaml-language-server) and checkers.
#include <iostream>

#include "aerun/case/case_schema.hpp"
#include "cli/app.hpp"

namespace aerun::cli {

void add_schema_command(CLI::App& app, Globals&, Action& action) {
  CLI::App* c = app.add_subcommand(
      "schema", "print the JSON Schema of case files (for editors and validators)");
  c->callback([&action] {
    action = [] {
      std::cout << case_schema_json();
      return 0;
    };
  });
}

}  // namespace aerun::cli
