#include "fake_executor.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>

#include "aerun/util/error.hpp"

namespace aerun::testing {

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();
// A loop that runs this long on the virtual clock without its runs ending is stuck.
constexpr double kRunawayS = 1e6;
constexpr int kFirstPid = 5'000'000;  // above Linux's pid_max: never a real process

}  // namespace

FakeScript steps(int n, double every, double exit_after) {
  FakeScript s;
  for (int i = 1; i <= n; ++i)
    s.output.emplace_back(i * every, fmt::format("step {} loss {:.1f}\n", i, 3.0 - 0.1 * i));
  s.exit_at = n * every + exit_after;
  return s;
}

std::string FakeExecutor::Start::env_var(const std::string& name) const {
  for (const auto& e : env)
    if (e.size() > name.size() && e.compare(0, name.size(), name) == 0 && e[name.size()] == '=')
      return e.substr(name.size() + 1);
  return "";
}

// The loop's handle on one start: reads the pipe the fake writes, ends when the fake says.
class FakeProcess final : public Process {
 public:
  FakeProcess(FakeExecutor& exec, std::shared_ptr<FakeExecutor::Start> s, int read_fd)
      : exec_(exec), s_(std::move(s)), read_fd_(read_fd) {}
  ~FakeProcess() override {
    if (read_fd_ >= 0) ::close(read_fd_);
  }
  int pid() const override { return s_->pid; }
  int output_fd() const override { return read_fd_; }
  void close_output() override {
    if (read_fd_ >= 0) ::close(read_fd_);
    read_fd_ = -1;
  }
  void signal_group(int sig) override { exec_.on_signal(*s_, sig); }
  bool try_wait() override { return reaped_ = s_->ended >= 0; }
  bool exited() const override { return reaped_; }
  const ChildProcess::Exit& exit() const override { return s_->exit; }
  long long start_ticks() const override { return 0; }

 private:
  FakeExecutor& exec_;
  std::shared_ptr<FakeExecutor::Start> s_;
  int read_fd_;
  bool reaped_ = false;
};

FakeExecutor::~FakeExecutor() {
  for (const auto& s : starts_)
    if (s->write_fd >= 0) ::close(s->write_fd);
}

std::unique_ptr<Process> FakeExecutor::spawn(const ChildProcess::Options& opts) {
  auto s = std::make_shared<Start>();
  s->command = opts.argv.back();
  s->cwd = opts.cwd;
  s->env = opts.env;
  s->started = now_;
  s->pid = kFirstPid + static_cast<int>(starts_.size());
  s->script = default_;
  if (auto it = scripts_.find(s->command); it != scripts_.end()) {
    size_t& used = used_[s->command];
    s->script = it->second[std::min(used, it->second.size() - 1)];
    ++used;
  }
  if (!s->script.spawn_error.empty()) throw SystemError(s->script.spawn_error);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw SystemError("pipe2");
  ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
  s->write_fd = fds[1];
  starts_.push_back(s);
  int running = 0;
  for (const auto& x : starts_) running += x->ended < 0;
  most_at_once_ = std::max(most_at_once_, running);
  run_due();  // what it does at once
  return std::make_unique<FakeProcess>(*this, s, fds[0]);
}

void FakeExecutor::check_not_spinning() {
  const double real =
      std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  if (reads_without_wait_++ == 0) real_since_wait_ = real;
  if (reads_without_wait_ > 1'000'000 || real - real_since_wait_ > 10)
    throw std::runtime_error(
        fmt::format("the run loop read the clock {} times in {:.1f} s at {} s without waiting",
                    reads_without_wait_, real - real_since_wait_, now_));
}

double FakeExecutor::mono_now() {
  check_not_spinning();
  return kMonoStart + now_;
}

double FakeExecutor::wall_now() {
  check_not_spinning();
  return kEpoch + now_;
}

void FakeExecutor::write_output(Start& s, const std::string& bytes) {
  if (s.write_fd < 0) return;
  // Small by design (tests write lines): a pipe takes 64 KiB without a reader.
  const ssize_t w = ::write(s.write_fd, bytes.data(), bytes.size());
  if (w != static_cast<ssize_t>(bytes.size())) throw std::runtime_error("fake output too large");
}

void FakeExecutor::end(Start& s, ChildProcess::Exit e) {
  s.ended = now_;
  s.exit = e;
  const double hold = s.script.holds_output_s;
  if (hold < 0) {
    s.holds_forever = true;
  } else if (hold > 0) {
    s.holds_until = now_ + hold;
  } else if (s.write_fd >= 0) {
    ::close(s.write_fd);
    s.write_fd = -1;
  }
}

void FakeExecutor::on_signal(Start& s, int sig) {
  s.signals.emplace_back(now_, sig);
  if (s.ended >= 0) {
    // What it left holding the output is in its group: the signal stops that too.
    if (s.write_fd >= 0 && (sig == SIGKILL || sig == SIGTERM)) {
      ::close(s.write_fd);
      s.write_fd = -1;
      s.holds_forever = false;
      s.holds_until = -1;
    }
    return;
  }
  if (sig == SIGTERM && s.script.ignores_sigterm) return;
  ChildProcess::Exit e;
  e.signal = sig;
  s.holds_forever = false;
  s.script.holds_output_s = 0;
  end(s, e);
}

double FakeExecutor::next_event() const {
  double t = kNever;
  for (const auto& timer : timers_) t = std::min(t, timer.at);
  for (const auto& s : starts_) {
    if (s->ended < 0) {
      if (s->next_output < s->script.output.size())
        t = std::min(t, s->started + s->script.output[s->next_output].first);
      t = std::min(t, s->started + s->script.exit_at);
    } else if (s->holds_until >= 0) {
      t = std::min(t, s->holds_until);
    }
  }
  return t;
}

bool FakeExecutor::run_due() {
  bool any = false;
  for (size_t i = 0; i < timers_.size();) {
    if (timers_[i].at <= now_) {
      auto fn = std::move(timers_[i].fn);
      timers_.erase(timers_.begin() + static_cast<long>(i));
      fn();
      any = true;
    } else {
      ++i;
    }
  }
  for (const auto& sp : starts_) {
    Start& s = *sp;
    if (s.ended < 0) {
      while (s.next_output < s.script.output.size() &&
             s.started + s.script.output[s.next_output].first <= now_) {
        write_output(s, s.script.output[s.next_output++].second);
        any = true;
      }
      if (s.started + s.script.exit_at <= now_) {
        ChildProcess::Exit e;
        if (s.script.killed_by != 0)
          e.signal = s.script.killed_by;
        else
          e.code = s.script.exit_code;
        end(s, e);
        any = true;
      }
    } else if (s.holds_until >= 0 && s.holds_until <= now_) {
      ::close(s.write_fd);
      s.write_fd = -1;
      s.holds_until = -1;
      any = true;
    }
  }
  return any;
}

void FakeExecutor::wait(std::vector<pollfd>& fds, double mono_deadline) {
  reads_without_wait_ = 0;
  const double deadline = mono_deadline - kMonoStart;
  for (;;) {
    const bool happened = run_due();
    // Something to read already (output, a signal to aerun): the loop's turn.
    if (::poll(fds.data(), fds.size(), 0) > 0 || happened) return;
    const double next = next_event();
    if (next > deadline) {
      now_ = std::max(now_, deadline);
      if (now_ > kRunawayS)
        throw std::runtime_error("the run loop waited past 1e6 s of the virtual clock");
      run_due();
      return;
    }
    now_ = std::max(now_, next);
  }
}

}  // namespace aerun::testing
