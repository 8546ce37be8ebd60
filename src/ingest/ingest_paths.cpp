// Walking the given files and folders and storing each log as a run, once per content.
#include <sys/statfs.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "aerun/case/apply_presets.hpp"
#include "aerun/logread/presets.hpp"
#include "aerun/extract/extractor.hpp"
#include "aerun/ingest/ingest.hpp"
#include "aerun/record/system_key.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/file_chunks.hpp"
#include "aerun/util/sha256.hpp"

namespace aerun {

namespace fs = std::filesystem;

namespace {

// Whether p lies on a kernel's file system (procfs, sysfs, debugfs, tracefs, securityfs,
// configfs): its "regular files" are interfaces, some of which block forever when read
// (/proc/kmsg) or never end (issue 28).
bool kernel_interface(const std::string& p) {
  struct statfs s {};
  if (::statfs(p.c_str(), &s) != 0) return false;
  switch (static_cast<unsigned long>(s.f_type)) {
    case 0x9fa0:      // PROC_SUPER_MAGIC
    case 0x62656572:  // SYSFS_MAGIC
    case 0x64626720:  // DEBUGFS_MAGIC
    case 0x74726163:  // TRACEFS_MAGIC
    case 0x73636673:  // SECURITYFS_MAGIC
    case 0x62656570:  // CONFIGFS_MAGIC
      return true;
    default:
      return false;
  }
}

// Every regular file under the paths (a file stands for itself), absolute, in natural order.
// What p is, when ingest takes it (a file or a folder); InputError naming it otherwise.
fs::file_status checked_path(const std::string& p) {
  std::error_code ec;
  const fs::file_status st = fs::status(p, ec);
  if (ec || !fs::exists(st)) throw InputError(SourceLoc{}, "PATH", "no such file or folder: " + p);
  if (kernel_interface(p))
    throw InputError(SourceLoc{}, "PATH",
                     "a kernel interface (/proc, /sys, ...), not a log: " + p +
                         " (copy what you need into a file and ingest that)");
  if (!fs::is_directory(st) && !fs::is_regular_file(st))  // /dev/zero, a FIFO: reading never ends
    throw InputError(SourceLoc{}, "PATH", "not a regular file (a device, FIFO or socket): " + p);
  return st;
}

std::vector<std::string> collect_files(const std::vector<std::string>& paths,
                                       std::vector<std::string>* kernel_links = nullptr) {
  std::vector<std::string> files;
  for (const auto& p : paths) {
    std::error_code ec;
    const fs::file_status st = checked_path(p);
    if (fs::is_directory(st)) {
      for (fs::recursive_directory_iterator
               it(p, fs::directory_options::skip_permission_denied, ec),
           end;
           !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        // A link in the folder to a kernel interface (/proc/self/environ) is no log (issue 40).
        if (it->is_symlink(ec) && kernel_interface(it->path().string())) {
          if (kernel_links)
            kernel_links->push_back(fs::absolute(it->path()).lexically_normal().string());
          continue;
        }
        files.push_back(fs::absolute(it->path()).lexically_normal().string());
      }
      if (ec) throw SystemError("cannot walk " + p + ": " + ec.message());
    } else {
      files.push_back(fs::absolute(p).lexically_normal().string());
    }
  }
  std::sort(files.begin(), files.end(), natural_less);
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

// The files of the store (the database and SQLite's -wal, -shm and -journal beside it), canonical:
// a folder being ingested may hold them (results/ holds both the default store and logs).
std::set<std::string> own_files(const Store& store) {
  std::set<std::string> out;
  if (store.path().empty() || store.path() == ":memory:") return out;
  std::error_code ec;
  const std::string db = fs::weakly_canonical(store.path(), ec).string();
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) out.insert(db + suffix);
  return out;
}

// The case as a file of these formats reads it (`--preset auto`), compiled once per set of
// formats and shared by the threads.
class AutoSpecs {
 public:
  explicit AutoSpecs(const CaseSpec& base) : base_(base) {
    // The base vocabulary is added again after the presets' own patterns.
    std::erase_if(base_.status,
                  [](const StatusPattern& s) { return s.loc.file == "preset status@1"; });
    base_.completion.restart.clear();
  }

  // The spec and compiled patterns for these formats.
  std::pair<const CaseSpec*, const Extractor*> get(const std::vector<std::string>& presets) {
    std::string key;
    for (const auto& p : presets) key += p + ",";
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = specs_.find(key);
    if (it == specs_.end()) {
      Entry e;
      e.spec = base_;
      e.spec.presets = presets;
      apply_presets(e.spec, SourceLoc{"--preset auto", 0, 0});
      if (presets.empty()) {  // none known: its signatures are all the formats'
        std::string names;
        for (const auto& name : PresetDetector::candidates()) {
          for (const auto& s : find_preset(name)->completion.signatures)
            e.spec.completion.signatures.push_back(s);
          names += (names.empty() ? "" : ", ") + name;
        }
        e.spec.completion.formats = "auto: none of " + names;
      }
      e.blank = std::make_unique<Extractor>(e.spec);
      it = specs_.emplace(key, std::move(e)).first;
    }
    return {&it->second.spec, it->second.blank.get()};
  }

 private:
  struct Entry {
    CaseSpec spec;
    std::unique_ptr<Extractor> blank;
  };
  CaseSpec base_;
  std::mutex mutex_;
  std::map<std::string, Entry> specs_;
};

// Files read, stored and let go together (their runs with metrics and series are held until
// stored).
constexpr size_t kIngestBatch = 1024;

// One file's way through ingest_paths.
struct Work {
  IngestedFile file;
  ParamList params;
  std::optional<RunRecord> prev;  // its stored run
  bool todo = false;              // the name fits: read it
  bool unchanged = false;         // same size, digest and parameters as prev
  std::optional<RunRecord> run;   // read and extracted
  std::exception_ptr error;       // reading it failed
};

}  // namespace

ExplainedLog explain_log(const CaseSpec& spec, const std::string& path, bool auto_presets) {
  ExplainedLog out;
  const CaseSpec* used = &spec;
  std::optional<AutoSpecs> auto_specs;
  std::unique_ptr<Extractor> own;
  const Extractor* blank = nullptr;
  if (auto_presets) {
    const std::vector<std::string> found = PresetDetector().detect(path);
    for (const auto& p : found) out.presets += (out.presets.empty() ? "" : ",") + p;
    auto_specs.emplace(spec);
    std::tie(used, blank) = auto_specs->get(found);
  } else {
    own = std::make_unique<Extractor>(spec);
    blank = own.get();
  }
  Extractor ex = blank->fresh();
  for_each_chunk(path, [&](std::string_view chunk) { ex.feed(chunk); });
  ex.finish();
  out.generic = ex.generic_used();
  out.templates = ex.explain_generic();
  out.run = ingest_file(*used, *blank, path, {}, false, 1);
  return out;
}

void check_log_paths(const std::vector<std::string>& paths) {
  for (const auto& p : paths) checked_path(p);
}

void ingest_paths(Store& store, const CaseSpec& spec, const std::vector<std::string>& paths,
                  const IngestOptions& opts,
                  const std::function<void(const IngestedFile&)>& on_file) {
  std::optional<NameTemplate> tmpl;
  if (!opts.name_template.empty()) tmpl.emplace(opts.name_template);
  const auto store_files = own_files(store);
  std::vector<std::string> kernel_links;
  const std::vector<std::string> files = collect_files(paths, &kernel_links);
  for (const std::string& link : kernel_links) {
    IngestedFile f;
    f.path = link;
    f.why = "a link to a kernel interface (/proc, /sys, ...), not a log";
    on_file(f);
  }
  const Extractor blank(spec);  // the case's patterns, compiled once for every file
  std::optional<PresetDetector> detector;
  std::optional<AutoSpecs> auto_specs;
  if (opts.auto_presets) {
    detector.emplace();
    auto_specs.emplace(spec);
  }
  // The files go through in batches: what a batch read (runs, metrics, series) is stored and let
  // go before the next is read, so memory stays flat however many files there are (issue 28: a
  // million small logs took 3.3 GB when every run was kept to the end).
  size_t stored = 0, read_total = 0;
  for (size_t from = 0; from < files.size(); from += kIngestBatch) {
    const size_t to = std::min(files.size(), from + kIngestBatch);
    // 1. In order, on this thread: each file's parameters and its stored run, if any.
    std::vector<Work> work;
    work.reserve(to - from);
    for (size_t i = from; i < to; ++i) {
      const std::string& file = files[i];
      Work w;
      w.file.path = file;
      std::error_code ec;
      if (store_files.count(fs::weakly_canonical(file, ec).string())) {
        w.file.why = "the results store itself";
        work.push_back(std::move(w));
        continue;
      }
      if (tmpl) {
        auto p = tmpl->match(file);
        if (!p) {
          w.file.why = "name does not match the template '" + opts.name_template + "'";
          work.push_back(std::move(w));
          continue;
        }
        w.params = std::move(*p);
      }
      // The case's fixed parameters (one value, not swept) hold for every log the name does not
      // contradict: derived columns that use them (seq, vocab, gpus) work on ingested runs too.
      for (const ParamSpec& ps : spec.params)
        if (!ps.is_list && ps.values.size() == 1 && !find_param(w.params, ps.name))
          w.params.push_back({ps.name, ps.values.front()});
      w.file.key = key_on_system(ingest_key(spec.name, file), opts.system);
      w.prev = store.find_by_key(w.file.key);
      w.todo = true;
      work.push_back(std::move(w));
    }
    // 2. On opts.jobs threads: read the files (digest, extraction); nothing touches the store.
    // Fewer files than threads: each file is read on its share of them (a single big log on all).
    const size_t todo = static_cast<size_t>(
        std::count_if(work.begin(), work.end(), [](const Work& w) { return w.todo; }));
    const unsigned per_file = std::max(
        1u, static_cast<unsigned>(std::max<size_t>(opts.jobs, 1) / std::max<size_t>(todo, 1)));
    std::atomic<size_t> next{0}, read{0};
    const auto worker = [&](bool reports) {
      for (size_t k; (k = next++) < work.size();) {
        if (reports && opts.progress) opts.progress("read", read_total + read.load(), files.size());
        Work& w = work[k];
        if (!w.todo) continue;
        try {
          std::error_code ec;
          const auto size = static_cast<long long>(fs::file_size(w.file.path, ec));
          if (w.prev && !ec && w.prev->log_size == size && w.prev->params == w.params &&
              w.prev->log_sha256 == sha256_file(w.file.path))
            w.unchanged = true;
          else if (detector) {
            const std::vector<std::string> found = detector->detect(w.file.path);
            for (const auto& p : found) w.file.presets += (w.file.presets.empty() ? "" : ",") + p;
            const auto [s, b] = auto_specs->get(found);
            w.run = ingest_file(*s, *b, w.file.path, w.params, opts.assume_complete, per_file);
          } else {
            w.run = ingest_file(spec, blank, w.file.path, w.params, opts.assume_complete, per_file);
          }
        } catch (...) {
          w.error = std::current_exception();
        }
        ++read;
      }
    };
    const size_t threads = std::clamp<size_t>(opts.jobs, 1, std::max<size_t>(work.size(), 1));
    {
      std::vector<std::jthread> pool;
      for (size_t t = 1; t < threads; ++t) pool.emplace_back(worker, false);
      worker(true);  // this thread reports the progress
    }
    read_total += work.size();
    // 3. In order, on this thread: store each run (one transaction each); the first file that
    // could not be read stops the walk there, as when files are taken one by one.
    for (Work& w : work) {
      if (opts.progress) opts.progress("store", stored, files.size());
      ++stored;
      if (w.error) std::rethrow_exception(w.error);
      IngestedFile& f = w.file;
      if (!w.todo) {
        on_file(f);
        continue;
      }
      if (w.unchanged) {
        f.action = IngestedFile::Action::Unchanged;
        f.status = w.prev->status;
        on_file(f);
        continue;
      }
      RunRecord& r = *w.run;
      r.session_id = opts.session_id;
      r.key = w.file.key;
      r.system = opts.system;
      // Decided again where it is written: another ingest may have stored this log meanwhile.
      switch (store.store_ingested(r)) {
        case Store::Ingested::Added:
          f.action = IngestedFile::Action::Added;
          break;
        case Store::Ingested::Updated:
          f.action = IngestedFile::Action::Updated;
          break;
        case Store::Ingested::Unchanged:
          f.action = IngestedFile::Action::Unchanged;
          break;
      }
      f.status = r.status;
      on_file(f);
      w.run.reset();
    }
  }
}

std::vector<IngestedFile> ingest_paths(Store& store, const CaseSpec& spec,
                                       const std::vector<std::string>& paths,
                                       const IngestOptions& opts) {
  std::vector<IngestedFile> out;
  ingest_paths(store, spec, paths, opts, [&](const IngestedFile& f) { out.push_back(f); });
  return out;
}

}  // namespace aerun
