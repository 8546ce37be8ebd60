#include "aerun/case/system_profile.hpp"

#include <filesystem>

#include "aerun/case/case_loader.hpp"
#include "aerun/case/container_spec.hpp"
#include "aerun/case/launcher_spec.hpp"
#include "case/case_sections.hpp"
#include "case/yaml_reader.hpp"

namespace aerun {

namespace fs = std::filesystem;
using detail::Item;
using detail::YamlReader;

namespace {

constexpr size_t kMaxProfileBytes = 1 << 20;

// [a-z0-9][a-z0-9_-]*: a system's name is a word of the store, of file names and of `--only`.
bool valid_system_name(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (i > 0 && (c == '-' || c == '_'));
    if (!ok) return false;
  }
  return true;
}

std::string one_of(const YamlReader& r, const Item& e, const std::vector<std::string>& valid,
                   const std::string& what) {
  const std::string v = r.text(e);
  if (!detail::contains(valid, v))
    throw InputError(e.loc, e.key,
                     "unknown " + what + " '" + v + "'" + detail::did_you_mean(v, valid) +
                         "; use " + detail::joined(valid));
  return v;
}

// A map of variable names to values (`variables:` of recognise and of environment).
std::vector<std::pair<std::string, std::string>> read_variables(const YamlReader& r,
                                                                const Item& it) {
  r.expect_map(it);
  std::vector<std::pair<std::string, std::string>> out;
  for (const Item& e : r.entries(it)) {
    if (!detail::is_identifier(e.name))
      throw InputError(e.key_loc, e.key, "'" + e.name + "' is not a variable name");
    if (!e.node.IsScalar())
      throw InputError(e.loc, e.key, "expected a single value, got " + detail::describe(e.node));
    out.emplace_back(e.name, e.node.Scalar());
  }
  return out;
}

// A value that goes into a job script's directive line (a queue, an account, a constraint, a QOS):
// checked as a case's `resources:` value is, so a newline or a quote in a profile can never add a
// directive or a shell line (issue 40's third pass).
std::string directive_word(const YamlReader& r, const Item& e, const char* as) {
  const std::string v = r.text(e);
  ResourcesSpec scratch;
  detail::set_resource(scratch, as, v, e.loc, e.key);
  return v;
}

long long positive(const YamlReader& r, const Item& e, long long min = 1) {
  const long long v = r.integer(e);
  if (v < min) throw InputError(e.loc, e.key, "must be at least " + std::to_string(min));
  return v;
}

void read_nodes(const YamlReader& r, const Item& it, SystemQueue& q) {
  if (it.node.IsScalar()) {
    q.max_nodes = positive(r, it);
    return;
  }
  for (const Item& e : r.entries(it, {"min", "max"}))
    (e.name == "min" ? q.min_nodes : q.max_nodes) = positive(r, e);
  if (q.min_nodes && q.max_nodes && *q.min_nodes > *q.max_nodes)
    throw InputError(it.loc, it.key,
                     "min (" + std::to_string(*q.min_nodes) + ") is more than max (" +
                         std::to_string(*q.max_nodes) + ")");
}

SystemQueue read_queue(const YamlReader& r, const Item& it) {
  r.expect_map(it);
  SystemQueue q;
  q.loc = it.loc;
  bool named = false;
  for (const Item& e : r.entries(it, system_queue_keys())) {
    if (e.name == "name") {
      q.name = directive_word(r, e, "queue");
      named = true;
    } else if (e.name == "nodes") {
      read_nodes(r, e, q);
    } else if (e.name == "walltime") {
      q.walltime_s = parse_duration(r.text(e), e.loc, e.key);
    } else if (e.name == "gpus_per_node") {
      q.gpus_per_node = static_cast<int>(std::min(positive(r, e, 0), 1LL << 20));
    } else if (e.name == "gpu") {
      q.gpu = r.text(e);
    } else if (e.name == "cpus_per_node") {
      q.cpus_per_node = static_cast<int>(std::min(positive(r, e), 1LL << 20));
    } else if (e.name == "memory_gb") {
      q.memory_gb = r.number(e);
      if (!(*q.memory_gb > 0)) throw InputError(e.loc, e.key, "must be more than 0");
    } else if (e.name == "constraint") {
      q.constraint = directive_word(r, e, "constraint");
    } else if (e.name == "qos") {
      q.qos = directive_word(r, e, "account");
    } else if (e.name == "partition") {
      q.partition = directive_word(r, e, "queue");
    }
  }
  if (!named) throw InputError(it.loc, it.key, "missing required key 'name' (the queue's name)");
  return q;
}

void read_recognise(const YamlReader& r, const Item& it, SystemRecognition& rec) {
  r.expect_map(it);
  for (const Item& e : r.entries(it, {"hostnames", "variables", "slurm_cluster"})) {
    if (e.name == "hostnames")
      rec.hostnames = r.texts(e);
    else if (e.name == "variables")
      rec.variables = read_variables(r, e);
    else
      rec.slurm_cluster = r.text(e);
  }
}

// Each entry is one line of the job script: a line break inside one would be a line nobody sees
// in the list.
std::vector<std::string> one_line_each(const YamlReader& r, const Item& e) {
  std::vector<std::string> out = r.texts(e);
  for (const std::string& line : out)
    if (line.find_first_of("\n\r") != std::string::npos)
      throw InputError(e.loc, e.key, "each entry is one line: '" + line + "' holds a line break");
  return out;
}

void read_environment(const YamlReader& r, const Item& it, SystemProfile& p) {
  r.expect_map(it);
  for (const Item& e : r.entries(it, {"modules", "setup", "variables"})) {
    if (e.name == "modules")
      p.modules = one_line_each(r, e);
    else if (e.name == "setup")
      p.setup = one_line_each(r, e);
    else
      p.variables = read_variables(r, e);
  }
}

}  // namespace

const std::vector<std::string>& system_profile_keys() {
  static const std::vector<std::string> keys{
      "name",    "title", "sources",     "recognise", "scheduler", "launcher",   "container",
      "account", "queue", "filesystems", "scratch",   "queues",    "environment"};
  return keys;
}

const std::vector<std::string>& system_queue_keys() {
  static const std::vector<std::string> keys{"name", "nodes",         "walltime",  "gpus_per_node",
                                             "gpu",  "cpus_per_node", "memory_gb", "constraint",
                                             "qos",  "partition"};
  return keys;
}

const SystemQueue* SystemProfile::find_queue(const std::string& q) const {
  for (const SystemQueue& s : queues)
    if (s.name == q) return &s;
  return nullptr;
}

SystemProfile parse_system_profile(const std::string& yaml_text, const std::string& file) {
  if (yaml_text.size() > kMaxProfileBytes)
    throw InputError(SourceLoc{file, 0, 0}, "", "larger than 1 MiB: not a system profile");
  const YamlReader r(file, yaml_text);
  SystemProfile p;
  p.file = file;
  bool named = false;
  Item queue_item;
  for (const Item& e : r.entries(r.root(), system_profile_keys())) {
    if (e.name == "name") {
      p.name = r.text(e);
      if (!valid_system_name(p.name))
        throw InputError(e.loc, e.key,
                         "'" + p.name +
                             "' is not a system name: lower-case letters, digits, '-' and '_', "
                             "starting with a letter or digit, at most 64");
      named = true;
    } else if (e.name == "title") {
      p.title = r.text(e);
    } else if (e.name == "sources") {
      p.sources = r.texts(e);
    } else if (e.name == "recognise") {
      read_recognise(r, e, p.recognise);
    } else if (e.name == "scheduler") {
      p.scheduler = one_of(r, e, case_scheduler_names(), "scheduler");
    } else if (e.name == "launcher") {
      p.launcher = one_of(r, e, launcher_kinds(), "launcher");
    } else if (e.name == "container") {
      p.container = one_of(r, e, container_runtimes(), "container runtime");
    } else if (e.name == "account") {
      p.account = directive_word(r, e, "account");
    } else if (e.name == "queue") {
      p.queue = directive_word(r, e, "queue");
      queue_item = e;
    } else if (e.name == "filesystems") {
      p.filesystems = directive_word(r, e, "filesystems");
    } else if (e.name == "scratch") {
      p.scratch = r.text(e);
    } else if (e.name == "queues") {
      r.expect_list(e);
      for (const Item& q : r.elements(e)) {
        SystemQueue read = read_queue(r, q);
        if (p.find_queue(read.name))
          throw InputError(q.loc, q.key, "queue '" + read.name + "' is listed twice");
        p.queues.push_back(std::move(read));
      }
    } else if (e.name == "environment") {
      read_environment(r, e, p);
    }
  }
  if (!named)
    throw InputError(SourceLoc{file, 1, 1}, "name", "missing required key 'name' (the system's)");
  if (!p.queue.empty() && !p.queues.empty() && !p.find_queue(p.queue)) {
    std::vector<std::string> names;
    for (const SystemQueue& q : p.queues) names.push_back(q.name);
    throw InputError(queue_item.loc, queue_item.key,
                     "the default queue '" + p.queue + "' is not one of queues: " +
                         detail::joined(names) + detail::did_you_mean(p.queue, names));
  }
  return p;
}

SystemProfile load_system_profile(const std::string& path) {
  const std::string file = fs::absolute(path).lexically_normal().string();
  std::error_code ec;
  const auto type = fs::status(file, ec).type();
  if (type == fs::file_type::not_found)
    throw InputError(SourceLoc{file, 0, 0}, "", "no such system profile");
  if (type != fs::file_type::regular)
    throw InputError(SourceLoc{file, 0, 0}, "",
                     "not a regular file (a folder, a device or a pipe is never read as a "
                     "system profile)");
  return parse_system_profile(detail::read_yaml_file(file, kMaxProfileBytes, "system profile"),
                              file);
}

}  // namespace aerun
