// Writes a store of many nightly sessions through the Store API, for `aerun regress` (and later
// `history`/`report`) figures: SESSIONS sessions × POINTS points × REPEATS repeats of case
// "nightly", each run with iter_ms, tflops_per_gpu and lm_loss (2 % noise; the last session is
// 30 % slower on every tenth point).
// Usage: bench_store_gen OUT.db [SESSIONS=100] [POINTS=200] [REPEATS=5]
#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <random>

#include "aerun/store/store.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: bench_store_gen OUT.db [SESSIONS] [POINTS] [REPEATS]\n";
    return 2;
  }
  const int sessions = argc > 2 ? std::atoi(argv[2]) : 100;
  const int points = argc > 3 ? std::atoi(argv[3]) : 200;
  const int repeats = argc > 4 ? std::atoi(argv[4]) : 5;
  aerun::Store store(argv[1]);
  std::mt19937 gen(42);
  std::uniform_real_distribution<double> noise(-0.02, 0.02);
  for (int s = 0; s < sessions; ++s) {
    aerun::SessionInfo info;
    info.label = fmt::format("nightly-{:03}", s);
    info.kind = "case";
    info.fresh = true;
    info.started_at = 1.79e9 + s * 86400.0;
    store.open_session(info);
    for (int p = 0; p < points; ++p)
      for (int r = 0; r < repeats; ++r) {
        aerun::RunRecord run;
        run.key = fmt::format("{:064x}", static_cast<unsigned long long>(p) * repeats + r);
        run.case_name = "nightly";
        run.repeat_index = r;
        run.status = "ok";
        run.session_id = info.id;
        run.params = {{"hidden", aerun::Value::parse(std::to_string(64 * (p + 1)))},
                      {"layers", aerun::Value::parse("24")}};
        const double slow = (s == sessions - 1 && p % 10 == 0) ? 1.3 : 1.0;
        const double ms = (100 + p) * slow * (1 + noise(gen));
        run.metrics = {{"iter_ms", ms, "ms", 10, 0},
                       {"tflops_per_gpu", 1e4 / ms, "TFLOP/s", 10, 0},
                       {"lm_loss", 2.5 * (1 + noise(gen)), "", 10, 0}};
        run.wall_s = ms * 0.1;
        run.end_time = info.started_at + 60;
        store.begin_run(run);  // the earlier night's attempt goes to the history
        store.finish_run(run);
      }
    store.close_session(info.id);
  }
  std::cout << fmt::format("{}: {} sessions x {} points x {} repeats\n", argv[1], sessions, points,
                           repeats);
  return 0;
}
