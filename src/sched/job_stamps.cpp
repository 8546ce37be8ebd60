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

namespace {

// One job's output on its way to the log: stamped (first output, first step), watched (stall,
// first-step limit) and, when a watchdog fires, the job stopped (SIGTERM, then SIGKILL).
class OutputStamper {
 public:
  OutputStamper(StampSink& stamps, const StampOptions& o) : stamps_(stamps), o_(o) {
    if (!o.first_step.empty()) first_step_ = std::make_unique<RE2>(o.first_step);
    for (const auto& p : o.progress) {
      auto r = std::make_unique<RE2>(p);
      if (r->ok()) progress_.push_back(std::move(r));
    }
    seen_step_ = !first_step_ || !first_step_->ok();
  }

  // When a watchdog is next due (monotonic seconds), 0 for none.
  double wake() const {
    if (kill_at_ > 0) return kill_at_;
    double wake = 0;
    if (o_.stall_s > 0 && progress_lines_ > 0) wake = last_progress_at_ + o_.stall_s;
    if (o_.first_step_s > 0 && !seen_step_ && first_step_)
      wake = wake > 0 ? std::min(wake, started_ + o_.first_step_s) : started_ + o_.first_step_s;
    return wake;
  }

  // A watchdog came due: the job is stamped and sent SIGTERM, or, SIGTERM having failed, killed.
  // False when this process goes too (SIGKILL to the process group).
  bool fire() {
    if (kill_at_ > 0) {
      ::kill(0, SIGKILL);  // the run did not end on SIGTERM (this process goes too)
      return false;
    }
    const double t = wall_now();
    if (o_.stall_s > 0 && progress_lines_ > 0 && mono_now() >= last_progress_at_ + o_.stall_s)
      stamps_ << fmt::format("stalled {:.6f} {:g} {} {}\n", t, o_.stall_s, progress_line_no_,
                             last_progress_);
    else
      stamps_ << fmt::format("startup_timeout {:.6f} {:g}\n", t, o_.first_step_s);
    stamps_ << fmt::format("end {:.6f} 143\n", t) << std::flush;
    // The job script and everything it started; this process keeps copying their last lines.
    ::signal(SIGTERM, SIG_IGN);
    ::kill(0, SIGTERM);
    kill_at_ = mono_now() + o_.kill_grace_s;
    return true;
  }

  // Output was read at wall time `now`: the first is stamped (before it reaches the log).
  void output_at(double now) {
    if (seen_output_) return;
    stamps_ << fmt::format("first_output {:.6f}\n", now) << std::flush;
    seen_output_ = true;
  }

  // Output read at wall time `now`, copied to the log: its whole lines watched.
  void take(const char* buf, size_t n, double now) {
    if ((!first_step_ && progress_.empty()) || kill_at_ > 0) return;
    partial_.append(buf, n);
    size_t start = 0, nl;
    while ((nl = partial_.find('\n', start)) != std::string::npos) {
      watch(std::string_view(partial_).substr(start, nl - start), now);
      start = nl + 1;
    }
    partial_.erase(0, start);
    if (partial_.size() > (1 << 20)) partial_.erase(0, partial_.size() - (1 << 20));
  }

 private:
  void watch(std::string_view line, double now) {
    ++line_no_;
    if (!seen_step_ && RE2::PartialMatch(line, *first_step_)) {
      stamps_ << fmt::format("first_step {:.6f}\n", now) << std::flush;
      seen_step_ = true;
    }
    for (const auto& p : progress_)
      if (RE2::PartialMatch(line, *p)) {
        ++progress_lines_;
        progress_line_no_ = line_no_;
        last_progress_ = std::string(line.substr(0, 300));
        for (char& c : last_progress_)
          if (c == '\r') c = ' ';
        last_progress_at_ = mono_now();
        break;
      }
  }

  StampSink& stamps_;
  const StampOptions& o_;
  std::unique_ptr<RE2> first_step_;
  std::vector<std::unique_ptr<RE2>> progress_;
  bool seen_output_ = false, seen_step_ = false;
  std::string partial_, last_progress_;
  long long line_no_ = 0, progress_line_no_ = 0, progress_lines_ = 0;
  const double started_ = mono_now();
  double last_progress_at_ = 0;
  double kill_at_ = 0;  // SIGKILL once this passes (a watchdog fired)
};

// Copies n bytes to fd whole (a write cut short is continued).
void write_all(int fd, const char* buf, size_t n) {
  for (size_t off = 0; off < n;) {
    const ssize_t w = ::write(fd, buf + off, n - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    off += static_cast<size_t>(w);
  }
}

}  // namespace

bool stamp_output(int in_fd, int out_fd, const std::string& stamps_file, const StampOptions& o) {
  // Never through a link put at its path (issue 40).
  StampSink stamps;
  try {
    stamps.fd = create_file(stamps_file, CreateMode::Append);
  } catch (const SystemError&) {
    return false;
  }
  OutputStamper stamper(stamps, o);
  char buf[65536];
  for (;;) {
    // Wait for output, or until the next watchdog moment.
    if (const double wake = stamper.wake(); wake > 0) {
      const double left = wake - mono_now();
      pollfd p{in_fd, POLLIN, 0};
      const int rc = left > 0 ? ::poll(&p, 1, static_cast<int>(std::ceil(left * 1000))) : 0;
      if (rc < 0 && errno == EINTR) continue;
      if (rc == 0) {
        if (!stamper.fire()) return true;
        continue;
      }
    }
    const ssize_t n = read(in_fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    const double now = wall_now();
    stamper.output_at(now);
    write_all(out_fd, buf, static_cast<size_t>(n));
    stamper.take(buf, static_cast<size_t>(n), now);
  }
  return true;
}

}  // namespace aerun
