// The tool probes of the environment record (compilers, MPI, GPU tools, Python and its packages),
// kept between invocations on one host and taken again as soon as anything they depend on
// changes: a case's first run starts without waiting for `pip freeze`, and a startup measurement
// is never perturbed by one running beside it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "aerun/record/env_record.hpp"
#include "aerun/util/env_vars.hpp"

namespace aerun {

// A tool probe: its record item name and the command that takes it.
struct ToolProbe {
  std::string name;
  std::vector<std::string> argv;
};

// What a probe's output depends on, digested: the host (name, boot, kernel, user), the
// environment (less the names that change with every login or job and that no tool reads: PWD,
// SHLVL, SSH_*, SLURM_*, PBS_*, AERUN_*, ...), the working directory, the tool as found in PATH
// (its content when small, else its inode, size and times) and, by tool, what else it reads:
// Python's site-packages and dist-packages folders (a `pip install` changes them), conda's
// conda-meta history, the NVIDIA driver's version. One object serves the probes of one record
// (what they share is read once).
class ProbeFingerprints {
 public:
  ProbeFingerprints(const EnvVars& env, std::string workdir);
  // "" when the probe is not to be reused: its tool is not in PATH, or is the shim of a version
  // manager other than pyenv or asdf. A pyenv or asdf shim (which picks its tool by version
  // files anywhere above the working directory) is followed through those files and the
  // versions installed.
  std::string of(const ToolProbe& probe);

 private:
  const EnvVars& env_;
  std::string workdir_;
  std::string common_;                         // host, user, workdir, environment
  std::map<std::string, std::string> inputs_;  // what a tool reads, by tool kind and path
};

// Whether a variable takes part in the fingerprint (see above).
bool fingerprinted_variable(const std::string& name);

// The kept probe results of this user on this host: a JSON file, readable by its owner only (a
// file owned by someone else, or open to others, is ignored). An item is reused for at most
// max_age_s (the CLI takes it from AERUN_ENV_CACHE: a duration, default 24h; "off": no cache).
class ProbeCache {
 public:
  // No cache (every probe taken each time).
  ProbeCache() = default;
  ProbeCache(std::string path, double max_age_s);
  // Where the file is: $AERUN_CACHE_DIR, else $XDG_CACHE_HOME/aerun, else $HOME/.cache/aerun,
  // then env-probes-<host>.json; "" when none of them is set.
  static std::string default_path(const EnvVars& env);

  bool enabled() const { return !path_.empty(); }
  const std::string& path() const { return path_; }
  // The kept item of this fingerprint, if taken less than max_age_s ago and still good to reuse
  // (a `pip freeze` that names an editable checkout is taken again: its commit moves).
  std::optional<EnvItem> find(const std::string& fingerprint) const;
  // Keeps a probe that worked (status "") for the next invocations.
  void keep(const std::string& fingerprint, const EnvItem& item);
  // Writes the file (atomically) when something was kept; items past max_age_s are dropped.
  // A cache that cannot be written is left as it was: the record is complete either way.
  void save();

 private:
  struct Entry {
    EnvItem item;
    double taken = 0;
  };
  void load();
  std::string path_;
  double max_age_s_ = 0;
  std::map<std::string, Entry> entries_;
  bool changed_ = false;
};

}  // namespace aerun
