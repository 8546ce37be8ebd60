#include "aerun/sched/job_stamps.hpp"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>

#include "aerun/run/provenance.hpp"
#include "aerun/util/created_file.hpp"
#include "aerun/util/error.hpp"

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
    } else if (what == "stalled") {
      f >> s.stall_s >> s.stall_line_no;
      std::getline(f >> std::ws, s.stall_line);
    } else if (what == "startup_timeout") {
      f >> s.first_step_s;
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
  StampOptions o;
  o.first_step = first_step;
  return stamp_output(in_fd, out_fd, stamps_file, o);
}

namespace {

// The stamps file, appended to line by line (each stamp one write: a reader sees whole lines).
struct StampSink {
  UniqueFd fd;
  StampSink& operator<<(const std::string& line) {
    for (size_t off = 0; off < line.size();) {
      const ssize_t w = ::write(fd.get(), line.data() + off, line.size() - off);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;
      off += static_cast<size_t>(w);
    }
    return *this;
  }
  StampSink& operator<<(std::ostream& (*)(std::ostream&)) { return *this; }  // std::flush
};

}  // namespace

bool stamp_output(int in_fd, int out_fd, const std::string& stamps_file, const StampOptions& o) {
  // Never through a link put at its path (issue 40).
  StampSink stamps;
  try {
    stamps.fd = create_file(stamps_file, CreateMode::Append);
  } catch (const SystemError&) {
    return false;
  }
  std::unique_ptr<RE2> re;
  if (!o.first_step.empty()) re = std::make_unique<RE2>(o.first_step);
  std::vector<std::unique_ptr<RE2>> progress;
  for (const auto& p : o.progress) {
    auto r = std::make_unique<RE2>(p);
    if (r->ok()) progress.push_back(std::move(r));
  }
  const bool watch_lines = re || !progress.empty();
  bool seen_output = false, seen_step = !re || !re->ok();
  std::string partial, last_progress;
  long long line_no = 0, progress_line_no = 0, progress_lines = 0;
  const double started = mono_now();
  double last_progress_at = 0;
  double kill_at = 0;  // SIGKILL once this passes (a watchdog fired)
  char buf[65536];
  for (;;) {
    // Wait for output, or until the next watchdog moment.
    double wake = 0;
    if (kill_at > 0) {
      wake = kill_at;
    } else {
      if (o.stall_s > 0 && progress_lines > 0) wake = last_progress_at + o.stall_s;
      if (o.first_step_s > 0 && !seen_step && re)
        wake = wake > 0 ? std::min(wake, started + o.first_step_s) : started + o.first_step_s;
    }
    if (wake > 0) {
      const double left = wake - mono_now();
      pollfd p{in_fd, POLLIN, 0};
      const int rc = left > 0 ? ::poll(&p, 1, static_cast<int>(std::ceil(left * 1000))) : 0;
      if (rc < 0 && errno == EINTR) continue;
      if (rc == 0) {
        const double now = mono_now();
        if (kill_at > 0) {
          ::kill(0, SIGKILL);  // the run did not end on SIGTERM (this process goes too)
          return true;
        }
        const double t = wall_now();
        if (o.stall_s > 0 && progress_lines > 0 && now >= last_progress_at + o.stall_s)
          stamps << fmt::format("stalled {:.6f} {:g} {} {}\n", t, o.stall_s, progress_line_no,
                                last_progress);
        else
          stamps << fmt::format("startup_timeout {:.6f} {:g}\n", t, o.first_step_s);
        stamps << fmt::format("end {:.6f} 143\n", t) << std::flush;
        // The job script and everything it started; this process keeps copying their last lines.
        ::signal(SIGTERM, SIG_IGN);
        ::kill(0, SIGTERM);
        kill_at = mono_now() + o.kill_grace_s;
        continue;
      }
    }
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
    if (!watch_lines || kill_at > 0) continue;
    partial.append(buf, static_cast<size_t>(n));
    size_t start = 0, nl;
    while ((nl = partial.find('\n', start)) != std::string::npos) {
      const std::string_view line = std::string_view(partial).substr(start, nl - start);
      ++line_no;
      if (!seen_step && RE2::PartialMatch(line, *re)) {
        stamps << fmt::format("first_step {:.6f}\n", now) << std::flush;
        seen_step = true;
      }
      for (const auto& p : progress)
        if (RE2::PartialMatch(line, *p)) {
          ++progress_lines;
          progress_line_no = line_no;
          last_progress = std::string(line.substr(0, 300));
          for (char& c : last_progress)
            if (c == '\r') c = ' ';
          last_progress_at = mono_now();
          break;
        }
      start = nl + 1;
    }
    partial.erase(0, start);
    if (partial.size() > (1 << 20)) partial.erase(0, partial.size() - (1 << 20));
  }
  return true;
}

}  // namespace aerun
