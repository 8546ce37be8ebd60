// Reading case files: YAML text -> a validated CaseSpec, plus the small parsers it is built on.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/util/error.hpp"

namespace aerun {

// The largest case file read (the shipped ones are under 12 KB): 1 MiB.
inline constexpr size_t kMaxCaseFileBytes = 1u << 20;

// What the command line sets over a case file's keys, applied as the file is read (before its
// checks, which then name the flag): `aerun case --stall 10m --first-step 20m`; "0" turns a
// watchdog off, "" leaves the file's.
struct CaseOverrides {
  std::string stall, first_step;
  // `--container IMAGE`, `--container-runtime R`, `--no-container` (docs/containers.md).
  std::string container_image, container_runtime;
  bool no_container = false;
  // The system the case runs on (`--system`, or the one recognised): the case's own values for
  // it (`systems: {NAME: {...}}`) are read over its keys. "" reads none of them.
  std::string system;
  // Set while the other systems' values are read to check them (parse_case reads the file once
  // for each system it pins values for): they are not checked again.
  bool checking_systems = false;
};

// Reads and validates a case file; throws InputError ("file:line:col: key: message") on any bad
// input. CaseSpec::file is the absolute path; a relative workdir resolves against its folder.
CaseSpec load_case(const std::string& path, const CaseOverrides& overrides = {});

// Same, from text; `file` is used in messages and CaseSpec::file; relative workdir resolves
// against base_dir.
CaseSpec parse_case(const std::string& yaml_text, const std::string& file,
                    const std::string& base_dir, const CaseOverrides& overrides = {});

// Parses a duration in seconds: "90" (seconds), "90s", "10m", "2h", "1d", "1h30m", "1:30:00",
// "30:00". Throws InputError at loc naming key.
double parse_duration(const std::string& text, const SourceLoc& loc, const std::string& key);

// The watchdogs (stall, first_step) need a progress metric and a startup pattern: InputError at
// their key otherwise.
void check_watchdogs(const CaseSpec& spec);

// Nearest valid key by edit distance (for "did you mean"), or "" when nothing is close.
std::string nearest_key(const std::string& key, const std::vector<std::string>& valid);

// The one rule for case names, everywhere (case files, `ingest --case NAME`): [A-Za-z0-9_.-]+,
// not "." or ".." (a case name becomes a folder of logs). case_name_problem says why not, with
// control characters shown escaped.
bool valid_case_name(const std::string& name);

// The case's version (CaseSpec::version): 16 hex digits of a SHA-256 over its command, shell, env
// and launcher counts — what decides how a point runs.
std::string case_version(const CaseSpec& spec);
std::string case_name_problem(const std::string& name);

}  // namespace aerun
