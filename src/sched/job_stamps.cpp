#include "aerun/job_stamps.hpp"

#include <errno.h>
#include <unistd.h>

#include <fmt/format.h>
#include <re2/re2.h>

#include <fstream>
#include <memory>
#include <sstream>

#include "aerun/provenance.hpp"

namespace aerun {

JobStamps read_job_stamps(const std::string& path) {
  JobStamps s;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string what;
    double t = 0;
    if (!(f >> what >> t)) continue;
    if (what == "start") {
      s.start = t;
      f >> s.host >> s.job_id;
    } else if (what == "first_output" && !s.first_output) {
      s.first_output = t;
    } else if (what == "first_step" && !s.first_step) {
      s.first_step = t;
    } else if (what == "end") {
      s.end = t;
      int rc = 0;
      if (f >> rc) s.exit_code = rc;
    }
  }
  return s;
}

std::string stamps_path(const std::string& log_path) {
  const std::string ext = ".log";
  if (log_path.size() > ext.size() &&
      log_path.compare(log_path.size() - ext.size(), ext.size(), ext) == 0)
    return log_path.substr(0, log_path.size() - ext.size()) + ".stamps";
  return log_path + ".stamps";
}

bool stamp_output(int in_fd, int out_fd, const std::string& stamps_file,
                  const std::string& first_step) {
  std::ofstream stamps(stamps_file, std::ios::app);
  if (!stamps) return false;
  std::unique_ptr<RE2> re;
  if (!first_step.empty()) re = std::make_unique<RE2>(first_step);
  bool seen_output = false, seen_step = !re || !re->ok();
  std::string partial;
  char buf[65536];
  for (;;) {
    const ssize_t n = read(in_fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    const double now = wall_now();
    if (!seen_output) {
      stamps << fmt::format("first_output {:.6f}\n", now) << std::flush;
      seen_output = true;
    }
    for (ssize_t off = 0; off < n;) {
      const ssize_t w = write(out_fd, buf + off, static_cast<size_t>(n - off));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;
      off += w;
    }
    if (seen_step) continue;
    partial.append(buf, static_cast<size_t>(n));
    size_t start = 0, nl;
    while (!seen_step && (nl = partial.find('\n', start)) != std::string::npos) {
      if (RE2::PartialMatch(std::string_view(partial).substr(start, nl - start), *re)) {
        stamps << fmt::format("first_step {:.6f}\n", now) << std::flush;
        seen_step = true;
      }
      start = nl + 1;
    }
    partial.erase(0, start);
    if (partial.size() > (1 << 20)) partial.erase(0, partial.size() - (1 << 20));
  }
  return true;
}

}  // namespace aerun
