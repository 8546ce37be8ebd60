// launch_argv / render_launch / rendezvous_env: what the runner puts around a program.
#include "aerun/util/shell_quote.hpp"
#include "launch/dialect_parts.hpp"

namespace aerun {

std::vector<std::string> launch_argv(const LauncherSpec& spec, const ClusterInfo& cluster) {
  const LaunchLayout layout = plan_launch(spec, cluster);
  return find_dialect(spec.kind).render(spec, cluster, layout);
}

std::string render_launch(const LauncherSpec& spec, const ClusterInfo& cluster) {
  std::string out;
  for (const auto& a : launch_argv(spec, cluster)) {
    if (!out.empty()) out += ' ';
    out += shell_quote(a);
  }
  return out;
}

EnvVars rendezvous_env(const LauncherSpec& spec, const ClusterInfo& cluster) {
  const LaunchLayout l = plan_launch(spec, cluster);
  const RankVariables& v = find_dialect(spec.kind).vars;
  EnvVars env{{"MASTER_ADDR", l.hosts.front()},
              {"MASTER_PORT", std::to_string(spec.master_port)},
              {"WORLD_SIZE", std::to_string(l.ranks)},
              {"NNODES", std::to_string(l.nodes)},
              {"AERUN_RANK_VAR", v.rank},
              {"AERUN_LOCAL_RANK_VAR", v.local_rank},
              {"AERUN_SIZE_VAR", v.size}};
  if (spec.kind == "none") env.insert(env.end(), {{"RANK", "0"}, {"LOCAL_RANK", "0"}});
  return env;
}

}  // namespace aerun
