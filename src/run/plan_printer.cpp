// print_plan and demo_workload_env (plan_printer.hpp).
#include "aerun/run/plan_printer.hpp"
#include "aerun/run/setup_steps.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>

#include "aerun/run/provenance.hpp"
#include "aerun/util/shell_quote.hpp"

namespace aerun {

long long print_plan(const CaseSpec& spec, const RunSelector* selector, std::FILE* file) {
  std::string out;
  out.reserve(1 << 20);
  out += fmt::format("# case {} ({}): workdir {}\n", spec.name, printable(spec.file),
                     printable(spec.workdir));
  if (!spec.steps.empty()) {  // the setup steps the runs need, first
    SetupSteps steps(spec);
    plan_runs(spec, PlanOptions{selector, /*with_keys=*/true}, [&](const PlannedRun& r) {
      steps.need(r);
      return true;
    });
    out += steps.plan_text();
    out += "# the runs, once their steps succeeded:\n";
  }
  long long n = 0;
  plan_runs(spec, PlanOptions{selector, /*with_keys=*/false}, [&](const PlannedRun& r) {
    out += r.command;
    out += '\n';
    ++n;
    if (out.size() > (1 << 20)) {
      std::fwrite(out.data(), 1, out.size(), file);
      out.clear();
    }
    return true;
  });
  out += fmt::format("# {} run{}\n", n, n == 1 ? "" : "s");
  std::fwrite(out.data(), 1, out.size(), file);
  std::fflush(file);
  return n;
}

EnvVars demo_workload_env() {
  EnvVars env;
  if (std::getenv("AERUN_DEMO_TRAIN")) return env;
  std::error_code ec;
  const auto demo = std::filesystem::path(self_binary()).parent_path() / "aerun-demo-train";
  if (std::filesystem::exists(demo, ec)) env.push_back({"AERUN_DEMO_TRAIN", demo.string()});
  return env;
}

}  // namespace aerun
