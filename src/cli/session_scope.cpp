#include "cli/session_scope.hpp"

#include <algorithm>

#include <pwd.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cstdlib>
#include <ctime>

#include "aerun/case/case_loader.hpp"
#include "aerun/launch/container_line.hpp"
#include "aerun/probe/capture_environment.hpp"
#include "aerun/run/image_digest.hpp"
#include "aerun/run/provenance.hpp"
#include "aerun/sweep/sweep.hpp"
#include "aerun/util/calendar_time.hpp"
#include "aerun/util/error.hpp"

namespace aerun::cli {

namespace {

std::string env_or(const char* name, const std::string& fallback = {}) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

std::string user_name() {
  if (const char* u = std::getenv("USER"); u && *u) return u;
  if (const passwd* pw = ::getpwuid(::getuid())) return pw->pw_name;
  return std::to_string(::getuid());
}

std::string utc_stamp(double t) {
  return format_calendar_time(t, "%Y-%m-%dT%H:%M:%SZ");
}

}  // namespace

SessionInfo describe_session(const SessionArgs& a, const std::string& kind,
                             const std::vector<const CaseSpec*>& cases,
                             const std::string& scheduler, const std::string& workdir) {
  if (!a.session.empty() && a.session != "new")
    throw InputError(SourceLoc{}, "--session",
                     "'" + a.session + "': the only value is `new` (name a session with --label)");
  if (!a.label.empty() && !a.session.empty())
    throw InputError(SourceLoc{}, "--label", "give --label LABEL or --session new, not both");
  // One line of text: no control character (a newline, an escape sequence that would retitle
  // or clear the terminal of whoever reads `regress`: issue 40), and not `new`.
  const bool control = std::any_of(a.label.begin(), a.label.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
  if (control || a.label == "new")
    throw InputError(SourceLoc{}, "--label",
                     "a label is one line of text without control characters, and not `new` "
                     "(that is --session new)");
  SessionInfo s;
  s.started_at = wall_now();
  s.kind = kind;
  s.fresh = !a.label.empty() || a.session == "new";
  s.label = a.label.empty() ? utc_stamp(s.started_at) : a.label;
  s.named = !a.label.empty();
  s.aerun_version = AERUN_VERSION;
  s.host = host_name();
  s.cluster = env_or("AERUN_CLUSTER", env_or("SLURM_CLUSTER_NAME"));
  s.scheduler = scheduler;
  s.user = user_name();
  std::string commit = workdir.empty() ? "" : git_commit(workdir);
  if (!commit.empty()) {
    const std::string suffix = "-dirty";
    s.git_dirty = commit.size() > suffix.size() &&
                  commit.compare(commit.size() - suffix.size(), suffix.size(), suffix) == 0;
    if (*s.git_dirty) commit.resize(commit.size() - suffix.size());
  }
  s.git_commit = commit;
  for (const CaseSpec* c : cases) s.cases += fmt::format("{} {}\n", c->name, c->file_digest);
  return s;
}

ProbeCache probe_cache(const EnvVars& env) {
  const std::string* setting = find_var(env, "AERUN_ENV_CACHE");
  if (setting && *setting == "off") return {};
  const double max_age = setting && !setting->empty()
                             ? parse_duration(*setting, SourceLoc{}, "AERUN_ENV_CACHE")
                             : kDefaultProbeCacheAge;
  return ProbeCache(ProbeCache::default_path(env), max_age);
}

// The images a case's runs start inside (its image, or each point's: at most kMaxProbedImages),
// each with the words that run a program inside it.
constexpr size_t kMaxProbedImages = 16;
std::vector<ImageProbe> images_of(const CaseSpec& spec) {
  std::vector<ImageProbe> out;
  if (!spec.container) return out;
  std::vector<ContainerSpec> images;
  if (!spec.container->per_point) {
    images.push_back(*spec.container);
  } else {
    Sweep(spec).for_each([&](const ParamList& point) {
      ContainerSpec c = resolve_container(*spec.container, point);
      const bool seen = std::any_of(images.begin(), images.end(),
                                    [&](const ContainerSpec& i) { return i.image == c.image; });
      if (!seen) images.push_back(std::move(c));
      return images.size() < kMaxProbedImages;
    });
  }
  for (ContainerSpec& c : images) {
    ImageProbe p;
    p.image = c.image;
    p.digest = image_digest(c.runtime, c.image, spec.workdir);
    p.shell = c.shell;
    c.gpus = "none";  // the host's GPUs and driver are recorded from outside
    if (c.runtime == "pyxis") {
      // Pyxis starts an image only as a job step: inside an allocation, one task.
      ContainerContext on_srun;
      on_srun.launcher = "srun";
      if (std::getenv("SLURM_JOB_ID"))
        p.start = "srun --ntasks=1 --nodes=1 " + container_line(c, on_srun).options;
      else
        p.not_started = "Pyxis starts an image only as a job step (inside an allocation)";
    } else {
      p.start = container_line(c, ContainerContext{}).prefix;
    }
    out.push_back(std::move(p));
  }
  return out;
}

void record_environment(Store& store, SessionInfo& s, const CaseSpec& spec, const EnvVars& extra) {
  CaptureOptions o;
  o.env = process_environment();
  ProbeCache cache = probe_cache(o.env);
  o.cache = &cache;
  o.fingerprint_env = o.env;
  for (const auto& [name, value] : spec.env) set_var(o.fingerprint_env, name, value.text());
  set_vars(o.env, extra);
  for (const auto& [name, value] : spec.env) set_var(o.env, name, value.text());
  o.workdir = spec.workdir;
  o.git = !s.git_commit.empty();  // describe_session() asked git already
  o.shell = spec.shell;
  o.case_file = spec.file;
  o.case_digest = spec.file_digest;
  for (const auto& p : spec.provenance)
    o.commands.push_back(ProvenanceCommand{p.name, p.command, p.timeout_s});
  o.images = images_of(spec);
  s.env_record = store.save_env_record(capture_environment(o));
}

SessionScope::SessionScope(Store& store, SessionInfo info) : store_(store), info_(std::move(info)) {
  // A timestamp label taken already (two invocations in one second) gets the pid.
  if (!info_.named && store_.find_session(info_.label))
    info_.label += fmt::format("-{}", static_cast<long>(::getpid()));
  store_.open_session(info_);
}

SessionScope::~SessionScope() {
  try {
    store_.close_session(info_.id);
  } catch (const std::exception&) {
    // The end time is a convenience; the runs are stored.
  }
}

RunnerOptions runner_options(const SessionScope& session, const std::string& logs_dir, int jobs,
                             bool force, bool rerun_failed) {
  RunnerOptions o;
  o.session_id = session.id();
  o.fresh_session = session.fresh();
  o.jobs = jobs;
  o.force = force;
  o.rerun_failed = rerun_failed;
  o.logs_dir = logs_dir;
  return o;
}

}  // namespace aerun::cli
