// The bisection behind search sweeps: which value to probe next, given the outcomes so far. Pure:
// no runs, no store (search_runner.hpp runs the probes).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace aerun {

// The outcome of one probe: the value tried, whether it passed, and its status ("ok", "oom", ...).
struct Probe {
  long long value = 0;
  bool pass = false;
  std::string status;
};

// Bisection over candidate values given in search order: the first is expected to pass, later
// ones pass up to a boundary and fail after it (monotonicity, assumed). The first candidate is
// probed first; when it fails the search ends without a result. Then the interval between the
// last known pass and the first known failure (or the end of the list) is halved until the two
// are adjacent: at most max_probes(n) probes. Outcomes may be recorded in any order and for any
// candidate (e.g. runs already in the store, which then spare probes). An outcome contradicting
// monotonicity (a pass after a failure) is kept as a warning; the boundary is the first failure.
class Bisection {
 public:
  // candidates: distinct values in search order (ascending for largest_ok), non-empty.
  explicit Bisection(std::vector<long long> candidates);

  // The value to probe next; nullopt once the search is over.
  std::optional<long long> next() const;
  bool done() const { return !next(); }
  // Records a probe's outcome. A value that is no candidate throws std::invalid_argument; a value
  // already recorded keeps its first outcome.
  void record(const Probe& p);
  bool known(long long value) const;

  // The last passing candidate before the first failure (final once done()); nullopt when none
  // passed yet, e.g. when the first candidate failed.
  std::optional<long long> result() const;
  // The result is the last candidate: values beyond it were not tried.
  bool at_end() const;
  // Outcomes in the order recorded.
  const std::vector<Probe>& probes() const { return probes_; }
  // "90 ok but 86 oom": outcomes that contradict monotonicity, in the order found.
  const std::vector<std::string>& warnings() const { return warnings_; }
  const std::vector<long long>& candidates() const { return cand_; }

  // The most probes a search over n candidates makes: 1 + ceil(log2(n)).
  static int max_probes(size_t n);

 private:
  // Index of the first failure (n when none), and of the last pass before it (-1 when none).
  long first_fail() const;
  long last_pass_before(long end) const;

  std::vector<long long> cand_;
  std::unordered_map<long long, size_t> index_;
  const Probe* outcome(size_t i) const { return at_[i] < 0 ? nullptr : &probes_[at_[i]]; }

  std::vector<long> at_;  // per candidate: the index of its probe in probes_, or -1
  std::vector<Probe> probes_;
  std::vector<std::string> warnings_;
};

}  // namespace aerun
