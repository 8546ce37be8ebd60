// Ingest: logs of runs aerun did not launch, stored as runs of a case (metrics, status, startup),
// their parameters read from the file names.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/logread/generic_reader.hpp"
#include "aerun/record/run_record.hpp"
#include "aerun/store/store.hpp"
#include "aerun/util/value.hpp"

namespace re2 {
class RE2;
}

namespace aerun {

class Extractor;

// A file-name template such as
// "log_{method}_l-{layers}_hs-{hidden}_bs-{batch}_ws-{window}_{date}.txt": each {name} captures one
// or more characters (as few as the literal text after it allows), the text between must match
// exactly ({{ and }} are literal braces), and the whole name must match. Captured values are typed
// like case values ("32" -> 32). A template with '/' is matched against as many trailing path
// components as it has; otherwise against the file name.
class NameTemplate {
 public:
  // Throws InputError (key "--pattern") for an empty template, a bad or repeated {name}.
  explicit NameTemplate(const std::string& text);
  ~NameTemplate();
  NameTemplate(NameTemplate&&) noexcept;
  NameTemplate& operator=(NameTemplate&&) noexcept;

  // The parameters a path's name gives, in template order; nullopt when it does not match.
  std::optional<ParamList> match(const std::string& path) const;
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::string text_;
  std::vector<std::string> names_;
  size_t components_ = 1;
  std::unique_ptr<re2::RE2> re_;
};

// What happened to one file.
struct IngestedFile {
  enum class Action { Added, Updated, Unchanged, Skipped };
  std::string path;  // absolute
  Action action = Action::Skipped;
  std::string key;      // empty when skipped
  std::string status;   // of the stored run
  std::string why;      // skipped: the reason
  std::string presets;  // with IngestOptions::auto_presets: the formats found ("" for none)
};

struct IngestOptions {
  std::string name_template;     // empty: every file, no parameters
  unsigned jobs = 1;             // files read and extracted at once (stored one by one, in order)
  bool assume_complete = false;  // the logs are of finished runs (excerpts): see RunEvidence
  // `--preset auto`: each file is read with the presets PresetDetector finds in it (added to the
  // case's own patterns); a file of no known format is read with the base vocabulary only and is
  // `unknown_format` unless a status line says more.
  bool auto_presets = false;
  long long session_id = 0;  // the session the runs are stored in
  // The system the logs' runs ran on ("" : none named; docs/systems.md): stored with each run and
  // part of its key (key_on_system), so one log folder ingested as two systems' is two runs each.
  std::string system;
  // Called on the calling thread as files are read (phase "read") and stored ("store"): how many
  // of how many so far. Optional.
  std::function<void(const char* phase, size_t done, size_t total)> progress;
};

// The run a log file describes: key = sha256(case name, '\n', absolute path); status from the
// judge (run_judge.hpp) with the exit code unknown: ok only with positive evidence of completion;
// launch and first-step times from in-log timestamps when the case's startup defines them
// (startup_s = their difference); end time = the last timestamp in the log (last_log_time) when
// it is later than the job-start stamp, else the file's modification time; wall_s = end - launch
// only when both come from the log; log path = the file itself.
// assume_complete: the user vouches the run finished (RunEvidence::assume_complete).
// threads > 1: a log over 16 MiB is read on that many threads, cut at line ends into parts of
// about size / (4 x threads) (16 to 256 MiB, or $AERUN_INGEST_SEGMENT_BYTES), extracted apart and
// appended in order (Extractor::append: the record is the same whatever the cut), while the calling
// thread computes the digest and then helps. The file's size at the start bounds what is read.
RunRecord ingest_file(const CaseSpec& spec, const std::string& path, const ParamList& params,
                      bool assume_complete = false, unsigned threads = 1);
// The same with the case's patterns compiled beforehand: blank is a new Extractor of spec (each
// file and each part is read by a fresh() copy of it, so many logs compile the patterns once).
// size_seen: the file's size as the caller saw it (nullopt: as it is now). A file cut shorter
// than that while its parts are read (truncated, rotated in place) is a SystemError naming it;
// nothing of it is returned.
RunRecord ingest_file(const CaseSpec& spec, const Extractor& blank, const std::string& path,
                      const ParamList& params, bool assume_complete = false, unsigned threads = 1,
                      std::optional<long long> size_seen = std::nullopt);

// One log read for `aerun ingest --explain`: the run it gives (nothing stored), the formats
// `--preset auto` found in it, whether the generic reader read it, and what it read, template by
// template.
struct ExplainedLog {
  RunRecord run;
  std::string presets;
  bool generic = false;
  std::vector<TemplateExplained> templates;
};
ExplainedLog explain_log(const CaseSpec& spec, const std::string& path, bool auto_presets);

// The last timestamp in the log's last 64 KiB: a line matching the case's startup step_time
// pattern (read with its format), else a leading "YYYY-MM-DD HH:MM:SS[.frac]" (also with
// 'T' or in brackets), in the startup's time zone. nullopt when there is none.
std::optional<double> last_log_time(const std::string& path, const StartupSpec& startup);

// The store key of an ingested file.
std::string ingest_key(const std::string& case_name, const std::string& absolute_path);

// Throws InputError naming the first path ingest_paths would refuse (none such, a kernel
// interface such as /proc, a device, FIFO or socket), before anything is opened or created.
void check_log_paths(const std::vector<std::string>& paths);

// Walks files and folders (recursively, in natural order) and stores each log as a run of spec.
// A file whose size and sha256 match its stored run is left alone; a changed one updates its run
// (attempt + 1). A file whose name does not fit the template is skipped. Files are read and
// extracted on opts.jobs threads and stored on the caller's, one transaction each, in natural
// order: the store and the result are the same whatever the number of jobs. A file that cannot be
// read throws after the files before it are stored. Throws InputError for a path that does not
// exist.
std::vector<IngestedFile> ingest_paths(Store& store, const CaseSpec& spec,
                                       const std::vector<std::string>& paths,
                                       const IngestOptions& opts);
// The same, each file handed to on_file (on the calling thread, in order) as soon as it is stored
// or skipped; files are read and stored in batches, so memory stays flat however many there are.
void ingest_paths(Store& store, const CaseSpec& spec, const std::vector<std::string>& paths,
                  const IngestOptions& opts,
                  const std::function<void(const IngestedFile&)>& on_file);

}  // namespace aerun

namespace aerun {

// `--preset auto`: which built-in presets wrote a log, from its first 256 KiB (cut at a line end):
// every format whose signature or progress lines appear there (docs/presets.md, "Auto-detection").
// Compiled once; detect() may be called on several threads at once.
class PresetDetector {
 public:
  PresetDetector();
  ~PresetDetector();
  PresetDetector(const PresetDetector&) = delete;
  PresetDetector& operator=(const PresetDetector&) = delete;

  // The names of the presets found, in the order of candidates(); empty when none is. Throws
  // SystemError when the file cannot be read.
  std::vector<std::string> detect(const std::string& path) const;
  // The formats tried, most specific first (the order a log with several gets them in).
  static const std::vector<std::string>& candidates();

 private:
  std::unique_ptr<Extractor> signatures_;
};

}  // namespace aerun
