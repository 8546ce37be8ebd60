// Flux job states and results in aerun's words (job_state.hpp). Sources: flux-core
// doc/man1/flux-jobs.rst (states DEPEND PRIORITY SCHED RUN CLEANUP INACTIVE; results COMPLETED
// FAILED CANCELED TIMEOUT) and src/common/libjob/result.c; exception types from
// src/modules/job-exec (exec, node-failure), the scheduler (alloc) and the job manager (cancel,
// timeout, dependency). Read at flux-core 4a5e79f56 (v0.88.0-59), cited in docs/schedulers.md.
#pragma once

#include <string>

#include "aerun/sched/job_state.hpp"

namespace aerun {

// A job's state, its result once INACTIVE, and the type and note of its highest-severity
// exception (flux jobs --json: "state", "result", "exception.type", "exception.note").
RunState flux_run_state(const std::string& state, const std::string& result,
                        const std::string& exception_type, const std::string& exception_note);

// A Flux job id in F58 ("ƒjXxPvo", or "fjXxPvo" under FLUX_F58_FORCE_ASCII or a C locale) or
// decimal ("27917287424"), as its decimal text; "" when it is neither (flux-core
// src/common/libutil/fluid.c: base 58, alphabet without 0 O I l).
std::string flux_decimal_id(const std::string& id);

}  // namespace aerun
