// Measures sweep expansion at scale: a 1,000,000-point case expanded with Sweep, each point's
// command rendered and its run key computed. Prints one line of key=value pairs.
//   bench_sweep [--derive] [--include] [--expand-only]
// --include adds an include re-running the whole grid with another method (2,000,000 points,
// each include point checked against the base grid for duplicates).
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/sweep/command_template.hpp"
#include "aerun/sweep/run_key.hpp"
#include "aerun/sweep/sweep.hpp"

namespace {

aerun::ParamSpec axis(const std::string& name, int n, int scale) {
  aerun::ParamSpec p;
  p.name = name;
  p.is_list = true;
  for (int i = 0; i < n; ++i)
    p.values.push_back(aerun::Value::of_int(static_cast<long long>(i + 1) * scale));
  return p;
}

aerun::CaseSpec million_point_case(bool derive, bool include) {
  aerun::CaseSpec c;
  c.file = "/bench/million.yaml";
  c.name = "million";
  c.params = {axis("nodes", 10, 1), axis("tp", 10, 2), axis("mbs", 100, 1), axis("gas", 100, 4)};
  aerun::ParamSpec method{"method", {aerun::Value::of_string("zero-offload")}, false, {}};
  c.params.push_back(method);
  if (include) {
    aerun::ParamSpec other{"method", {aerun::Value::of_string("zero-infinity")}, false, {}};
    c.includes.push_back({{other}, {}});
  }
  if (derive) c.derive.push_back({"gbs", "mbs * gas * nodes * 4 / tp", {}});
  c.command =
      "python pretrain_gpt.py --method {method} --nodes {nodes} --tensor-model-parallel-size {tp} "
      "--micro-batch-size {mbs} --gradient-accumulation-steps {gas} --log log_{case}_{repeat}.txt";
  if (derive) c.command += " --global-batch-size {gbs}";
  c.env = {{"OMP_NUM_THREADS", aerun::Value::of_int(8)}};
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  bool derive = false, include = false, expand_only = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--derive") == 0)
      derive = true;
    else if (std::strcmp(argv[i], "--include") == 0)
      include = true;
    else if (std::strcmp(argv[i], "--expand-only") == 0)
      expand_only = true;
    else {
      std::fprintf(stderr, "usage: %s [--derive] [--include] [--expand-only]\n", argv[0]);
      return 2;
    }
  }
  const aerun::CaseSpec spec = million_point_case(derive, include);
  const auto t0 = std::chrono::steady_clock::now();
  const aerun::Sweep sweep(spec);
  const aerun::CommandTemplate tmpl(spec.command, spec.command_loc, sweep.names());
  size_t points = 0, checksum = 0;
  sweep.for_each([&](const aerun::ParamList& p) {
    ++points;
    if (expand_only) {
      checksum += p[2].second.text().size();
      return true;
    }
    const std::string cmd = tmpl.render(p, spec.name, 0);
    checksum += aerun::run_key(spec.name, cmd, p, spec.env, 0)[0] + cmd.size();
    return true;
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf(
      "points=%zu seconds=%.3f derive=%d include=%d expand_only=%d peak_rss_kb=%ld checksum=%zu\n",
      points, seconds, derive ? 1 : 0, include ? 1 : 0, expand_only ? 1 : 0, ru.ru_maxrss,
      checksum);
  return 0;
}
