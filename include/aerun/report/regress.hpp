// `aerun regress`: tonight's runs of each case point against a baseline's, metric by metric, with
// the noise of repeats taken into account (docs/nightly.md).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/record/run_record.hpp"

namespace aerun {

enum class Better { Unknown, Higher, Lower };

// A metric's direction: the case's `better:`, else from its unit (a time — ms, s, min, h — is
// better lower; a rate — anything "/s", TFLOP/s — higher), else from its name (…_ms, …_s, time,
// latency, loss: lower; throughput, tflops, per_s, per_sec, samples/tokens per: higher).
Better metric_direction(const std::string& name, const std::string& unit,
                        const std::string& declared = {});
const char* to_string(Better b);

// "hidden=64 layers=2": a run's point (its parameters; the repeat is not one), as people read it.
std::string point_text(const RunRecord& r);
// A metric's value in a run; also the run times startup_s and wall_s.
std::optional<double> run_metric(const RunRecord& r, const std::string& metric);
// The median of a non-empty sample.
double median_of(std::vector<double> v);

struct RegressOptions {
  double tolerance = 0.10;  // a change within ±tolerance of the baseline's median is no change
  int min_repeats = 3;      // fewer ok runs on a side: a change is "noisy", never a verdict
  double alpha = 0.05;      // the one-sided Mann-Whitney p-value a change must reach
  std::vector<std::string> metrics;  // only these (empty: every metric, startup_s and wall_s)
};

// What a comparison says of a point × metric (or of a point's status), in the order the summary
// lists them.
enum class RegressVerdict {
  NewlyFailing,  // ok in the baseline, failing now
  Regressed,     // worse beyond the tolerance, significantly
  Noisy,         // beyond the tolerance, but too few repeats or not significant
  Missing,       // in the baseline, not run now
  Failing,       // failing on both sides
  Improved,
  Fixed,    // failing in the baseline, ok now
  New,      // not in the baseline
  Changed,  // beyond the tolerance, with no known better direction
  Unchanged,
};
// "newly_failing", "regressed", … as every output writes it.
const char* to_string(RegressVerdict v);
inline std::ostream& operator<<(std::ostream& os, RegressVerdict v) {
  return os << to_string(v);
}
// Worse than the baseline: regressed or newly failing (`aerun regress` exits 1; JUnit failures).
inline bool is_failure(RegressVerdict v) {
  return v == RegressVerdict::Regressed || v == RegressVerdict::NewlyFailing;
}
// Every verdict, in summary order.
const std::vector<RegressVerdict>& regress_verdicts();

// One point × metric (or, for a point that failed on a side, the point's status).
struct RegressRow {
  std::string case_name;
  std::string point;   // "hidden=64 layers=2" (parameters, repeat left out)
  std::string metric;  // "" for the point's status rows (failing, missing, new, fixed)
  std::string unit;
  Better better = Better::Unknown;
  RegressVerdict verdict = RegressVerdict::Unchanged;
  std::optional<double> base_median, cur_median;
  std::optional<double> change;   // cur_median / base_median - 1
  std::optional<double> p_value;  // one-sided, in the direction of the change
  int base_n = 0, cur_n = 0;      // ok values on each side
  std::vector<double> base_values, cur_values;
  std::string base_session, cur_session;  // labels
  std::string note;                       // why (statuses, too few repeats, spread)
};

struct RegressReport {
  std::string baseline, current;  // as asked (labels, "best-of-5", ...)
  RegressOptions options;
  std::vector<RegressRow> rows;
  int count(RegressVerdict verdict) const;
  // Something regressed or newly fails: `aerun regress` exits 1.
  bool failed() const {
    return count(RegressVerdict::Regressed) + count(RegressVerdict::NewlyFailing) > 0;
  }
};

// One side of a comparison: the runs one session left of a case.
struct SessionRuns {
  std::string label;
  std::vector<RunRecord> runs;
};

// Compares a case's current runs with its baseline. With several baseline sessions
// (best-of-N), each point × metric is compared with the session whose median is best.
// `spec` (may be null) gives the metrics' units and directions.
std::vector<RegressRow> compare_case(const std::string& case_name, const CaseSpec* spec,
                                     const std::vector<SessionRuns>& baselines,
                                     const SessionRuns& current, const RegressOptions& opts);

// One system against another (`aerun regress --baseline system=NAME`): each other system's runs
// of a case in `current` compared, point by point, with `base`, the case's runs on base_system
// ("" for runs on no named system) in the session that last ran it there. Runs of `current` on
// base_system itself are left out. Empty when `base` is.
std::vector<RegressRow> compare_with_system(const std::string& case_name, const CaseSpec* spec,
                                            const SessionRuns& base, const std::string& base_system,
                                            const SessionRuns& current, const RegressOptions& opts);

// A short Markdown summary: counts per verdict, then every row that is not unchanged.
std::string render_regress_markdown(const RegressReport& r);
// JUnit XML: a testsuite per case, a testcase per point × metric; regressed and newly failing are
// failures carrying the numbers, noisy / missing / new are skipped.
std::string render_regress_junit(const RegressReport& r);
std::string render_regress_json(const RegressReport& r);

}  // namespace aerun
