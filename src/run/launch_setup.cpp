#include "aerun/launch_setup.hpp"

#include "aerun/cluster.hpp"
#include "aerun/launcher.hpp"

namespace aerun {

namespace {

// Braces in the launch line must reach the shell as they are: the command template reads `{{`
// and `}}` as literal braces.
std::string escape_braces(const std::string& s) {
  std::string out;
  for (char c : s) {
    out += c;
    if (c == '{' || c == '}') out += c;
  }
  return out;
}

}  // namespace

LaunchSetup prepare_launch(const CaseSpec& spec, const ResourcesSpec* point,
                           const LauncherSpec* launcher) {
  LaunchSetup s;
  s.command_template = spec.command;
  if (!spec.launcher) return s;
  LauncherSpec l = launcher ? *launcher : *spec.launcher;
  if (point && !l.nodes) l.nodes = point->nodes;
  if (point && !l.gpus_per_node) l.gpus_per_node = point->gpus_per_node;
  DiscoveryOptions o;
  o.hostfile = l.hostfile;
  o.gpus_per_host = l.gpus_per_node;
  const ClusterInfo c = discover(o);
  s.prefix = render_launch(l, c);
  s.env = rendezvous_env(l, c);
  const std::string tag = "{launch}";
  const std::string line = escape_braces(s.prefix);
  const auto pos = s.command_template.find(tag);
  if (pos == std::string::npos) {
    if (!line.empty()) s.command_template = line + " " + s.command_template;
    return s;
  }
  std::string out;
  size_t from = 0;
  for (size_t p = pos; p != std::string::npos; p = s.command_template.find(tag, from)) {
    // `{{launch}` would be a literal brace followed by "launch}": leave it.
    if (p > 0 && s.command_template[p - 1] == '{') {
      out.append(s.command_template, from, p + tag.size() - from);
    } else {
      out.append(s.command_template, from, p - from);
      out += line;
    }
    from = p + tag.size();
  }
  out.append(s.command_template, from, std::string::npos);
  s.command_template = out;
  return s;
}

}  // namespace aerun
