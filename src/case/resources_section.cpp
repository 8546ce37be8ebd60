// The `scheduler:` and `resources:` keys of a case file: what each batch job asks for.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "aerun/case_loader.hpp"
#include "case/case_sections.hpp"

namespace aerun::detail {

namespace {

const std::vector<std::string>& resources_keys() {
  static const std::vector<std::string> keys{
      "nodes",       "gpus_per_node", "tasks_per_node", "cpus_per_task", "walltime",  "partition",
      "queue",       "account",       "project",        "constraint",    "hint",      "exclusive",
      "filesystems", "place",         "extra",          "template",      "array_cap", "array"};
  return keys;
}

int count(const YamlReader& r, const Item& e, long long min, long long max) {
  const long long n = r.integer(e);
  if (n < min || n > max)
    throw InputError(e.loc, e.key,
                     "must be between " + std::to_string(min) + " and " + std::to_string(max));
  return static_cast<int>(n);
}

// A value that goes into a directive line as it is: no whitespace, quote or shell metacharacter.
std::string word(const YamlReader& r, const Item& e, const std::string& also = "") {
  const std::string v = r.text(e);
  for (char c : v) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) ||
                    std::string("_.,:=+@/%-").find(c) != std::string::npos ||
                    also.find(c) != std::string::npos;
    if (!ok)
      throw InputError(e.loc, e.key,
                       "'" + v + "' holds '" + std::string(1, c) +
                           "'; use letters, digits and _.,:=+@/%-" + also);
  }
  return v;
}

void read_resource(const YamlReader& r, const Item& e, ResourcesSpec& s, const std::string& base) {
  const std::string& k = e.name;
  if (k == "nodes") {
    s.nodes = count(r, e, 1, 100000);
  } else if (k == "gpus_per_node") {
    s.gpus_per_node = count(r, e, 0, 1024);
  } else if (k == "tasks_per_node") {
    s.tasks_per_node = count(r, e, 1, 100000);
  } else if (k == "cpus_per_task") {
    s.cpus_per_task = count(r, e, 1, 100000);
  } else if (k == "walltime") {
    s.walltime_s = parse_duration(r.text(e), e.loc, e.key);
    if (s.walltime_s < 60)
      throw InputError(e.loc, e.key, "schedulers count walltime in minutes: at least 1m");
  } else if (k == "partition" || k == "queue") {
    s.queue = word(r, e);
  } else if (k == "account" || k == "project") {
    s.account = word(r, e);
  } else if (k == "constraint") {
    s.constraint = word(r, e, "&|[]*!()");
  } else if (k == "hint") {
    s.hint = word(r, e);
  } else if (k == "exclusive") {
    s.exclusive = r.boolean(e);
  } else if (k == "filesystems") {
    s.filesystems = word(r, e);
  } else if (k == "place") {
    s.place = word(r, e);
  } else if (k == "extra") {
    s.extra = r.texts(e);
    for (const auto& line : s.extra)
      if (line.find_first_of("\r\n") != std::string::npos || line.empty())
        throw InputError(e.loc, e.key, "each extra directive is one non-empty line");
  } else if (k == "template") {
    const std::filesystem::path p = r.text(e);
    s.template_path =
        (p.is_absolute() ? p : std::filesystem::path(base) / p).lexically_normal().string();
  } else if (k == "array_cap") {
    s.array_cap = count(r, e, 1, 1000000);
  } else if (k == "array") {
    s.array = r.boolean(e);
  }
}

}  // namespace

void read_scheduler(const YamlReader& r, const Item& it, CaseSpec& spec) {
  const std::string v = r.text(it);
  static const std::vector<std::string> valid{"slurm", "pbs", "local"};
  if (std::find(valid.begin(), valid.end(), v) == valid.end())
    throw InputError(
        it.loc, it.key,
        "unknown scheduler '" + v + "'" + did_you_mean(v, valid) + "; use slurm, pbs or local");
  spec.scheduler = v;
}

void read_resources(const YamlReader& r, const Item& it, CaseSpec& spec, const std::string& base) {
  ResourcesSpec s;
  s.loc = it.key_loc;
  bool has_queue = false, has_account = false;
  for (const Item& e : r.entries(it, resources_keys())) {
    const bool queue = e.name == "partition" || e.name == "queue";
    const bool account = e.name == "account" || e.name == "project";
    if ((queue && has_queue) || (account && has_account))
      throw InputError(e.key_loc, e.key,
                       queue ? "give either partition or queue (the same thing)"
                             : "give either account or project (the same thing)");
    has_queue = has_queue || queue;
    has_account = has_account || account;
    read_resource(r, e, s, base);
  }
  spec.resources = std::move(s);
}

}  // namespace aerun::detail
