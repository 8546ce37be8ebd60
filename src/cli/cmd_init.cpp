// `aerun init NAME [--sweep KEY=V1,V2,...] [--out FILE] [--force] -- COMMAND...`: a starter case.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "aerun/case/starter_case.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/util/atomic_file.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/text_format.hpp"
#include "cli/app.hpp"
#include "cli/report_file.hpp"

namespace aerun::cli {

namespace {

struct InitArgs {
  std::string name;
  std::vector<std::string> command;
  std::vector<std::string> sweeps;
  std::string out;
  bool force = false;
};

// The case schema an editor can read: the installed one (../share/aerun/case.schema.json beside
// the binary), else the source tree's (a build not installed).
std::string schema_path() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto installed =
      fs::path(self_binary()).parent_path().parent_path() / "share/aerun/case.schema.json";
  if (fs::is_regular_file(installed, ec)) return installed.string();
  const fs::path source = AERUN_SOURCE_DIR "/schema/case.schema.json";
  return fs::is_regular_file(source, ec) ? source.string() : "";
}

int init_command(const Globals& g, const InitArgs& a) {
  StarterRequest req{a.name, a.command, {}, schema_path()};
  for (const auto& s : a.sweeps) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError(SourceLoc{}, "--sweep", "write KEY=V1,V2,... (got '" + s + "')");
    req.sweeps.emplace_back(s.substr(0, eq), comma_items(std::string_view(s).substr(eq + 1)));
  }
  const std::string text = starter_case(req);
  if (a.out == "-") {
    std::cout << text;
    return 0;
  }
  namespace fs = std::filesystem;
  const fs::path out = a.out.empty() ? fs::path("cases") / (a.name + ".yaml") : fs::path(a.out);
  std::error_code ec;
  if (fs::exists(out, ec) && !a.force)
    throw InputError(SourceLoc{out.string(), 0, 0}, "--out",
                     "exists; pass --force to replace it or --out another file");
  // --force replaces a case file, never a store or a log (issue 40's fourth pass).
  check_report_file(out.string(), "--out", g.resolved_db(), g.logs_dir());
  if (out.has_parent_path()) fs::create_directories(out.parent_path(), ec);
  write_file_atomic(out.string(), text);  // its temporary file: new, never through a link
  std::cerr << "aerun: wrote " << out.string() << "; check it with: aerun case " << out.string()
            << " --dry-run\n";
  return 0;
}

}  // namespace

void add_init_command(CLI::App& app, Globals& g, Action& action) {
  auto a = std::make_shared<InitArgs>();
  CLI::App* c = app.add_subcommand(
      "init", "write a starter case from a command line: aerun init fig7a -- ./run.sh -l 32");
  c->add_option("name", a->name, "the case name")->required();
  c->add_option("command", a->command, "the command line, after --")->required();
  c->add_option("--sweep", a->sweeps, "KEY=V1,V2,...: sweep this parameter over these values")
      ->allow_extra_args(false);
  c->add_option("--out", a->out, "the case file (default cases/NAME.yaml; - for stdout)");
  c->add_flag("--force", a->force, "replace the file when it exists");
  c->callback([&action, &g, a] { action = [&g, a] { return init_command(g, *a); }; });
}

}  // namespace aerun::cli
