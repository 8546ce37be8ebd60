// A table's derived metrics (`derive:`), computed per run with muparserx.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/record/run_record.hpp"

namespace aerun::report_detail {

// The `derive:` formulas of one table, compiled once. Formula k sees the run's parameters
// (numbers, or strings in double quotes), its metrics, its times (run_times.hpp; instants as epoch
// seconds) and derived metrics 0..k-1. A run lacking a value a formula uses gets no value for it
// (its cell reads "missing").
class RunFormulas {
 public:
  // known: every name a formula may use besides earlier derived metrics. Throws InputError
  // (at the formula) on a syntax error or an unknown variable, naming the known ones.
  RunFormulas(const TableSpec& t, std::vector<std::string> known);
  ~RunFormulas();
  RunFormulas(const RunFormulas&) = delete;
  RunFormulas& operator=(const RunFormulas&) = delete;

  // Appends the derived metrics the run has every input for (with the derive's unit).
  // Throws InputError when a formula fails on this run (e.g. a string where a number goes).
  void apply(RunRecord& run) const;

  // The derived metrics computed from parameters alone (is_param), directly or through earlier
  // such derived metrics: a failed run has them too (e.g. the global batch of a run that ran out
  // of memory).
  std::vector<std::string> parameter_only(
      const std::function<bool(const std::string&)>& is_param) const;

 private:
  struct Compiled;
  std::vector<Compiled> formulas_;
  std::string table_;
};

}  // namespace aerun::report_detail
