// The `scheduler:` and `resources:` keys of a case file: what each batch job asks for.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "aerun/case/case_loader.hpp"
#include "aerun/util/template_text.hpp"
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

// Keys whose value may hold `{param}` placeholders, resolved per sweep point.
bool per_point_key(const std::string& k) {
  static const std::vector<std::string> keys{
      "nodes",     "gpus_per_node", "tasks_per_node", "cpus_per_task", "walltime",
      "partition", "queue",         "account",        "project",       "constraint",
      "hint",      "filesystems",   "place"};
  return contains(keys, k);
}

void read_resource(const YamlReader& r, const Item& e, ResourcesSpec& s, const std::string& base) {
  const std::string& k = e.name;
  if (per_point_key(k)) {
    const std::string text = r.text(e);
    if (!placeholders(text).empty())
      s.per_point.push_back({k, text, e.loc});
    else
      set_resource(s, k, text, e.loc, e.key);
  } else if (k == "exclusive") {
    s.exclusive = r.boolean(e);
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
    s.array_cap = count(r.text(e), e.loc, e.key, 1, 1000000);
  } else if (k == "array") {
    s.array = r.boolean(e);
  }
}

}  // namespace

void read_scheduler(const YamlReader& r, const Item& it, CaseSpec& spec) {
  const std::string v = r.text(it);
  const std::vector<std::string>& valid = case_scheduler_names();
  if (std::find(valid.begin(), valid.end(), v) == valid.end())
    throw InputError(
        it.loc, it.key,
        "unknown scheduler '" + v + "'" + did_you_mean(v, valid) + "; use " + scheduler_choices());
  spec.scheduler = parse_scheduler(v, it.key);
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
