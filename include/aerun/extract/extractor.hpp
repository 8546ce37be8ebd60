// Streaming extraction of metrics, a status and the startup moment from a run's output.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/judge/run_judge.hpp"
#include "aerun/logread/generic_reader.hpp"
#include "aerun/record/run_record.hpp"

namespace aerun {

// The metric holding the startup time computed from timestamps written in the log.
inline constexpr std::string_view kLogStartupMetric = "log_startup_s";

// Turns a run's output, streamed chunk by chunk as it arrives, into metrics, series, a status and
// the startup moment. Patterns are compiled once (RE2) and shared with fresh() copies; a
// constructor throws InputError naming the metric ("metrics.iter_ms: invalid regex: ...", at the
// MetricSpec's loc) on a bad pattern or when a metric pattern does not have exactly one capture
// group. Lines end at '\n'; a trailing '\r' is dropped. Memory does not grow with the log except
// for series metrics and medians.
class Extractor {
 public:
  Extractor(const std::vector<MetricSpec>& metrics, const std::vector<StatusPattern>& status,
            const StartupSpec& startup, const CompletionSpec& completion = {});
  // The case's metrics, status, startup and completion patterns.
  explicit Extractor(const CaseSpec& spec);
  ~Extractor();
  Extractor(Extractor&&) noexcept;
  Extractor& operator=(Extractor&&) noexcept;
  Extractor(const Extractor&) = delete;
  Extractor& operator=(const Extractor&) = delete;

  // A new Extractor of the same patterns, as if just constructed: the patterns are compiled once
  // and shared, never changed (callable on several threads at once). For the parts of one log and
  // for the many logs of one case: compiling the megatron preset's patterns costs more than
  // reading a few MiB of log.
  Extractor fresh() const;

  // Feeds raw bytes (any split: partial lines are buffered).
  void feed(std::string_view chunk);
  // Flushes a final unterminated line.
  void finish();

  // Reading one log in parts (on several threads): each part, cut at a line end, is fed to its own
  // Extractor of the same patterns; those of the second part on are marked with
  // follows_earlier_part() before they are fed (they keep each metric's first `skip` values
  // aside: whether those are skipped depends on the parts before). first.append(std::move(next))
  // then takes in the part that follows, in order, as if `first` had read both: the same metrics
  // (sums are exact, so values do not depend on where the log was cut), series, status lines,
  // counters, line numbers and warnings. The part appended to must be a first part that ended at
  // a line end (std::logic_error otherwise).
  void follows_earlier_part();
  void append(Extractor&& next);

  // True once the startup pattern has matched a line (the runner timestamps the chunk in which it
  // flips).
  bool startup_seen() const;
  // False when some metric is flagged progress and none of them matched a line (the run logged no
  // iteration: status no_progress); true otherwise.
  bool progress_seen() const;
  // Lines that matched a progress metric so far, and the last of them (truncated to 300 bytes).
  long long progress_lines() const;
  const std::string& last_progress_text() const;
  long long last_progress_line() const;
  // The last completion counter line's done and planned counts ("iteration 120/ 1000"), when the
  // case (or a preset) has a counter pattern and a line matched it.
  std::optional<std::pair<double, double>> counter() const;
  // The in-log timestamps of StartupSpec::job_start / step_time (first parsable match each), as
  // Unix epoch seconds; nullopt when not configured or not seen.
  std::optional<double> job_start_time() const;
  std::optional<double> step_time() const;
  long long startup_line() const;  // 1-based line number, 0 if not seen

  // The first line matching a status pattern (status name, the whole line truncated to 500 bytes,
  // line number). When several patterns match that line, the first listed wins.
  struct StatusHit {
    std::string status;
    std::string line;
    long long line_no = 0;
  };
  const std::optional<StatusHit>& status() const;

  // What the log says for the judge (run_judge.hpp): the status lines that count (for each status,
  // its first line and the first line after each of the last progress lines, with how many
  // progress lines followed), progress, the last completion `end` line and `counter` values, and
  // the last non-empty line.
  void describe(RunEvidence& e) const;

  // Reduced metrics in spec order, then kLogStartupMetric (step_time - job_start_time, in s, from
  // the step line) when both timestamps were seen: only those with at least one value after skip
  // (Count reduces to the number of matches and is reported even when 0), each with its count and
  // the source line of the value chosen (first/last/min/max) or of the last value used
  // (mean/median/sum/count).
  std::vector<MetricValue> metrics() const;
  // For series:true metrics, every value after skip with its index.
  std::vector<MetricSeries> series() const;
  // What the log gave that could not be used, counted, one sentence each: lines longer than
  // 64 MiB (matched on their first 64 MiB only), and per metric the captures that were not a
  // finite decimal number (nan, inf, hex, out of double's range, text) — except for `reduce:
  // count`, which counts matching lines whatever they capture. Empty when all was used.
  std::vector<std::string> warnings() const;
  // Lines seen so far (complete lines, plus the final one after finish()).
  long long lines() const;

  // Whether the metrics, progress, end and counter of the generic reader (generic_reader.hpp)
  // stand for this log: no metric of the case or its presets matched any line. Every line is read
  // by it until one does.
  bool generic_used() const;
  // What the generic reader read, template by template (`aerun ingest --explain`).
  std::vector<TemplateExplained> explain_generic(size_t limit = 40) const;

 private:
  struct Patterns;
  struct Impl;
  explicit Extractor(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// An Extractor of spec's patterns, or nullopt when they do not compile (where each run then
// reports why through its own Extractor(spec)): the patterns a run loop or a job follower compiles
// once for all the runs of a case.
std::optional<Extractor> try_extractor(const CaseSpec& spec);

// Runs an Extractor over a whole file (streamed in 1 MiB chunks); throws SystemError if unreadable.
Extractor extract_file(const std::string& path, const std::vector<MetricSpec>& metrics,
                       const std::vector<StatusPattern>& status, const StartupSpec& startup,
                       const CompletionSpec& completion = {});

}  // namespace aerun
