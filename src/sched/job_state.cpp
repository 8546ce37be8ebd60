// What the backends share about job states: an unknown word is said once.
#include "aerun/sched/job_state.hpp"

#include <iostream>
#include <mutex>
#include <set>

namespace aerun {

void warn_unknown_once(const std::string& scheduler, const std::string& word) {
  static std::mutex m;
  static std::set<std::string> seen;
  std::lock_guard lock(m);
  if (!seen.insert(scheduler + '\0' + word).second) return;
  std::cerr << "aerun: warning: unknown " << scheduler << " job state '" << word
            << "': kept as it is and treated as still active\n";
}

}  // namespace aerun
