// One log file -> the run it describes: extraction and digest, a big log read on several threads.
#include <sys/stat.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <optional>
#include <thread>
#include <vector>

#include "aerun/extract/extractor.hpp"
#include "aerun/ingest/ingest.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/file_chunks.hpp"
#include "aerun/util/sha256.hpp"
#include "aerun/util/shell_quote.hpp"

namespace aerun {

std::string ingest_key(const std::string& case_name, const std::string& absolute_path) {
  return sha256_hex(case_name + "\n" + absolute_path);
}

namespace {

// Below this a log is read on one thread.
constexpr long long kMinSegmentBytes = 16ll << 20;
constexpr long long kMaxSegmentBytes = 256ll << 20;

// The size of the parts a big log is cut into: about four per thread, so that a thread that
// finished early (or the one that computed the digest) takes more. AERUN_INGEST_SEGMENT_BYTES
// sets it (tests cut small logs into many parts with it).
long long segment_bytes(long long size, unsigned threads) {
  if (const char* e = std::getenv("AERUN_INGEST_SEGMENT_BYTES"); e && *e) {
    char* end = nullptr;
    const long long v = std::strtoll(e, &end, 10);
    if (end && *end == '\0' && v > 0) return v;
  }
  return std::clamp(size / (4ll * threads), kMinSegmentBytes, kMaxSegmentBytes);
}

// A log cut shorter while its parts were read (truncated, rotated in place): what was read is
// no longer the file, and its parts do not join (issue 40's fourth pass: an internal error).
[[noreturn]] void throw_shrunk(const std::string& path, long long size) {
  std::error_code ec;
  const auto now = std::filesystem::file_size(path, ec);
  throw SystemError(fmt::format(
      "{} shrank while it was read ({} bytes when ingest began{}): not ingested; ingest it "
      "again once nothing truncates it",
      printable(path), size, ec ? std::string() : fmt::format(", {} now", now)));
}

// What reading a log gives.
struct ReadLog {
  Extractor ex;
  std::string sha256;
  long long bytes = 0;
};

// Reads the file: the metrics (on `threads` threads, in line-aligned parts appended in order, when
// its size, `size`, is big enough: then only those bytes) and the SHA-256 digest (on the calling
// thread, beside the parts, which it then helps with). A small file is read on the calling thread
// to its end, whatever its size said.
ReadLog read_log(const Extractor& blank, const std::string& path, long long size,
                 unsigned threads) {
  const long long seg = segment_bytes(size, std::max(threads, 1u));
  if (threads <= 1 || size <= seg) {
    Extractor ex = blank.fresh();
    Sha256 digest;
    const long long bytes = for_each_chunk(path, [&](std::string_view chunk) {
      ex.feed(chunk);
      digest.update(chunk);
    });
    ex.finish();
    return {std::move(ex), digest.hex(), bytes};
  }
  std::vector<long long> starts{0};
  for (long long at = seg; at < size;) {
    const long long next = next_line_start(path, at - 1, size);
    if (next >= size) break;
    if (next > starts.back()) starts.push_back(next);
    at = std::max(next, at) + seg;
  }
  starts.push_back(size);
  const size_t parts = starts.size() - 1;
  std::vector<std::optional<Extractor>> done(parts);
  std::vector<std::exception_ptr> errors(parts);
  std::atomic<size_t> next{0};
  const auto work = [&] {
    for (size_t k; (k = next++) < parts;) {
      try {
        Extractor ex = blank.fresh();
        if (k > 0) ex.follows_earlier_part();
        const long long want = starts[k + 1] - starts[k];
        if (for_each_chunk(path, starts[k], want,
                           [&](std::string_view chunk) { ex.feed(chunk); }) != want)
          throw_shrunk(path, size);
        if (k + 1 == parts) ex.finish();
        done[k].emplace(std::move(ex));
      } catch (...) {
        errors[k] = std::current_exception();
      }
    }
  };
  std::string hex;
  long long bytes = 0;
  std::exception_ptr digest_error;
  {
    std::vector<std::jthread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    try {
      Sha256 digest;
      bytes = for_each_chunk(path, 0, size, [&](std::string_view chunk) { digest.update(chunk); });
      if (bytes != size) throw_shrunk(path, size);
      hex = digest.hex();
    } catch (...) {
      digest_error = std::current_exception();
    }
    work();
  }
  if (digest_error) std::rethrow_exception(digest_error);
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  Extractor ex = std::move(*done[0]);
  for (size_t k = 1; k < parts; ++k) ex.append(std::move(*done[k]));
  ex.finish();
  return {std::move(ex), hex, bytes};
}

}  // namespace

RunRecord ingest_file(const CaseSpec& spec, const std::string& path, const ParamList& params,
                      bool assume_complete, unsigned threads) {
  return ingest_file(spec, Extractor(spec), path, params, assume_complete, threads);
}

RunRecord ingest_file(const CaseSpec& spec, const Extractor& blank, const std::string& path,
                      const ParamList& params, bool assume_complete, unsigned threads,
                      std::optional<long long> size_seen) {
  namespace fs = std::filesystem;
  const std::string abs = fs::absolute(path).lexically_normal().string();
  std::error_code ec;
  const auto file_size = fs::file_size(abs, ec);  // when unknown, read on one thread to the end
  const long long size = size_seen ? *size_seen : ec ? 0 : static_cast<long long>(file_size);
  auto [ex, hex, bytes] = read_log(blank, abs, size, threads);
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
  r.log_size = bytes;
  r.log_sha256 = hex;
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
