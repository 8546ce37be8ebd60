// Walking the given files and folders and storing each log as a run, once per content.
#include <algorithm>
#include <filesystem>

#include "aerun/error.hpp"
#include "aerun/ingest.hpp"
#include "aerun/sha256.hpp"

namespace aerun {

namespace fs = std::filesystem;

namespace {

// Every regular file under the paths (a file stands for itself), absolute, in natural order.
std::vector<std::string> collect_files(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const auto& p : paths) {
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    if (ec || !fs::exists(st))
      throw InputError(SourceLoc{}, "PATH", "no such file or folder: " + p);
    if (fs::is_directory(st)) {
      for (fs::recursive_directory_iterator
               it(p, fs::directory_options::skip_permission_denied, ec),
           end;
           !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec))
          files.push_back(fs::absolute(it->path()).lexically_normal().string());
      if (ec) throw SystemError("cannot walk " + p + ": " + ec.message());
    } else {
      files.push_back(fs::absolute(p).lexically_normal().string());
    }
  }
  std::sort(files.begin(), files.end(), natural_less);
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

}  // namespace

std::vector<IngestedFile> ingest_paths(Store& store, const CaseSpec& spec,
                                       const std::vector<std::string>& paths,
                                       const IngestOptions& opts) {
  std::optional<NameTemplate> tmpl;
  if (!opts.name_template.empty()) tmpl.emplace(opts.name_template);
  std::vector<IngestedFile> out;
  for (const auto& file : collect_files(paths)) {
    IngestedFile f;
    f.path = file;
    ParamList params;
    if (tmpl) {
      auto p = tmpl->match(file);
      if (!p) {
        f.why = "name does not match the template '" + opts.name_template + "'";
        out.push_back(std::move(f));
        continue;
      }
      params = std::move(*p);
    }
    f.key = ingest_key(spec.name, file);
    const auto prev = store.find_by_key(f.key);
    std::error_code ec;
    const auto size = static_cast<long long>(fs::file_size(file, ec));
    if (prev && !ec && prev->log_size == size && prev->log_sha256 == sha256_file(file) &&
        prev->params == params) {
      f.action = IngestedFile::Action::Unchanged;
      f.status = prev->status;
      out.push_back(std::move(f));
      continue;
    }
    RunRecord r = ingest_file(spec, file, params);
    if (prev) {
      r.attempt = prev->attempt + 1;
      store.begin_run(r);  // bumps the attempt, clears the old results
      f.action = IngestedFile::Action::Updated;
    } else {
      f.action = IngestedFile::Action::Added;
    }
    store.finish_run(r);
    f.status = r.status;
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace aerun
