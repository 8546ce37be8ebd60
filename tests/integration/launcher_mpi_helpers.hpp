// Shared by the real-launcher tests: a rank-printing script and a reader of what it printed.
#pragma once

#include <map>
#include <sstream>
#include <string>

#include "harness.hpp"

namespace aerun::testing {

// A script every rank runs: prints its rank, size and local rank as the launcher told it (the
// variable names come from `aerun env`: AERUN_RANK_VAR, ...), then waits (at most 30 s) until
// every rank has started, as MPI_Init would (ranks of one launch share $BARRIER when one folder
// sees several launches). Without that, MPICH's hydra (Debian's 4.0) loses a
// job of instant non-MPI ranks under load: when the first host entry's proxy has ended before
// the last has started, mpiexec writes to the ended proxy's socket and dies of SIGPIPE (exit 141,
// seen with strace; real training processes are MPI programs and never end that early).
inline std::string write_print_rank(const TempDir& dir) {
  const std::string path = dir / "print_rank.sh";
  write_file(path,
             "#!/bin/sh\n"
             "eval \"r=\\${$AERUN_RANK_VAR} s=\\${$AERUN_SIZE_VAR} l=\\${$AERUN_LOCAL_RANK_VAR}\"\n"
             "echo \"RANK $r SIZE $s LOCAL $l WORLD $WORLD_SIZE MASTER $MASTER_ADDR\"\n"
             "case $s in ''|*[!0-9]*) exit 0 ;; esac\n"
             "b=.started.${BARRIER:-0}\n"
             ": > \"$b.$r.$$\"\n"
             "i=0\n"
             "while [ \"$(ls \"$b\".* | wc -l)\" -lt \"$s\" ] && [ $i -lt 300 ]; do\n"
             "  sleep 0.1; i=$((i + 1))\n"
             "done\n");
  fs::permissions(path, fs::perms::owner_all);
  return path;
}

// One line per rank that ran, keyed by rank: "RANK r SIZE s LOCAL l WORLD w MASTER m".
struct RankLine {
  int size = -1, local = -1, world = -1;
  std::string master;
};

// The ranks that printed, with how many times each did.
inline std::map<int, std::pair<int, RankLine>> ranks_seen(const std::string& out) {
  std::map<int, std::pair<int, RankLine>> seen;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream w(line);
    std::string t1, t2, t3, t4, t5;
    int rank = -1;
    RankLine r;
    if (w >> t1 >> rank >> t2 >> r.size >> t3 >> r.local >> t4 >> r.world >> t5 >> r.master &&
        t1 == "RANK") {
      seen[rank].first++;
      seen[rank].second = r;
    }
  }
  return seen;
}

// Runs `script` with bash in dir, bounded by `timeout -k 5 60` so a stuck launcher cannot hang
// the suite; AERUN points at the binary.
inline Result run_bash(const TempDir& dir, const std::string& script, const std::string& env = "") {
  write_file(dir / "job.sh", script);
  const std::string cmd = "cd " + shell_quote(dir.path().string()) + " && " + env +
                          " AERUN=" + shell_quote(AERUN_BINARY) +
                          " timeout -k 5 60 bash job.sh </dev/null >" + shell_quote(dir / ".out") +
                          " 2>" + shell_quote(dir / ".err");
  const int st = std::system(cmd.c_str());
  Result r;
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  r.out = read_file(dir / ".out");
  r.err = read_file(dir / ".err");
  return r;
}

inline bool have(const std::string& program) {
  return std::system(("command -v " + program + " >/dev/null 2>&1").c_str()) == 0;
}

}  // namespace aerun::testing
