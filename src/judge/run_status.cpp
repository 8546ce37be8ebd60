// The table of the statuses aerun gives (run_status.hpp).
#include "aerun/judge/run_status.hpp"

namespace aerun::run_status {

const std::vector<Info>& builtin() {
  using enum Rank;
  static const std::vector<Info> all{
      {ok, RootCause, false},          {failed, Crash, false},
      {incomplete, RootCause, false},  {no_progress, RootCause, false},
      {timeout, RootCause, false},     {oom, RootCause, false},
      {host_oom, RootCause, false},    {comm_error, RootCause, true},
      {node_failure, RootCause, true}, {launcher_failed, Outcome, true},
      {launch_failed, Outcome, true},  {submit_failed, RootCause, true},
      {cancelled, Outcome, true},      {interrupted, RootCause, true},
      {stale, RootCause, true},        {lost, Outcome, true},
      {stalled, RootCause, true},      {startup_timeout, RootCause, true},
      {diverged, RootCause, false},    {unknown_format, RootCause, false},
      {disk_full, RootCause, false},
  };
  return all;
}

const Info* find(std::string_view name) {
  for (const Info& i : builtin())
    if (i.name == name) return &i;
  return nullptr;
}

}  // namespace aerun::run_status
