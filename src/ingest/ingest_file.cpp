// One log file -> the run it describes (extraction and digest in a single streaming pass).
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "aerun/extract/extractor.hpp"
#include "aerun/ingest/ingest.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/file_chunks.hpp"
#include "aerun/util/sha256.hpp"

namespace aerun {

std::string ingest_key(const std::string& case_name, const std::string& absolute_path) {
  return sha256_hex(case_name + "\n" + absolute_path);
}

RunRecord ingest_file(const CaseSpec& spec, const std::string& path, const ParamList& params,
                      bool assume_complete) {
  namespace fs = std::filesystem;
  const std::string abs = fs::absolute(path).lexically_normal().string();
  Extractor ex(spec);
  Sha256 digest;
  const long long size = for_each_chunk(abs, [&](std::string_view chunk) {
    ex.feed(chunk);
    digest.update(chunk);
  });
  ex.finish();
  struct stat st {};
  if (::stat(abs.c_str(), &st) != 0)
    throw SystemError("cannot stat " + abs + ": " + std::strerror(errno));

  RunRecord r;
  r.key = ingest_key(spec.name, abs);
  r.case_name = spec.name;
  r.case_file = spec.file;
  r.workdir = fs::path(abs).parent_path().string();
  r.params = params;
  r.aerun_version = AERUN_VERSION;
  r.log_path = abs;
  r.log_size = size;
  r.log_sha256 = digest.hex();
  r.metrics = ex.metrics();
  r.series = ex.series();
  r.warnings = ex.warnings();
  r.launch_time = ex.job_start_time();
  r.startup_time = ex.step_time();
  if (r.launch_time && r.startup_time) r.startup_s = *r.startup_time - *r.launch_time;
  const auto last = last_log_time(abs, spec.startup);
  if (last && (!r.launch_time || *last > *r.launch_time)) {
    r.end_time = last;
    if (r.launch_time) r.wall_s = *last - *r.launch_time;
  } else {
    r.end_time = static_cast<double>(st.st_mtim.tv_sec) + st.st_mtim.tv_nsec / 1e9;
  }
  RunEvidence ev;  // exit code unknown: ok needs positive evidence of completion
  ex.describe(ev);
  ev.assume_complete = assume_complete;
  const Verdict v = judge_run(ev);
  r.status = v.status;
  r.reason = v.reason;
  return r;
}

}  // namespace aerun
