// The `startup` preset: the job-start line a job script prints and the first training step,
// their timestamps subtracted with calendar arithmetic (seed 000's Perlmutter startup study).
#include "logread/preset_families.hpp"

namespace aerun::detail {

Preset startup_v1() {
  Preset p;
  p.name = "startup";
  p.version = 1;
  p.headline = {};
  p.summary = "startup time: 'Job started at:' line to the first step's timestamp";
  p.startup.first_step = R"((?:\[Rank 0\] step=0,|iteration\s+1/))";
  p.startup.job_start = R"(Job started at: (\d{4}-\d\d-\d\d-\d{6}))";
  p.startup.job_start_format = "%Y-%m-%d-%H%M%S";
  p.startup.step_time = R"(^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d+)?)\].*\[Rank 0\] step=0,)";
  p.startup.step_time_format = "%Y-%m-%d %H:%M:%S%f";
  // A startup study is done when the first step is reached: that is what it measures.
  p.completion.end = {p.startup.first_step};
  return p;
}

}  // namespace aerun::detail
