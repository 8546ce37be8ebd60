// Whether a stored run stands for a planned one (reused, not run again): the one rule of local
// runs (case_runner.cpp) and batch jobs (batch_runner.cpp).
#pragma once

#include <string>

#include "aerun/judge/failure_policy.hpp"
#include "aerun/record/run_record.hpp"

namespace aerun {

// prev stands unless the failure policy runs its status again, a fresh session wants runs of its
// own (fresh_session: prev must be of session), or it ran in another image under the same name
// (digest: the planned run's image identity; a rebuilt or retagged image, both known, differ).
inline bool stored_run_stands(const RunRecord& prev, const FailurePolicy& policy,
                              bool fresh_session, long long session, const std::string& digest) {
  if (!digest.empty() && !prev.container_digest.empty() && prev.container_digest != digest)
    return false;
  return policy.keeps(prev.status) && (!fresh_session || prev.session_id == session);
}

}  // namespace aerun
