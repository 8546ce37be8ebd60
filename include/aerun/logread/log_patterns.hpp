// What a log is read with: metric patterns, status patterns, the run's life (ends, counters,
// restarts, signatures) and its startup lines. A case's own and the presets' are the same types.
#pragma once

#include <string>
#include <vector>

#include "aerun/util/error.hpp"

namespace aerun {

// How many values of a metric become one number.
enum class Reduction { First, Last, Mean, Median, Min, Max, Count, Sum };

// One named extraction from a run's output: a regex with exactly one capture group.
struct MetricSpec {
  std::string name;
  std::string pattern;  // RE2 syntax, searched in each line (unanchored)
  Reduction reduce = Reduction::Last;
  int skip = 0;         // warm-up matches dropped before reducing
  std::string unit;     // free text, e.g. "ms", "samples/s"
  double scale = 1.0;   // applied to every captured value (unit conversion)
  bool series = false;  // keep every value with its index (loss curves)
  SourceLoc loc;
  // Further patterns for the same quantity (e.g. "(ms):" and "(s):" wordings), each with its own
  // scale. A line gives a metric at most one value: the first pattern, in order (`pattern`, then
  // these), that matches it.
  struct Alternative {
    std::string pattern;
    double scale = 1.0;
  };
  std::vector<Alternative> alternatives;
  bool progress = false;  // a match shows training progressed (a run without any: no_progress)
  std::string better;     // "higher" | "lower" | "" (inferred from the unit and name: regress.hpp)
};

// A line pattern that marks a run as failed and why (e.g. "CUDA out of memory" -> oom).
struct StatusPattern {
  std::string pattern;  // RE2
  std::string status;   // e.g. "oom", "failed", "timeout"
  SourceLoc loc;
};

// A run's life as its log tells it, beyond metrics and status lines. Positive evidence that it
// finished: when the exit code is unknown (an ingested log, a batch job whose stamps lack it) a
// run is `ok` only if an `end` line was seen or the last `counter` line says the planned count was
// reached; otherwise `incomplete`. Where a new attempt starts in the same log (`restart`: the last
// attempt decides). And which format wrote it (`signatures`, from the presets): a log with none of
// them and no progress line is `unknown_format`, not `no_progress`.
struct CompletionSpec {
  std::vector<std::string> end;      // RE2: a line only a finished run prints
  std::vector<std::string> counter;  // RE2, two captures: done and planned ("iteration 49/ 1000")
  std::vector<std::string> restart;  // RE2: a line where a new attempt of the run starts
  std::vector<std::string> signatures;  // RE2: a line only the presets' formats print
  std::string formats;                  // those formats' names, for reasons ("megatron, ezpz")
  // `--preset generic`: a log in which the generic reader found no progress shape (and no
  // signature, progress, end or counter line) is unknown_format.
  bool shape_required = false;
  SourceLoc loc;
};

// When training really started: the first-step pattern, seen live in the stream. Optionally also
// from timestamps written in the log itself (the `log_startup_s` metric, and the startup of an
// ingested run): job_start's capture and step_time's capture (first matches), parsed with their
// formats (see log_time.hpp), in time zone tz.
struct StartupSpec {
  std::string first_step;  // RE2; empty = no startup measurement
  SourceLoc loc;
  std::string job_start;         // RE2 with one capture group: the job-start timestamp
  std::string job_start_format;  // e.g. "%Y-%m-%d-%H%M%S"
  std::string step_time;         // RE2 with one capture group: the first step's timestamp
  std::string step_time_format;  // e.g. "%Y-%m-%d %H:%M:%S%f"
  std::string tz = "UTC";        // "UTC" or a fixed offset "+HH:MM" / "-HHMM"
};

}  // namespace aerun
