// One log file -> the run it describes (extraction and digest in a single streaming pass).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "aerun/error.hpp"
#include "aerun/extractor.hpp"
#include "aerun/ingest.hpp"
#include "aerun/sha256.hpp"

namespace aerun {

namespace {

// Owns a file descriptor opened for reading.
class ReadFd {
 public:
  explicit ReadFd(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (fd_ < 0) throw SystemError("cannot read " + path + ": " + std::strerror(errno));
  }
  ~ReadFd() { ::close(fd_); }
  ReadFd(const ReadFd&) = delete;
  ReadFd& operator=(const ReadFd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string ingest_key(const std::string& case_name, const std::string& absolute_path) {
  return sha256_hex(case_name + "\n" + absolute_path);
}

RunRecord ingest_file(const CaseSpec& spec, const std::string& path, const ParamList& params) {
  namespace fs = std::filesystem;
  const std::string abs = fs::absolute(path).lexically_normal().string();
  Extractor ex(spec.metrics, spec.status, spec.startup);
  Sha256 digest;
  ReadFd fd(abs);
  ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
  std::vector<char> buf(1u << 20);
  long long size = 0;
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf.data(), buf.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw SystemError("error reading " + abs + ": " + std::strerror(errno));
    }
    if (n == 0) break;
    const std::string_view chunk(buf.data(), static_cast<size_t>(n));
    ex.feed(chunk);
    digest.update(chunk);
    size += n;
  }
  ex.finish();
  struct stat st {};
  ::fstat(fd.get(), &st);

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
  r.end_time = static_cast<double>(st.st_mtim.tv_sec) + st.st_mtim.tv_nsec / 1e9;
  r.launch_time = ex.job_start_time();
  r.startup_time = ex.step_time();
  if (r.launch_time && r.startup_time) r.startup_s = *r.startup_time - *r.launch_time;
  if (r.launch_time) r.wall_s = *r.end_time - *r.launch_time;
  if (const auto& hit = ex.status()) {
    r.status = hit->status;
    r.reason = "line " + std::to_string(hit->line_no) + ": " + hit->line;
  } else if (!ex.progress_seen()) {
    r.status = "no_progress";
    r.reason = "no iteration or step line in the log";
  } else {
    r.status = "ok";
  }
  return r;
}

}  // namespace aerun
