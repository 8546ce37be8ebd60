// The run loop's seam to the operating system, as ninja's CommandRunner is its Builder's: the
// processes it starts, the clock it reads and the wait for something to happen. The system
// executor spawns real processes and polls; tests/unit/run/fake_executor.hpp scripts processes
// on a virtual clock, so the loop's claims, retries, watchdogs and signals are tested in
// milliseconds.
#pragma once

#include <poll.h>

#include <memory>
#include <vector>

#include "aerun/run/child_process.hpp"

namespace aerun {

// A command started by an Executor: its own process group, output on one pipe.
class Process {
 public:
  virtual ~Process() = default;
  virtual int pid() const = 0;  // also its process group
  // Read end of the output pipe (non-blocking), -1 once closed.
  virtual int output_fd() const = 0;
  virtual void close_output() = 0;
  // Sends sig to the process group (the command and everything it started).
  virtual void signal_group(int sig) = 0;
  // Reaps the process if it has ended; true once it has.
  virtual bool try_wait() = 0;
  virtual bool exited() const = 0;
  virtual const ChildProcess::Exit& exit() const = 0;
  // Its start time in clock ticks since boot (what tells a reused pid from it), 0 if unknown.
  virtual long long start_ticks() const = 0;
  // The processes outside its process group that hold its output pipe open (a daemon it started
  // with setsid), by pid; none when unknown.
  virtual std::vector<int> output_holders() const { return {}; }
};

class Executor {
 public:
  virtual ~Executor() = default;
  // Starts a command; throws SystemError when it cannot be started.
  virtual std::unique_ptr<Process> spawn(const ChildProcess::Options& opts) = 0;
  // Returns once one of fds is readable or the monotonic time `deadline` has come (at once
  // when it has passed); an interrupted wait returns early. Throws SystemError when it fails.
  virtual void wait(std::vector<pollfd>& fds, double deadline) = 0;
  virtual double mono_now() = 0;  // monotonic seconds
  virtual double wall_now() = 0;  // seconds since the epoch
  // Whether a run's output is extracted on a thread of its own while it runs (the system's
  // way: a slow pattern never stalls the pipe), or as it is read (a fake: deterministic).
  virtual bool threaded_extraction() const { return true; }
};

// Real processes (posix_spawn), poll(2) and the system clocks.
Executor& system_executor();

class SignalWatch;

// Waits on exec's clock until the monotonic time `until`, or less when a stop signal arrives at
// `signals` (kStopSignals): its number, else 0. Other wake-ups (SIGCHLD) do not end the wait.
int wait_unless_stopped(Executor& exec, SignalWatch& signals, double until);

}  // namespace aerun
