// The directory of one run (case `rundir:`, docs/case-format.md#rundir): where it is, made ready
// before an attempt, cleaned after it as `keep` says. Local runs and batch jobs share these rules.
#pragma once

#include <string>

#include "aerun/case/case_spec.hpp"

namespace aerun {

// The run's directory, absolute: the case's `rundir.path` filled for this run ({case}, {key}: the
// key's first 16 hex digits, {repeat}, parameters; a value's '/' written %2F, a value "." or ".."
// as %2E), taken from the workdir when relative; by default <results_dir>/runs/{case}/{key}.
std::string run_directory(const CaseSpec& spec, const ParamList& params, const std::string& key,
                          int repeat, const std::string& results_dir);

// The log (and, beside it, the stamps) of an attempt in a run directory: run-a<N>.log.
std::string run_directory_log(const std::string& dir, int attempt);

// Made ready for an attempt: created (with a marker file, .aerun-rundir), emptied of everything
// but earlier attempts' logs and stamps, then the case's `copy:` entries copied in and its
// `link:` entries linked (sources relative to the workdir). Throws SystemError naming what failed;
// refuses (without touching it) a folder that holds the workdir, or one aerun did not make that is
// not empty.
void prepare_run_directory(const CaseSpec& spec, const std::string& dir);

// After the attempt, by `keep`: all — nothing removed; failed — emptied (logs and stamps kept)
// when the run is ok; none — emptied. Returns whether it emptied it. Never throws.
bool clean_run_directory(const RundirSpec& rundir, const std::string& dir,
                         const std::string& status);

}  // namespace aerun
