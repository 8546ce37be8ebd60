// Measures Extractor throughput with the `megatron` preset (all its metrics and status patterns)
// on a log file, or on a generated Megatron-style log:
//   bench_extract LOG            or   bench_extract --generate MB
// Prints key=value pairs: bytes, seconds, gbps, peak_rss_kb, lines and the extracted metrics.
// The floors, what any extractor of this preset must at least do, the same way extract_file
// reads the file:
//   bench_extract --floor read LOG       read it and count its lines
//   bench_extract --floor literals LOG   read it, count its lines and find every occurrence of
//                                        the preset's literals (the SIMD pass, no matching)
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "aerun/case/apply_presets.hpp"
#include "aerun/extract/extractor.hpp"
#include "aerun/util/file_chunks.hpp"
#include "aerun/util/sha256.hpp"
#include "extract/count_newlines.hpp"
#include "extract/multi_literal.hpp"
#include "extract/required_literal.hpp"

namespace {

// Writes about mb MiB of Megatron/DeepSpeed-style output where 1 line in 5 matches a metric.
std::string generate_log(long mb) {
  char path[] = "/tmp/aerun-bench-XXXXXX.log";
  const int fd = ::mkstemps(path, 4);
  if (fd < 0) {
    std::perror("mkstemps");
    std::exit(1);
  }
  ::close(fd);
  std::ofstream out(path, std::ios::binary);
  const long long target = mb * (1LL << 20);
  long long written = 0;
  char buf[512];
  for (long iter = 1; written < target; ++iter) {
    const double ms = 6000.0 + static_cast<double>((iter * 7919) % 1000);
    std::string block;
    const int n = std::snprintf(
        buf, sizeof buf,
        " iteration %8ld/ 1000000 | elapsed time per iteration (ms): %.1f | learning rate: "
        "1.406E-06 | global batch size:     4 | lm loss: %.6E | loss scale: 1.0 | grad norm: "
        "3.623 | number of skipped iterations:   0 | number of nan iterations:   0 |\n"
        "Effective Tera Flops per GPU: %.2f and total parameters 1.717 B\n"
        "NumWorkers: 1; SamplesPerStep: 4; IterationTime: %.9f;  SamplesPerSecond: %.9f\n",
        iter, ms, 10.0 / (1.0 + static_cast<double>(iter) * 1e-4), 9.29 - ms / 1e4, ms / 1000,
        4000.0 / ms);
    block.append(buf, static_cast<size_t>(n));
    for (int k = 0; k < 12; ++k) {
      const int m = std::snprintf(
          buf, sizeof buf,
          "[2022-06-29 01:26:11,%03d] [INFO] [logging.py:69:log_dist] [Rank 0] rank=0 time (ms) | "
          "forward_microstep: 1763.23 | backward_microstep: 6377.99 | backward_inner_microstep: "
          "6338.63 | step_microstep: %d.09\n",
          k, 7000 + k);
      block.append(buf, static_cast<size_t>(m));
    }
    out << block;
    written += static_cast<long long>(block.size());
  }
  return path;
}

// The literals the extractor searches in its shared pass: each pattern's search literal, when at
// least 4 bytes long (kSharedLiteralMin in extractor.cpp).
std::vector<std::string> preset_literals(const aerun::CaseSpec& spec) {
  std::vector<std::string> patterns;
  for (const auto& m : spec.metrics) {
    patterns.push_back(m.pattern);
    for (const auto& alt : m.alternatives) patterns.push_back(alt.pattern);
  }
  for (const auto& st : spec.status) patterns.push_back(st.pattern);
  for (const auto* v : {&spec.completion.end, &spec.completion.counter, &spec.completion.restart,
                        &spec.completion.signatures})
    patterns.insert(patterns.end(), v->begin(), v->end());
  for (const auto* p : {&spec.startup.first_step, &spec.startup.job_start, &spec.startup.step_time})
    if (!p->empty()) patterns.push_back(*p);
  std::vector<std::string> lits;
  for (const auto& p : patterns) {
    const std::string lit = aerun::search_literal(p);
    if (lit.size() >= 4 && std::find(lits.begin(), lits.end(), lit) == lits.end())
      lits.push_back(lit);
  }
  return lits;
}

// Reads the file as extract_file does (for_each_chunk) and counts its
// lines, also finding the literals when there are any; prints the time and the counts.
int floor_pass(const std::string& path, std::vector<std::string> literals) {
  const bool find = !literals.empty();
  aerun::MultiLiteral ml(std::move(literals));
  long long lines = 0, hits = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const long long bytes = aerun::for_each_chunk(path, [&](std::string_view c) {
    if (find)
      lines += static_cast<long long>(
          ml.scan(c.data(), c.size(), [&](size_t, size_t, size_t) { ++hits; }));
    else
      lines += static_cast<long long>(aerun::count_newlines(c.data(), c.size()));
  });
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("bytes=%lld\nseconds=%.4f\nlines=%lld\nliteral_hits=%lld\n", bytes, secs, lines,
              hits);
  return 0;
}

// Reads the file as ingest does and computes its SHA-256 (OpenSSL, SHA-NI when the CPU has it):
// what the digest alone costs one core.
int digest_pass(const std::string& path) {
  aerun::Sha256 digest;
  const auto t0 = std::chrono::steady_clock::now();
  const long long bytes =
      aerun::for_each_chunk(path, [&](std::string_view c) { digest.update(c); });
  const std::string hex = digest.hex();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("bytes=%lld\nseconds=%.4f\nsha256=%s\n", bytes, secs, hex.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--floor") {
    aerun::CaseSpec spec;
    spec.name = "bench";
    spec.presets = {"megatron"};
    aerun::apply_presets(spec, {});
    const std::string what = argv[2];
    if (what == "sha256") return digest_pass(argv[3]);
    if (what != "read" && what != "literals") return 2;
    return floor_pass(argv[3],
                      what == "literals" ? preset_literals(spec) : std::vector<std::string>{});
  }
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s LOG | --generate MB\n", argv[0]);
    return 2;
  }
  std::string path = argv[1];
  bool generated = false;
  if (path == "--generate") {
    if (argc < 3) return 2;
    path = generate_log(std::atol(argv[2]));
    generated = true;
    if (argc > 3 && std::string(argv[3]) == "--only-generate") {
      std::printf("%s\n", path.c_str());
      return 0;
    }
  }
  // Every metric, status pattern and the startup pattern of the `megatron` preset.
  aerun::CaseSpec spec;
  spec.name = "bench";
  spec.presets = {"megatron"};
  aerun::apply_presets(spec, {});
  const auto& metrics = spec.metrics;
  const auto& status = spec.status;
  const auto& startup = spec.startup;

  const auto t0 = std::chrono::steady_clock::now();
  auto ex = aerun::extract_file(path, metrics, status, startup);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::ifstream f(path, std::ios::binary | std::ios::ate);
  const auto bytes = static_cast<long long>(f.tellg());
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  std::printf("file=%s\nbytes=%lld\nseconds=%.4f\ngbps=%.3f\npeak_rss_kb=%ld\nlines=%lld\n",
              path.c_str(), bytes, secs, static_cast<double>(bytes) / secs / 1e9, ru.ru_maxrss,
              ex.lines());
  std::printf("startup_line=%lld\nstatus=%s\n", ex.startup_line(),
              ex.status() ? ex.status()->status.c_str() : "");
  for (const auto& m : ex.metrics())
    std::printf("metric.%s=%.6g count=%lld\n", m.name.c_str(), m.value, m.count);
  if (generated && !std::getenv("AERUN_BENCH_KEEP")) std::remove(path.c_str());
  return 0;
}
