// load_case / parse_case: the top level of a case file and the order its sections are read in.
#include "aerun/case/case_loader.hpp"
#include "aerun/case/apply_presets.hpp"
#include "aerun/case/poll_interval.hpp"

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <sstream>
#include <utility>

#include "aerun/util/sha256.hpp"
#include "aerun/util/template_text.hpp"
#include "case/case_sections.hpp"
#include "case/yaml_reader.hpp"

namespace aerun {

namespace fs = std::filesystem;
using detail::Item;
using detail::YamlReader;

namespace {

const std::vector<std::string>& top_level_keys() {
  static const std::vector<std::string> keys{
      "case",      "title",        "paper",      "figure",     "workdir",   "shell",
      "env",       "params",       "zip",        "include",    "exclude",   "derive",
      "command",   "repeat",       "timeout",    "retries",    "exclusive", "presets",
      "metrics",   "status",       "startup",    "tables",     "plots",     "launcher",
      "scheduler", "resources",    "search",     "completion", "rerun",     "poll_interval",
      "stall",     "first_step",   "provenance", "rundir",     "steps",     "container",
      "systems",   "valid_systems"};
  return keys;
}

// The keys a case may pin per system (`systems: {aurora: {...}}`): how and where its runs run,
// not what the case is (its name, tables, plots and search stay the case's).
const std::vector<std::string>& system_keys() {
  static const std::vector<std::string> keys{
      "workdir",   "shell",         "env",    "params",     "zip",       "include",  "exclude",
      "derive",    "command",       "repeat", "timeout",    "exclusive", "launcher", "scheduler",
      "resources", "poll_interval", "stall",  "first_step", "rundir",    "steps",    "container"};
  return keys;
}

// base with over's entries read over it: a key both hold as a map is merged key by key, any other
// value of over replaces base's. The nodes are the file's own (their lines kept); neither map is
// changed.
YAML::Node merged_map(const YAML::Node& base, const YAML::Node& over) {
  std::vector<std::pair<std::string, YAML::Node>> out;
  for (auto kv = base.begin(); kv != base.end(); ++kv) {
    YAML::Node v;
    v.reset(kv->second);
    out.emplace_back(kv->first.Scalar(), v);
  }
  for (auto kv = over.begin(); kv != over.end(); ++kv) {
    const std::string name = kv->first.Scalar();
    const auto it =
        std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == name; });
    YAML::Node v;
    if (it != out.end() && it->second.IsMap() && kv->second.IsMap())
      v.reset(merged_map(it->second, kv->second));
    else
      v.reset(kv->second);
    if (it != out.end())
      it->second.reset(v);
    else
      out.emplace_back(name, v);
  }
  YAML::Node m(YAML::NodeType::Map);
  for (const auto& [name, v] : out) m[name] = v;
  return m;
}

// The case's top-level entries with its values for `system` read over them (see CaseOverrides).
// Each system's entry is checked to be a map of the keys a case may pin per system.
std::vector<Item> entries_on_system(const YamlReader& r, const std::string& system) {
  std::vector<Item> top = r.entries(r.root(), top_level_keys());
  const auto sys =
      std::find_if(top.begin(), top.end(), [](const Item& e) { return e.name == "systems"; });
  if (sys == top.end()) return top;
  std::vector<Item> pins;
  const std::vector<Item> systems = r.entries(*sys);
  // Each system's values are checked by reading the file once more (parse_case): a bound keeps
  // a file of thousands of systems from taking minutes.
  constexpr size_t kMaxSystems = 64;
  if (systems.size() > kMaxSystems)
    throw InputError(
        sys->loc, sys->key,
        fmt::format("{} systems: a case pins values for at most {}", systems.size(), kMaxSystems));
  for (const Item& s : systems) {
    if (s.name.empty() || s.name.find_first_of(" \t/") != std::string::npos)
      throw InputError(s.key_loc, s.key, "a system's name: a profile's name (aerun systems)");
    const std::vector<Item> keys = r.entries(s, system_keys());
    if (s.name == system)
      for (const Item& k : keys) pins.push_back(k);
  }
  // A new list, never assignment into the old one: assigning a YAML::Node writes into the node it
  // refers to (yaml-cpp's Node::operator=), which would rewrite the file's own tree.
  std::vector<Item> out;
  for (const Item& e : top) {
    if (e.name == "systems") continue;
    const auto p =
        std::find_if(pins.begin(), pins.end(), [&](const Item& x) { return x.name == e.name; });
    if (p == pins.end()) {
      out.push_back(e);
    } else if (e.node.IsMap() && p->node.IsMap()) {
      Item merged = e;
      merged.node.reset(merged_map(e.node, p->node));
      out.push_back(merged);
    } else {
      out.push_back(Item{p->node, p->name, p->name, p->loc, p->key_loc});
    }
  }
  for (const Item& p : pins)
    if (std::none_of(top.begin(), top.end(), [&](const Item& e) { return e.name == p.name; }))
      out.push_back(Item{p.node, p.name, p.name, p.loc, p.key_loc});
  return out;
}

// An absolute, normalised path without a trailing separator.
std::string absolute_dir(const fs::path& p) {
  std::string s = fs::absolute(p).lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

void read_env(const YamlReader& r, const Item& it, CaseSpec& spec) {
  for (const Item& e : r.entries(it)) {
    if (!detail::is_identifier(e.name))
      throw InputError(
          e.key_loc, e.key,
          "environment variable names are [A-Za-z_][A-Za-z0-9_]*, not '" + e.name + "'");
    if (!e.node.IsScalar())
      throw InputError(e.loc, e.key, "expected a single value, got " + detail::describe(e.node));
    spec.env.emplace_back(e.name, Value::of_string(e.node.Scalar()));
  }
}

// `provenance: {name: command}` or `{name: {command: ..., timeout: ...}}`.
void read_provenance(const YamlReader& r, const Item& it, CaseSpec& spec) {
  for (const Item& e : r.entries(it)) {
    if (!detail::is_name(e.name))
      throw InputError(e.key_loc, e.key,
                       "provenance names are made of [A-Za-z0-9_.-], not '" + e.name + "'");
    ProvenanceSpec p;
    p.name = e.name;
    p.loc = e.loc;
    if (e.node.IsMap()) {
      bool has_command = false;
      for (const Item& f : r.entries(e, {"command", "timeout"})) {
        if (f.name == "command") {
          p.command = r.text(f);
          has_command = true;
        } else {
          p.timeout_s = parse_duration(r.text(f), f.loc, f.key);
          if (p.timeout_s <= 0) throw InputError(f.loc, f.key, "must be longer than 0 s");
        }
      }
      if (!has_command)
        throw InputError(e.loc, e.key, "missing required key 'command' (the shell command)");
    } else {
      p.command = r.text(e);
    }
    spec.provenance.push_back(std::move(p));
  }
}

// `steps: {name: {command, depends_on, timeout}}` (a plain command: `name: COMMAND`).
void read_steps(const YamlReader& r, const Item& it, CaseSpec& spec) {
  for (const Item& e : r.entries(it)) {
    if (!detail::is_name(e.name))
      throw InputError(e.key_loc, e.key,
                       "step names are made of [A-Za-z0-9_.-], not '" + e.name + "'");
    StepSpec step;
    step.name = e.name;
    step.loc = e.loc;
    if (!e.node.IsMap()) {
      step.command = r.text(e);
    } else {
      bool has_command = false;
      for (const Item& f : r.entries(e, {"command", "depends_on", "timeout"})) {
        if (f.name == "command") {
          step.command = r.text(f);
          has_command = true;
        } else if (f.name == "depends_on") {
          step.depends_on = r.texts(f);
        } else {
          step.timeout_s = parse_duration(r.text(f), f.loc, f.key);
        }
      }
      if (!has_command)
        throw InputError(e.loc, e.key, "missing required key 'command' (the step's command)");
    }
    spec.steps.push_back(std::move(step));
  }
}

// `rundir: none | PATH | {path, copy, link, keep}`.
void read_rundir(const YamlReader& r, const Item& it, CaseSpec& spec) {
  RundirSpec d;
  d.loc = it.loc;
  if (it.node.IsScalar()) {
    const std::string text = r.text(it);
    if (text == "none") return;  // every run in the workdir, as without the key
    d.path = detail::expand_env(text);
  } else {
    r.expect_map(it);
    for (const Item& e : r.entries(it, {"path", "copy", "link", "keep"})) {
      if (e.name == "path") {
        d.path = detail::expand_env(r.text(e));
      } else if (e.name == "copy") {
        d.copy = r.texts(e);
      } else if (e.name == "link") {
        d.link = r.texts(e);
      } else {
        const std::string k = r.text(e);
        if (k == "all")
          d.keep = RundirSpec::Keep::All;
        else if (k == "failed")
          d.keep = RundirSpec::Keep::Failed;
        else if (k == "none")
          d.keep = RundirSpec::Keep::None;
        else
          throw InputError(e.loc, e.key,
                           "'" + k +
                               "': keep is all, failed (only failed runs' directories) or "
                               "none (the logs stay)");
      }
    }
    for (const auto* list : {&d.copy, &d.link})
      for (const auto& f : *list)
        if (f.empty() || fs::path(f).filename().empty() || f == "." || f == "..")
          throw InputError(it.loc, it.key + (list == &d.copy ? ".copy" : ".link"),
                           "'" + f + "' names no file or folder to place in a run's directory");
  }
  spec.rundir = std::move(d);
}

// `stall:` / `first_step:`: a duration, or a text with `{param}` placeholders filled per point.
void read_watchdog(const std::string& text, const Item& e, double& seconds, std::string& tmpl) {
  if (!placeholders(text).empty()) {
    tmpl = text;
    return;
  }
  seconds = parse_duration(text, e.loc, e.key);
}

void read_top_level(const YamlReader& r, const Item& e, CaseSpec& spec, const fs::path& base) {
  const std::string& k = e.name;
  if (k == "case") {
    spec.name = r.text(e);
    if (!valid_case_name(spec.name)) throw InputError(e.loc, e.key, case_name_problem(spec.name));
  } else if (k == "title") {
    spec.title = r.text(e);
  } else if (k == "paper") {
    spec.paper = r.text(e);
  } else if (k == "figure") {
    spec.figure = r.text(e);
  } else if (k == "workdir") {
    // e.g. ${STRONGHOLD_DIR:-/home/sys/STRONGHOLD}
    const fs::path w = detail::expand_env(r.text(e));
    spec.workdir = absolute_dir(w.is_absolute() ? w : base / w);
  } else if (k == "shell") {
    spec.shell = r.text(e);
  } else if (k == "env") {
    read_env(r, e, spec);
  } else if (k == "provenance") {
    read_provenance(r, e, spec);
  } else if (k == "rundir") {
    read_rundir(r, e, spec);
  } else if (k == "steps") {
    read_steps(r, e, spec);
  } else if (k == "params") {
    detail::read_params(r, e, spec);
  } else if (k == "zip") {
    detail::read_zip(r, e, spec);
  } else if (k == "include") {
    detail::read_include(r, e, spec);
  } else if (k == "exclude") {
    detail::read_exclude(r, e, spec);
  } else if (k == "derive") {
    detail::read_derive(r, e, spec);
  } else if (k == "command") {
    spec.command = r.text(e);
    spec.command_loc = e.loc;
  } else if (k == "repeat") {
    const long long n = r.integer(e);
    if (n < 1) throw InputError(e.loc, e.key, "must be at least 1");
    if (n > 1000000) throw InputError(e.loc, e.key, "at most 1000000 repeats");
    spec.repeat = static_cast<int>(n);
  } else if (k == "timeout") {
    spec.timeout_s = parse_duration(r.text(e), e.loc, e.key);
    spec.timeout_loc = e.loc;
  } else if (k == "stall") {
    read_watchdog(r.text(e), e, spec.stall_s, spec.stall_template);
    spec.stall_loc = e.loc;
  } else if (k == "first_step") {
    read_watchdog(r.text(e), e, spec.first_step_s, spec.first_step_template);
    spec.first_step_loc = e.loc;
  } else if (k == "poll_interval") {
    spec.poll_interval = parse_poll_interval(r.text(e), e.loc, e.key);
  } else if (k == "exclusive") {
    if (r.text(e) != "gpu")
      throw InputError(e.loc, e.key,
                       "the only exclusive resource is 'gpu', not '" + e.node.Scalar() + "'");
    spec.exclusive_gpu = true;
  } else if (k == "presets") {
    spec.presets = r.texts(e);
  } else if (k == "valid_systems") {
    spec.valid_systems = r.texts(e);
    spec.valid_systems_loc = e.loc;
    if (spec.valid_systems.empty())
      throw InputError(e.loc, e.key, "names no system: leave the key out to run anywhere");
    for (const std::string& name : spec.valid_systems)
      if (name.empty() || name.find_first_of(" \t/") != std::string::npos)
        throw InputError(e.loc, e.key, "'" + name + "' is not a system's name (aerun systems)");
  } else if (k == "metrics") {
    detail::read_metrics(r, e, spec);
  } else if (k == "status") {
    detail::read_status(r, e, spec);
  } else if (k == "startup") {
    detail::read_startup(r, e, spec);
  } else if (k == "completion") {
    detail::read_completion(r, e, spec);
  } else if (k == "launcher") {
    detail::read_launcher(r, e, spec, base.string());
  } else if (k == "container") {
    detail::read_container(r, e, spec, base.string());
  } else if (k == "scheduler") {
    detail::read_scheduler(r, e, spec);
  } else if (k == "resources") {
    detail::read_resources(r, e, spec, base.string());
  }
}

}  // namespace

bool valid_case_name(const std::string& name) {
  return detail::is_name(name);
}

std::string case_name_problem(const std::string& name) {
  std::string shown;
  for (unsigned char c : name)
    shown +=
        c < 0x20 || c == 0x7f ? fmt::format("\\x{:02x}", c) : std::string(1, static_cast<char>(c));
  return "case names are made of [A-Za-z0-9_.-] and are not . or .., not '" + shown + "'";
}

std::string case_version(const CaseSpec& spec) {
  std::string text = spec.command + "\n" + spec.shell + "\n";
  for (const auto& [name, value] : spec.env) text += name + "=" + value.text() + "\n";
  if (spec.launcher) {
    const LauncherSpec& l = *spec.launcher;
    auto opt = [](const std::optional<int>& v) {
      return v ? std::to_string(*v) : std::string("-");
    };
    text += l.kind + "|" + opt(l.ranks) + "|" + opt(l.ranks_per_node) + "|" + opt(l.nodes) + "|" +
            opt(l.depth) + "|" + l.cpu_bind;
    for (const auto& t : l.per_point) text += "|" + t.name + "=" + t.text;
  }
  if (spec.container) text += "\ncontainer|" + container_signature(*spec.container);
  return sha256_hex(text).substr(0, 16);
}

namespace {

// A watchdog's duration given on the command line replaces the file's (its template too).
void override_watchdog(const std::string& text, const char* flag, double& seconds,
                       std::string& tmpl, SourceLoc& loc) {
  if (text.empty()) return;
  loc = SourceLoc{flag, 0, 0};
  seconds = parse_duration(text, loc, flag);
  tmpl.clear();
}

// `--container IMAGE [--container-runtime R]` replaces the file's image (and runtime), or names
// one for a case that has none; `--no-container` runs the case on the host.
void override_container(const CaseOverrides& o, CaseSpec& spec) {
  if (o.no_container) {
    spec.container.reset();
    return;
  }
  if (o.container_image.empty() && o.container_runtime.empty()) return;
  const SourceLoc flag{"--container", 0, 0};
  if (!spec.container) {
    if (o.container_image.empty() || o.container_runtime.empty())
      throw InputError(SourceLoc{},
                       o.container_image.empty() ? "--container" : "--container-runtime",
                       "the case has no `container:` section: give both --container IMAGE and "
                       "--container-runtime (" +
                           detail::joined(container_runtimes()) + ")");
    spec.container = ContainerSpec{};
    spec.container->loc = flag;
    spec.container->base = spec.workdir;
  }
  ContainerSpec& c = *spec.container;
  if (!o.container_image.empty()) {
    if (o.container_image.find_first_of("\n\r") != std::string::npos)
      throw InputError(flag, "--container", "an image name is one line");
    c.image = image_path(o.container_image, fs::current_path().string());
    c.per_point = varies_per_point(c);
  }
  if (!o.container_runtime.empty()) {
    const auto& valid = container_runtimes();
    if (std::find(valid.begin(), valid.end(), o.container_runtime) == valid.end())
      throw InputError(SourceLoc{"--container-runtime", 0, 0}, "--container-runtime",
                       "unknown container runtime '" + o.container_runtime + "'" +
                           detail::did_you_mean(o.container_runtime, valid) + "; use " +
                           detail::joined(valid));
    c.runtime = o.container_runtime;
  }
}

}  // namespace

CaseSpec parse_case(const std::string& yaml_text, const std::string& file,
                    const std::string& base_dir, const CaseOverrides& overrides) {
  if (yaml_text.size() > kMaxCaseFileBytes)
    throw InputError(SourceLoc{file, 0, 0}, "",
                     fmt::format("larger than {} MiB: a case file is written by hand (the YAML "
                                 "parser needs ~1 KB of memory per value); split the case",
                                 kMaxCaseFileBytes >> 20));
  const YamlReader r(file, yaml_text);
  const fs::path base = absolute_dir(base_dir.empty() ? fs::path(".") : fs::path(base_dir));
  CaseSpec spec;
  spec.file = file;
  spec.workdir = base.string();
  bool has_case = false, has_command = false;
  std::vector<Item> tables;  // read last: they refer to parameters and metrics
  std::vector<Item> plots;   // after the tables they draw
  std::vector<Item> search;  // after the sweep sections, before the checks
  std::vector<Item> policy;  // retries, rerun: they name statuses, known once presets are applied
  SourceLoc presets_loc;     // presets resolve once metrics, status and startup are read
  for (const Item& e : entries_on_system(r, overrides.system)) {
    if (e.name == "tables")
      tables.push_back(e);
    else if (e.name == "plots")
      plots.push_back(e);
    else if (e.name == "search")
      search.push_back(e);
    else if (e.name == "retries" || e.name == "rerun")
      policy.push_back(e);
    else
      read_top_level(r, e, spec, base);
    if (e.name == "presets") presets_loc = e.loc;
    has_case = has_case || e.name == "case";
    has_command = has_command || e.name == "command";
  }
  if (!has_case)
    throw InputError(SourceLoc{file, 1, 1}, "case", "missing required key 'case' (the case name)");
  if (!has_command)
    throw InputError(SourceLoc{file, 1, 1}, "command",
                     "missing required key 'command' (the command template)");
  override_watchdog(overrides.stall, "--stall", spec.stall_s, spec.stall_template, spec.stall_loc);
  override_watchdog(overrides.first_step, "--first-step", spec.first_step_s,
                    spec.first_step_template, spec.first_step_loc);
  override_container(overrides, spec);
  for (const Item& s : search) detail::read_search(r, s, spec);
  apply_presets(spec, presets_loc);
  for (const Item& p : policy) detail::read_failure_policy(r, p, spec);
  detail::check_case(r, spec);
  detail::check_container(spec);
  for (const Item& t : tables) detail::read_tables(r, t, spec);
  for (const Item& p : plots) detail::read_plots(r, p, spec);
  spec.file_digest = sha256_hex(yaml_text);
  spec.version = case_version(spec);
  // Read as it runs on each system it pins values for: an error in those is found here, on any
  // machine, naming its line.
  if (!overrides.checking_systems)
    if (const YAML::Node root = r.root().node, systems = std::as_const(root)["systems"];
        systems && systems.IsMap())
      for (auto kv = systems.begin(); kv != systems.end(); ++kv) {
        CaseOverrides on = overrides;
        on.system = kv->first.Scalar();
        on.checking_systems = true;
        spec.pinned_systems.push_back(on.system);
        if (on.system != overrides.system) parse_case(yaml_text, file, base_dir, on);
      }
  return spec;
}

CaseSpec load_case(const std::string& path, const CaseOverrides& overrides) {
  const std::string file = fs::absolute(path).lexically_normal().string();
  if (fs::is_directory(file))
    throw InputError(SourceLoc{file, 0, 0}, "", "is a directory, not a case file");
  std::error_code ec;
  const auto type = fs::status(file, ec).type();
  // Checked before opening: opening a FIFO waits for a writer.
  if (type != fs::file_type::regular && type != fs::file_type::not_found && !ec)
    throw InputError(SourceLoc{file, 0, 0}, "",
                     "not a regular file (a device or a pipe is never read as a case file)");
  return parse_case(detail::read_yaml_file(file, kMaxCaseFileBytes, "case file"), file,
                    fs::path(file).parent_path().string(), overrides);
}

}  // namespace aerun
