// Helpers for tests that run the real aerun binary in a temp dir and read its store with SQL.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "aerun/run/child_process.hpp"
#include "aerun/util/shell_quote.hpp"

extern char** environ;

namespace aerun::testing {

namespace fs = std::filesystem;

// Whether this build runs under AddressSanitizer: its shadow memory and quarantine make memory
// figures (VmHWM, ulimit -v) meaningless, so tests of memory bounds hold them only without it.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

// A fresh directory under the system temp dir, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "aerun-test-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }
  std::string operator/(const std::string& rel) const { return (path_ / rel).string(); }

 private:
  fs::path path_;
};

inline void write_file(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Expects text to equal the golden file at path. AERUN_UPDATE_GOLDEN=1 rewrites the file first
// (then review the diff before committing it).
inline void expect_golden(const std::string& text, const std::string& path) {
  if (const char* u = std::getenv("AERUN_UPDATE_GOLDEN"); u && std::string(u) == "1")
    write_file(path, text);
  EXPECT_EQ(text, read_file(path))
      << "golden file " << path << " differs (AERUN_UPDATE_GOLDEN=1 rewrites it; review the diff)";
}

struct Result {
  int code = -1;
  std::string out;
  std::string err;
};

// Runs `aerun ARGS` in dir (stdin from /dev/null), with extra environment assignments.
inline Result run_aerun(const TempDir& dir, const std::vector<std::string>& args,
                        const std::string& env = "") {
  std::string cmd =
      "cd " + shell_quote(dir.path().string()) + " && env " + env + " " + shell_quote(AERUN_BINARY);
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " </dev/null >" + shell_quote(dir / ".out") + " 2>" + shell_quote(dir / ".err");
  const int st = std::system(cmd.c_str());
  Result r;
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  r.out = read_file(dir / ".out");
  r.err = read_file(dir / ".err");
  return r;
}

// What a shell command prints on stdout.
inline std::string command_output(const std::string& cmd) {
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    ::pclose(p);
  }
  return out;
}

// The value of `variable` (AERUN_COMMAND, AERUN_LOG, ...) for array task `index` of a job script:
// the script's own lines that pick the task's run (its `case` block or its task table), run by
// bash, as a batch job would (SLURM_ARRAY_TASK_ID, PBS_ARRAY_INDEX or the first argument).
inline std::string task_variable(const std::string& script, int index,
                                 const std::string& variable = "AERUN_COMMAND") {
  const std::string i = std::to_string(index);
  return command_output("SLURM_ARRAY_TASK_ID=" + i + " PBS_ARRAY_INDEX=" + i +
                        " bash -c 'eval \"$(sed -n \"/^aerun_task=/,/^export AERUN_RUN_KEY/p\" "
                        "\"$0\")\"; printf %s \"$" +
                        variable + "\"' " + aerun::shell_quote(script) + " " + i);
}

// Rows of a query as text ("" for NULL).
inline std::vector<std::vector<std::string>> sql(const std::string& db, const std::string& q) {
  sqlite3* h = nullptr;
  if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close(h);
    throw std::runtime_error("cannot open " + db);
  }
  sqlite3_busy_timeout(h, 5000);
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(h, q.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    std::string msg = sqlite3_errmsg(h);
    sqlite3_close(h);
    throw std::runtime_error("bad query: " + msg);
  }
  std::vector<std::vector<std::string>> rows;
  while (sqlite3_step(st) == SQLITE_ROW) {
    std::vector<std::string> row;
    for (int i = 0; i < sqlite3_column_count(st); ++i) {
      const auto* t = sqlite3_column_text(st, i);
      row.emplace_back(t ? reinterpret_cast<const char*>(t) : "");
    }
    rows.push_back(std::move(row));
  }
  sqlite3_finalize(st);
  sqlite3_close(h);
  return rows;
}

inline std::string sql1(const std::string& db, const std::string& q) {
  auto rows = sql(db, q);
  return rows.empty() || rows[0].empty() ? "" : rows[0][0];
}

// Runs statements on a store with SQLite itself (what a foreign, edited or older store holds).
inline void sql_exec(const std::string& db, const std::string& q) {
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(h, q.c_str(), nullptr, nullptr, &err);
  const std::string msg = err ? err : "";
  sqlite3_free(err);
  sqlite3_close(h);
  ASSERT_EQ(rc, SQLITE_OK) << msg;
}

// aerun started in the background in dir (its output to a pipe nobody reads: keep it short).
inline std::unique_ptr<aerun::ChildProcess> start_aerun(const TempDir& d,
                                                        std::vector<std::string> args) {
  aerun::ChildProcess::Options o;
  o.argv = {AERUN_BINARY};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  for (char** e = environ; *e; ++e) o.env.emplace_back(*e);
  o.cwd = d.path().string();
  return std::make_unique<aerun::ChildProcess>(o);
}

// aerun started in the background in dir, its stdout and stderr going to dir/.out and dir/.err
// (read them while it runs). Stop it with a signal to pid() once the test saw what it waits for:
// a fixed `timeout` guesses how long start-up takes, and a loaded machine guesses wrong.
inline std::unique_ptr<aerun::ChildProcess> start_aerun_logged(const TempDir& d,
                                                               std::vector<std::string> args) {
  std::string cmd = "exec " + shell_quote(AERUN_BINARY);
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " >" + shell_quote(d / ".out") + " 2>" + shell_quote(d / ".err");
  aerun::ChildProcess::Options o;
  o.argv = {"/bin/sh", "-c", cmd};
  for (char** e = environ; *e; ++e) o.env.emplace_back(*e);
  o.cwd = d.path().string();
  return std::make_unique<aerun::ChildProcess>(o);
}

// Waits (bounded) until pred() holds; false on timeout. While waiting, an exception from pred
// counts as "not yet" (a store aerun is still creating has a file but no tables); the last
// try lets it through, so a real error is still reported.
template <class Pred>
bool eventually(Pred pred, double seconds = 30) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    try {
      if (pred()) return true;
    } catch (const std::exception&) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return pred();
}

// A real terminal for a command: a detached tmux session on a private server (its own socket),
// 200x20, read back with capture-pane; the server is killed with the object.
class TmuxTerminal {
 public:
  static bool available() { return std::system("command -v tmux >/dev/null 2>&1") == 0; }
  // Starts `sh -c command` in the terminal; false when tmux could not start it.
  explicit TmuxTerminal(const std::string& command, const std::string& name = "term")
      : tmux_("tmux -L aerun-" + name + "-" + std::to_string(::getpid())) {
    started_ =
        std::system(
            (tmux_ + " new-session -d -s w -x 200 -y 20 " + shell_quote(command)).c_str()) == 0;
  }
  ~TmuxTerminal() {
    [[maybe_unused]] int rc = std::system((tmux_ + " kill-server 2>/dev/null").c_str());
  }
  TmuxTerminal(const TmuxTerminal&) = delete;
  TmuxTerminal& operator=(const TmuxTerminal&) = delete;
  bool started() const { return started_; }
  // What the terminal shows now.
  std::string screen() const { return command_output(tmux_ + " capture-pane -p -t w"); }
  // Waits (bounded) until the screen shows text; *last gets the screen as last seen.
  bool shows(const std::string& text, double seconds, std::string* last) const {
    return eventually(
        [&] {
          *last = screen();
          return last->find(text) != std::string::npos;
        },
        seconds);
  }

 private:
  std::string tmux_;
  bool started_ = false;
};

}  // namespace aerun::testing
