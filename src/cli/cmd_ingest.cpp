// `aerun ingest PATH... --case NAME|FILE`: logs of runs aerun did not launch, stored as runs.
#include <fmt/format.h>
#include <algorithm>
#include <thread>

#include <filesystem>
#include <iostream>
#include <vector>

#include "aerun/case/case_loader.hpp"
#include "aerun/case/apply_presets.hpp"
#include "aerun/logread/presets.hpp"
#include "aerun/case/system_catalog.hpp"
#include "aerun/ingest/ingest.hpp"
#include "aerun/util/shell_quote.hpp"
#include "cli/app.hpp"
#include "cli/explain_text.hpp"
#include "cli/progress_line.hpp"
#include "cli/session_scope.hpp"

namespace aerun::cli {

namespace {

struct IngestArgs {
  std::vector<std::string> paths;
  std::string case_ref;
  std::string pattern;
  std::vector<std::string> presets;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  bool assume_complete = false;
  std::string label;   // the session's
  std::string system;  // --system
  bool explain = false;
};

// `--preset generic`: the generic reader and the base vocabulary alone (docs/presets.md).
bool generic_only(const IngestArgs& a) {
  if (std::find(a.presets.begin(), a.presets.end(), "generic") == a.presets.end()) return false;
  if (a.presets.size() != 1)
    throw InputError(SourceLoc{"--preset", 0, 0}, "--preset",
                     "'generic' reads with no preset: give it alone");
  return true;
}

// Whether the logs' formats are detected file by file: `--preset auto`, or no --preset with a case
// that names no preset and no metric of its own (a bare case name).
bool auto_presets(const IngestArgs& a, const CaseSpec& loaded) {
  if (a.presets.size() == 1 && a.presets[0] == "auto") return true;
  if (std::find(a.presets.begin(), a.presets.end(), "auto") != a.presets.end())
    throw InputError(SourceLoc{"--preset", 0, 0}, "--preset",
                     "'auto' detects every preset itself: give it alone");
  return a.presets.empty() && loaded.presets.empty() && loaded.metrics.empty();
}

// The case the logs belong to: a case file (its metrics, presets, status, startup and tables), or
// a bare case name with the --preset metrics (or auto-detected ones).
CaseSpec ingest_case(const IngestArgs& a, bool& detect) {
  namespace fs = std::filesystem;
  CaseSpec spec;
  const bool is_file = fs::is_regular_file(a.case_ref);
  if (is_file) {
    spec = load_case(a.case_ref);
  } else {
    const bool looks_like_path = a.case_ref.find('/') != std::string::npos ||
                                 a.case_ref.ends_with(".yaml") || a.case_ref.ends_with(".yml");
    if (looks_like_path) throw InputError(SourceLoc{}, "--case", "no case file " + a.case_ref);
    if (!valid_case_name(a.case_ref))
      throw InputError(SourceLoc{}, "--case", case_name_problem(a.case_ref));
    spec.name = a.case_ref;
  }
  if (generic_only(a)) {
    spec.presets.clear();
    apply_presets(spec, SourceLoc{"--preset", 0, 0});  // the base vocabulary
    spec.completion.shape_required = true;
    spec.completion.formats = "generic";
    detect = false;
    return spec;
  }
  detect = auto_presets(a, spec);
  if (detect) return spec;
  if (!a.presets.empty()) {
    spec.presets = a.presets;
    apply_presets(spec, SourceLoc{"--preset", 0, 0});
  }
  if (spec.metrics.empty() && spec.status.empty())
    throw InputError(SourceLoc{}, "--preset",
                     "nothing to extract: give --preset (e.g. megatron) or a case file with "
                     "metrics; presets: " +
                         fmt::format("{}", fmt::join(preset_names(), ", ")));
  return spec;
}

// "[torchtitan] " (the formats found in the file), "[unknown] " for none.
std::string format_column(const IngestedFile& f) {
  return fmt::format("{:<14} ",
                     "[" + (f.presets.empty() ? std::string("unknown") : f.presets) + "]");
}

// `--explain`: each file's status and metrics (each with its line) and the generic reader's
// templates: which lines were read as what, and why. Nothing is stored.
int explain_command(const IngestArgs& a) {
  bool detect = false;
  IngestArgs named = a;
  if (named.case_ref.empty()) named.case_ref = "explain";
  const CaseSpec spec = ingest_case(named, detect);
  check_log_paths(a.paths);
  namespace fs = std::filesystem;
  for (const std::string& path : a.paths) {
    std::vector<std::string> files;  // a folder: its files, walked as ingest walks them
    if (fs::is_directory(path)) {
      for (const auto& e :
           fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied))
        if (e.is_regular_file()) files.push_back(e.path().string());
      std::sort(files.begin(), files.end());
    } else {
      files.push_back(path);
    }
    for (const std::string& f : files)
      std::cout << explained_log_text(f, explain_log(spec, f, detect), detect);
  }
  return 0;
}

int ingest_command(const Globals& g, const IngestArgs& a) {
  if (a.explain) return explain_command(a);
  if (a.case_ref.empty()) throw InputError(SourceLoc{}, "--case", "--case is required");
  bool detect = false;
  const CaseSpec spec = ingest_case(a, detect);
  check_log_paths(a.paths);  // a mistyped path leaves no store behind
  std::string system;
  // The system the logs were made on: named, never recognised (the logs came from elsewhere).
  if (!a.system.empty() && a.system != "local") {
    const SystemCatalog catalog = load_system_catalog(system_folders(""));
    const SystemProfile* p = catalog.find(a.system);
    if (!p)
      throw InputError(SourceLoc{}, "--system",
                       "no system named '" + a.system + "' (aerun systems lists them)");
    system = stored_system_name(*p);
  }

  Store store(g.resolved_db());
  SessionScope session(store, describe_session(SessionArgs{a.label, ""}, "ingest", {&spec}, "",
                                               std::filesystem::current_path().string()));
  IngestOptions opts;
  opts.session_id = session.id();
  opts.name_template = a.pattern;
  opts.jobs = a.jobs;
  opts.assume_complete = a.assume_complete;
  opts.auto_presets = detect;
  opts.system = system;
  ProgressLine progress(std::cerr);
  opts.progress = [&](const char* phase, size_t done, size_t total) {
    progress.show(fmt::format("[aerun] ingest {}: {} {}/{} files", spec.name,
                              std::string(phase) == "read" ? "reading" : "storing", done, total));
  };
  int added = 0, updated = 0, unchanged = 0, skipped = 0;
  size_t files = 0;
  // Each file's line as it is stored (paths printed on one line each, whatever their bytes).
  ingest_paths(store, spec, a.paths, opts, [&](const IngestedFile& f) {
    ++files;
    if (f.action != IngestedFile::Action::Unchanged) progress.clear();  // redrawn by the next show
    switch (f.action) {
      case IngestedFile::Action::Added:
        ++added;
        std::cout << fmt::format("added     {}  {:<12} {}{}\n", f.key.substr(0, 12), f.status,
                                 detect ? format_column(f) : "", printable(f.path));
        break;
      case IngestedFile::Action::Updated:
        ++updated;
        std::cout << fmt::format("updated   {}  {:<12} {}{}\n", f.key.substr(0, 12), f.status,
                                 detect ? format_column(f) : "", printable(f.path));
        break;
      case IngestedFile::Action::Unchanged:
        ++unchanged;
        break;
      case IngestedFile::Action::Skipped:
        ++skipped;
        std::cerr << fmt::format("aerun: warning: skipped {}: {}\n", printable(f.path),
                                 printable(f.why));
        break;
    }
  });
  progress.clear();
  std::cout << fmt::format(
      "case {}: {} file{}: {} added, {} updated, {} unchanged, {} skipped (store {})\n", spec.name,
      files, files == 1 ? "" : "s", added, updated, unchanged, skipped, g.resolved_db());
  return 0;
}

}  // namespace

void add_ingest_command(CLI::App& app, Globals& g, Action& action) {
  auto args = std::make_shared<IngestArgs>();
  CLI::App* c = app.add_subcommand("ingest", "store existing logs as runs of a case");
  c->add_option("paths", args->paths, "log files and folders (walked recursively)")->required();
  c->add_option("--case", args->case_ref,
                "case name, or a case file (its metrics and tables); required unless --explain");
  c->add_flag("--explain", args->explain,
              "print what each log gives and why (status, metrics with their lines, the generic "
              "reader's templates, keys, units and names); stores nothing");
  c->add_option("--pattern", args->pattern,
                "file-name template, e.g. 'log_{method}_l-{layers}_{date}.txt'");
  c->add_option("--preset", args->presets,
                "presets to extract with, e.g. megatron,stronghold, or auto (each file's own, "
                "detected from its first lines; the default when the case names none), or "
                "generic (the generic reader and the base vocabulary alone)")
      ->delimiter(',');
  c->add_option("-j,--jobs", args->jobs,
                "files read at once (default: the CPUs; stored one by one, in file order)")
      ->check(CLI::Range(1, 4096));
  c->add_flag("--assume-complete", args->assume_complete,
              "the logs are of runs that finished (e.g. excerpts): ok without an end line, "
              "unless a crash line says otherwise (noted in each run's reason)");
  c->add_option("--label", args->label,
                "name this ingest's session (default: its start time); `aerun regress` compares "
                "sessions");
  c->add_option("--system", args->system,
                "the system the logs' runs ran on (a profile's name: aerun systems); each run "
                "keeps it (docs/systems.md)");
  c->add_option("--db", g.db, "results store");
  c->callback([&action, &g, args] { action = [&g, args] { return ingest_command(g, *args); }; });
}

}  // namespace aerun::cli
