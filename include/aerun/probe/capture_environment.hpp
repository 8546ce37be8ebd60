// Takes the environment record of a session: what its runs' commands will run with.
#pragma once

#include <string>
#include <vector>

#include "aerun/probe/probe_cache.hpp"
#include "aerun/record/env_record.hpp"
#include "aerun/util/env_vars.hpp"

namespace aerun {

// A case's own `provenance:` command: run with the shell, its output recorded under its name.
struct ProvenanceCommand {
  std::string name;
  std::string command;
  double timeout_s = 30;
};

// An image the runs start inside (case `container:`): its tools are recorded from inside it.
struct ImageProbe {
  std::string image;   // as the case names it
  std::string digest;  // its identity (image_digest.hpp), "" when unknown
  // Shell-ready words that run a program inside the image (container_line.hpp's WholeCommand
  // prefix), and the image's shell.
  std::string start;  // "": not started here, for the reason in not_started
  std::string not_started;
  std::string shell = "/bin/sh";
  double timeout_s = 300;  // a first start may pull or convert the image
};

// Where and with what the runs' commands start. Tools (compilers, MPI, GPU tools, Python) are
// looked up in this environment's PATH and run in it, in workdir, each within tool_timeout_s.
struct CaptureOptions {
  EnvVars env;          // the environment a run's command starts from
  std::string workdir;  // its working directory (git state is read there)
  std::string shell = "bash";
  std::string case_file;    // recorded as "case file" (its text); "" for none
  std::string case_digest;  // SHA-256 the case was loaded with: a change since is said
  std::vector<ProvenanceCommand> commands;
  double tool_timeout_s = 20;
  // Whether workdir may be in a git repository; false (the session found no commit there) skips
  // the git items and their `git rev-parse`.
  bool git = true;
  // Tool probes kept from earlier invocations (probe_cache.hpp); null: every probe is taken.
  // Their fingerprints read fingerprint_env (the environment less aerun's own additions: its
  // rendezvous port changes every time), else env.
  ProbeCache* cache = nullptr;
  EnvVars fingerprint_env;
  size_t max_item_bytes = 256u << 10;  // longer outputs (a big git diff) are cut, and say so
  // The images the runs start inside: each started once, its tools probed from inside.
  std::vector<ImageProbe> images;
};

// The record: os, kernel, cpu, memory, environment (redacted), modules, git, git diff, case
// file, then each tool found (cc/c++/nvcc/mpicc --version, mpiexec/mpirun --version,
// nvidia-smi, rocm-smi, xpu-smi, python --version, pip freeze, conda list) and each provenance
// command, all commands run at once (a tool probe kept in o.cache is not run again). With
// images, each image's items follow, taken inside it by one start of the image: "image" (the
// image, its digest, how the start ended), then "image: os", "image: cc --version", ...,
// "image: python --version", "image: pip freeze" for the tools the image has (with several
// images, "image 2", "image 2: pip freeze", ...; kept in o.cache under the image's digest). A
// command that fails or times out is recorded with its status; nothing here throws for it.
EnvRecord capture_environment(const CaptureOptions& o);

// Names whose values are never recorded: containing TOKEN, SECRET, PASSWORD, PASSWD, KEY,
// CREDENTIAL or AUTH, in any case (AWS_SECRET_ACCESS_KEY, HF_TOKEN, SSH_AUTH_SOCK, ...).
bool secret_variable(const std::string& name);
// "NAME=value" lines, sorted by name, secret values replaced by `<redacted sha256:1a2b3c4d>` and a
// password in a URL likewise (util/secret_text.hpp), a newline inside a value written as \\n
// (exported shell functions).
std::string redacted_environment(const EnvVars& env);

}  // namespace aerun
