// The `launcher:` section of a case file: which launcher starts the ranks, and how.
#include <algorithm>
#include <filesystem>

#include "case/case_sections.hpp"

namespace aerun::detail {

namespace {

const std::vector<std::string>& launcher_keys() {
  static const std::vector<std::string> keys{"kind",     "ranks_per_node", "nodes",    "ranks",
                                             "cpu_bind", "depth",          "gpu_bind", "extra_args",
                                             "env",      "gpus_per_node",  "hostfile", "mpi",
                                             "program",  "master_port"};
  return keys;
}

int positive(const YamlReader& r, const Item& e, long long max = 1000000) {
  const long long n = r.integer(e);
  if (n < 1) throw InputError(e.loc, e.key, "must be at least 1");
  if (n > max) throw InputError(e.loc, e.key, "at most " + std::to_string(max));
  return static_cast<int>(n);
}

std::string read_kind(const YamlReader& r, const Item& e) {
  const std::string kind = r.text(e);
  // `system`: the launcher of the system the case runs on (apply_system), for a case written for
  // several machines (issue 41).
  if (kind == kSystemLauncher) return kind;
  const auto& kinds = launcher_kinds();
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
    std::string list;
    for (const auto& k : kinds) list += (list.empty() ? "" : ", ") + k;
    list += " or " + std::string(kSystemLauncher) + " (the system's)";
    throw InputError(
        e.loc, e.key,
        "unknown launcher '" + kind + "'" + did_you_mean(kind, kinds) + "; use " + list);
  }
  return kind;
}

std::string read_cpu_bind(const YamlReader& r, const Item& e) {
  const std::string b = r.text(e);
  const auto& words = cpu_bind_words();
  if (b.rfind("list:", 0) == 0) {
    if (b.size() == 5 || b.find_first_not_of("0123456789,-:", 5) != std::string::npos)
      throw InputError(e.loc, e.key,
                       "a cpu_bind list is list:<cores>:<cores>..., e.g. list:1-8:9-16");
    return b;
  }
  if (std::find(words.begin(), words.end(), b) == words.end())
    throw InputError(e.loc, e.key,
                     "unknown cpu_bind '" + b + "'" + did_you_mean(b, words) +
                         "; use none, core, socket, hwthread, numa, depth, aurora or list:...");
  return b;
}

// `ranks: "{np}"`: a count given per sweep point (resolved by resolve_launcher).
bool per_point_count(const YamlReader& r, const Item& e, LauncherSpec& s) {
  if (!e.node.IsScalar() || e.node.Scalar().find('{') == std::string::npos) return false;
  s.per_point.push_back({e.name, r.text(e), e.loc});
  return true;
}

void read_launcher_entry(const YamlReader& r, const Item& e, LauncherSpec& s,
                         const std::string& base) {
  const std::string& k = e.name;
  if ((k == "ranks" || k == "ranks_per_node" || k == "nodes" || k == "depth") &&
      per_point_count(r, e, s))
    return;
  if (k == "kind") {
    s.kind = read_kind(r, e);
  } else if (k == "ranks_per_node") {
    if (e.node.IsScalar() && e.node.Scalar() == "gpus")
      s.ranks_per_node.reset();
    else if (e.node.IsScalar() && Value::parse(e.node.Scalar()).kind() == Value::Kind::Int)
      s.ranks_per_node = positive(r, e);
    else
      throw InputError(e.loc, e.key, "expected 'gpus' or a number of ranks");
  } else if (k == "nodes") {
    s.nodes = positive(r, e);
  } else if (k == "ranks") {
    s.ranks = positive(r, e, 100000000);
  } else if (k == "cpu_bind") {
    s.cpu_bind = read_cpu_bind(r, e);
  } else if (k == "depth") {
    s.depth = positive(r, e);
  } else if (k == "gpu_bind") {
    s.gpu_bind = r.text(e);
  } else if (k == "extra_args") {
    s.extra_args = r.texts(e);
  } else if (k == "env") {
    s.env = r.texts(e);
    for (const auto& v : s.env)
      if (v != "all" && !is_identifier(v))
        throw InputError(e.loc, e.key,
                         "'" + v + "' is not a variable name ([A-Za-z_][A-Za-z0-9_]*, or all)");
  } else if (k == "gpus_per_node") {
    const long long n = r.integer(e);
    if (n < 0 || n > 1024) throw InputError(e.loc, e.key, "must be between 0 and 1024");
    s.gpus_per_node = static_cast<int>(n);
  } else if (k == "hostfile") {
    const std::filesystem::path p = r.text(e);
    s.hostfile =
        (p.is_absolute() ? p : std::filesystem::path(base) / p).lexically_normal().string();
  } else if (k == "mpi") {
    s.mpi = r.text(e);
  } else if (k == "program") {
    s.program = r.text(e);
  } else if (k == "master_port") {
    s.master_port = positive(r, e, 65535);
  }
}

}  // namespace

void read_launcher(const YamlReader& r, const Item& it, CaseSpec& spec, const std::string& base) {
  LauncherSpec s;
  s.loc = it.key_loc;
  if (it.node.IsScalar()) {  // `launcher: mpich`
    s.kind = read_kind(r, it);
  } else if (it.node.IsMap()) {
    bool has_kind = false;
    for (const Item& e : r.entries(it, launcher_keys())) {
      read_launcher_entry(r, e, s, base);
      has_kind = has_kind || e.name == "kind";
    }
    if (!has_kind) throw InputError(it.loc, it.key, "missing required key 'kind'");
  } else {
    throw InputError(it.loc, it.key,
                     "expected a launcher name or a map with 'kind', got " + describe(it.node));
  }
  if (s.kind == "none" && (s.ranks.value_or(1) != 1 || s.nodes.value_or(1) != 1))
    throw InputError(it.loc, it.key, "launcher 'none' runs a single process; choose a launcher");
  spec.launcher = std::move(s);
}

}  // namespace aerun::detail
