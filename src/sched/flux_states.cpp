#include "aerun/sched/flux_states.hpp"

#include <cstdint>

#include "aerun/judge/run_status.hpp"

namespace aerun {

RunState flux_run_state(const std::string& state, const std::string& result,
                        const std::string& exception_type, const std::string& exception_note) {
  // flux-jobs(1): DEPEND, PRIORITY and SCHED are pending; RUN and CLEANUP running; INACTIVE done.
  if (state == "DEPEND" || state == "PRIORITY" || state == "SCHED" || state == "NEW")
    return {run_status::pending, false};
  if (state == "RUN" || state == "CLEANUP") return {run_status::running, false};
  if (state != "INACTIVE") {
    warn_unknown_once("Flux", state);
    return {run_status::running, false};
  }
  // libjob/result.c: COMPLETED when it succeeded; CANCELED for a `cancel` exception, TIMEOUT for
  // a `timeout` one; FAILED for everything else (a nonzero exit, exec, alloc, node failures).
  if (result == "COMPLETED") return {run_status::ok, true};
  if (result == "CANCELED") return {run_status::cancelled, true};
  if (result == "TIMEOUT") return {run_status::timeout, true};
  if (exception_type == "exec" && exception_note.starts_with("node failure"))
    return {run_status::node_failure, true};  // "node failure on vm (rank 2)": a lost broker
  if (exception_type == "node-failure") return {run_status::node_failure, true};
  if (exception_type == "alloc") return {run_status::launch_failed, true};   // unsatisfiable
  if (exception_type == "dependency") return {run_status::cancelled, true};  // never ran
  if (result != "FAILED" && !result.empty()) warn_unknown_once("Flux", result);
  return {run_status::failed, true};
}

std::string flux_decimal_id(const std::string& id) {
  if (id.empty() || id.size() > 24) return "";
  if (id.find_first_not_of("0123456789") == std::string::npos) return id.size() <= 20 ? id : "";
  size_t at = 0;
  if (id.compare(0, 2, "\xC6\x92") == 0)  // U+0192 "ƒ" in UTF-8
    at = 2;
  else if (id[0] == 'f')
    at = 1;
  else
    return "";
  static const std::string alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  if (at == id.size()) return "";
  uint64_t v = 0;
  for (size_t i = at; i < id.size(); ++i) {
    const size_t d = alphabet.find(id[i]);
    if (d == std::string::npos || v > (UINT64_MAX - d) / 58) return "";
    v = v * 58 + d;
  }
  return std::to_string(v);
}

}  // namespace aerun
