// The local shell as a backend: a job script run with bash (templates/local.sh), its task index
// the script's first argument; no directives, no allocation, no client.
#include "sched/scheduler_backends.hpp"

namespace aerun {

namespace {

class LocalBackend final : public SchedulerBackend {
 public:
  Scheduler kind() const override { return Scheduler::None; }
  std::string_view name() const override { return "local"; }
  std::string_view script_extension() const override { return "sh"; }
  std::string_view template_file() const override { return "local.sh"; }
  std::string directives(const ResourcesSpec&, const JobArray&) const override { return ""; }
  std::string_view task_index_expression() const override { return "${1:-0}"; }
  std::string_view job_id_expression() const override { return "\"local-$$\""; }
  std::string_view by_hand() const override { return "bash THIS_SCRIPT N"; }
  std::unique_ptr<SchedulerClient> client() const override {
    std::string names;
    for (const char* n : batch_scheduler_names())
      names += (names.empty() ? "" : ", ") + std::string(n);
    throw InputError(SourceLoc{}, "--scheduler", "no batch scheduler chosen (" + names + ")");
  }
};

}  // namespace

const SchedulerBackend& local_backend() {
  static const LocalBackend b;
  return b;
}

}  // namespace aerun
