// The run loop's fake world, as ninja's FakeCommandRunner is its Builder's: commands that do what
// a script says on a virtual clock (output at given seconds, an exit, how they take SIGTERM), a
// wait that jumps the clock to the next thing that happens, and a record of what was started and
// signalled. Output goes through real pipes and signals to aerun are real (raise()), so the loop's
// own reading and signal handling run unchanged; a sweep of minutes runs in milliseconds.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "aerun/run/executor.hpp"

namespace aerun::testing {

// What one start of a command does; times are seconds after its start.
struct FakeScript {
  std::vector<std::pair<double, std::string>> output;  // (when, bytes written)
  double exit_at = 0;                                  // when it ends (not before its last output)
  int exit_code = 0;                                   // how it ends, unless killed_by
  int killed_by = 0;             // ends killed by this signal at exit_at instead (0: exits)
  bool ignores_sigterm = false;  // only SIGKILL stops it
  // Something it started keeps the output open after it ended: until killed (a negative
  // value) or for this many seconds.
  double holds_output_s = 0;
  std::string spawn_error;  // cannot be started: spawn throws SystemError with this
};

// A command that prints one line per step: "step 1 loss 2.0" at `every` s, ... then exits 0.
FakeScript steps(int n, double every, double exit_after = 0.1);

class FakeExecutor final : public Executor {
 public:
  struct Start;  // one spawn: what it was asked and what became of it
  FakeExecutor() = default;
  ~FakeExecutor() override;  // closes the pipes its commands still hold
  FakeExecutor(const FakeExecutor&) = delete;
  FakeExecutor& operator=(const FakeExecutor&) = delete;

  // Each start of `command` (the text after `shell -c`) follows the next script given for it;
  // the last one repeats. A command without a script follows the default one (exit 0 at once).
  void script(const std::string& command, FakeScript s) {
    scripts_[command].push_back(std::move(s));
  }
  void default_script(FakeScript s) { default_ = std::move(s); }
  // Calls fn t seconds after the fake began (aerun signalled, the store locked elsewhere).
  void at(double t, std::function<void()> fn) { timers_.push_back({t, std::move(fn)}); }

  std::unique_ptr<Process> spawn(const ChildProcess::Options& opts) override;
  void wait(std::vector<pollfd>& fds, double deadline) override;
  double mono_now() override;
  double wall_now() override;
  bool threaded_extraction() const override { return false; }

  // The clocks when the fake begins: far from 0, which the loop may read as "not set".
  static constexpr double kEpoch = 1.7e9;  // wall
  static constexpr double kMonoStart = 1000;
  // Seconds since the fake began (the times below are too).
  double now() const { return now_; }
  // Every start so far, in order.
  const std::vector<std::shared_ptr<Start>>& starts() const { return starts_; }
  // The most commands that ran at once.
  int most_at_once() const { return most_at_once_; }

  struct Start {
    std::string command, cwd;
    std::vector<std::string> env;
    int pid = 0;
    double started = 0, ended = -1;               // mono times; ended -1 while it runs
    std::vector<std::pair<double, int>> signals;  // (when, signal) sent to its group
    // Its state, for the fake's own use.
    FakeScript script;
    size_t next_output = 0;
    int write_fd = -1;  // the command's end of the pipe, -1 once closed
    ChildProcess::Exit exit;
    double holds_until = -1;  // ended but the pipe is held until then (<0: not held)
    bool holds_forever = false;
    // The value of NAME in its environment, "" when not set.
    std::string env_var(const std::string& name) const;
  };

 private:
  struct Timer {
    double at;
    std::function<void()> fn;
  };
  // The next moment a command or a timer does something (a large value when nothing will).
  double next_event() const;
  // Does what is due at now_; true if anything happened.
  bool run_due();
  void end(Start& s, ChildProcess::Exit e);
  void write_output(Start& s, const std::string& bytes);
  friend class FakeProcess;
  void on_signal(Start& s, int sig);

  double now_ = 0;
  // A loop that spins instead of waiting is a bug: the clock reads since the last wait, and the
  // real time of the first of them.
  long long reads_without_wait_ = 0;
  double real_since_wait_ = 0;
  void check_not_spinning();
  std::map<std::string, std::vector<FakeScript>> scripts_;
  std::map<std::string, size_t> used_;
  FakeScript default_;
  std::vector<Timer> timers_;
  std::vector<std::shared_ptr<Start>> starts_;
  int most_at_once_ = 0;
};

}  // namespace aerun::testing
