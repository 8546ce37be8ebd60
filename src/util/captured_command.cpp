#include "aerun/util/captured_command.hpp"
#include "aerun/util/spawn_setup.hpp"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "aerun/util/unique_fd.hpp"

extern char** environ;

namespace aerun {

namespace {

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r\n");
  std::string t = s.substr(b, e - b + 1);
  for (char& c : t)
    if (c == '\n' || c == '\r') c = ' ';
  return t;
}

}  // namespace

std::string CommandResult::message() const {
  if (!started) return error;
  std::string text = trimmed(err);
  if (text.empty()) text = trimmed(out);
  if (timed_out) return "timed out" + (text.empty() ? "" : ": " + text);
  if (!text.empty()) return text;
  if (signal) return fmt::format("killed by signal {}", *signal);
  return exit_code ? fmt::format("exit code {}", *exit_code) : "no exit status";
}

std::string CommandResult::outcome(double timeout_s) const {
  if (!started) return error;
  if (timed_out) return fmt::format("timed out after {:g} s", timeout_s);
  if (signal) return fmt::format("killed by signal {}", *signal);
  if (!exit_code) return "no exit status";
  return *exit_code == 0 ? "" : fmt::format("exit code {}", *exit_code);
}

std::string find_in_path(const std::string& argv0, const std::string& path) {
  if (argv0.empty()) return "";
  if (argv0.find('/') != std::string::npos) return access(argv0.c_str(), X_OK) == 0 ? argv0 : "";
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    // An empty entry is the current directory, as for execvp.
    const std::string file =
        (end > start ? path.substr(start, end - start) : std::string(".")) + "/" + argv0;
    struct stat st {};
    if (stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(file.c_str(), X_OK) == 0)
      return file;
    start = end + 1;
  }
  return "";
}

CommandResult run_captured(const std::vector<std::string>& argv, const CommandSettings& how) {
  const double timeout_s = how.timeout_s;
  CommandResult r;
  if (argv.empty()) {
    r.error = "no command";
    return r;
  }
  int out_p[2], err_p[2];
  if (pipe2(out_p, O_CLOEXEC) != 0) {
    r.error = fmt::format("pipe: {}", strerror(errno));
    return r;
  }
  UniqueFd out_r(out_p[0]), out_w(out_p[1]);
  if (pipe2(err_p, O_CLOEXEC) != 0) {
    r.error = fmt::format("pipe: {}", strerror(errno));
    return r;
  }
  UniqueFd err_r(err_p[0]), err_w(err_p[1]);

  SpawnSetup setup;
  posix_spawn_file_actions_addopen(&setup.actions, 0,
                                   how.stdin_file.empty() ? "/dev/null" : how.stdin_file.c_str(),
                                   O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&setup.actions, out_w.get(), 1);
  posix_spawn_file_actions_adddup2(&setup.actions, err_w.get(), 2);
  // The tool gets the default action of SIGPIPE that aerun itself ignores (app.cpp).
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&setup.attr, &defaults);
  posix_spawnattr_setflags(&setup.attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&setup.attr, 0);
  if (!how.workdir.empty())
    posix_spawn_file_actions_addchdir_np(&setup.actions, how.workdir.c_str());
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<char*> envp;
  if (how.environment) {
    for (const auto& e : *how.environment) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
  }
  // The program is looked up in the PATH the command will have, not in aerun's.
  std::string program = argv[0];
  if (how.environment) {
    std::string path = "/usr/bin:/bin";
    for (const auto& e : *how.environment)
      if (e.rfind("PATH=", 0) == 0) path = e.substr(5);
    program = find_in_path(argv[0], path);
    if (program.empty()) {
      r.error = fmt::format("{}: not found in PATH", argv[0]);
      return r;
    }
  }
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, program.c_str(), &setup.actions, &setup.attr, args.data(),
                              how.environment ? envp.data() : environ);
  if (rc != 0) {
    r.error = rc == ENOENT && how.workdir.empty()
                  ? fmt::format("{}: not found in PATH", argv[0])
                  : fmt::format("{}: cannot run{}: {}", argv[0],
                                how.workdir.empty() ? "" : " in " + how.workdir, strerror(rc));
    return r;
  }
  r.started = true;
  out_w.reset();
  err_w.reset();

  const double deadline = seconds_now() + timeout_s;
  char buf[8192];
  while (out_r.get() >= 0 || err_r.get() >= 0) {
    pollfd fds[2];
    nfds_t n = 0;
    if (out_r.get() >= 0) fds[n++] = {out_r.get(), POLLIN, 0};
    if (err_r.get() >= 0) fds[n++] = {err_r.get(), POLLIN, 0};
    const double left = deadline - seconds_now();
    if (left <= 0) {
      r.timed_out = true;
      kill(-pid, SIGKILL);
      break;
    }
    const int pr = poll(fds, n, static_cast<int>(std::ceil(left * 1000)));
    if (pr < 0 && errno != EINTR) break;
    for (nfds_t i = 0; i < n; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t got = read(fds[i].fd, buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      UniqueFd& end = fds[i].fd == out_r.get() ? out_r : err_r;
      std::string& dst = fds[i].fd == out_r.get() ? r.out : r.err;
      if (got <= 0) {
        end.reset();
      } else {
        const size_t room = how.max_output_bytes - std::min(how.max_output_bytes, dst.size());
        const size_t keep = std::min(room, static_cast<size_t>(got));
        dst.append(buf, keep);
        if (keep < static_cast<size_t>(got)) r.truncated = true;
      }
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

}  // namespace aerun
