// `--preset auto`: a log's formats from its first lines.
#include <algorithm>
#include <fstream>

#include "aerun/logread/presets.hpp"
#include "aerun/extract/extractor.hpp"
#include "aerun/ingest/ingest.hpp"
#include "aerun/util/error.hpp"

namespace aerun {

namespace {

constexpr size_t kHeadBytes = 256u << 10;

}  // namespace

const std::vector<std::string>& PresetDetector::candidates() {
  // Structured and specific formats first, so that on a metric name two presets share the one
  // whose line is the more specific is read (the first listed preset wins). `startup` is a study,
  // not a format; `stronghold` is read from megatron's lines and named by the case.
  static const std::vector<std::string> names = {
      "mlperf",    "megatron", "deepspeed", "nanotron",   "torchtitan", "maxtext", "composer",
      "torchtune", "nemo",     "nanogpt",   "hf-trainer", "lightning",  "ezpz"};
  return names;
}

PresetDetector::PresetDetector() {
  // One status name per preset: its signature lines and its progress patterns.
  std::vector<StatusPattern> patterns;
  for (const auto& name : candidates()) {
    const Preset* p = find_preset(name);
    const SourceLoc loc{"preset " + p->name + "@" + std::to_string(p->version), 0, 0};
    for (const auto& s : p->completion.signatures) patterns.push_back({s, name, loc});
    for (const auto& m : p->metrics) {
      if (!m.progress) continue;
      patterns.push_back({m.pattern, name, loc});
      for (const auto& a : m.alternatives) patterns.push_back({a.pattern, name, loc});
    }
  }
  signatures_ = std::make_unique<Extractor>(std::vector<MetricSpec>{}, patterns, StartupSpec{});
}

PresetDetector::~PresetDetector() = default;

std::vector<std::string> PresetDetector::detect(const std::string& path) const {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SystemError("cannot open " + path);
  std::string head(kHeadBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  if (head.size() == kHeadBytes) {
    const size_t nl = head.rfind('\n');
    if (nl != std::string::npos) head.resize(nl + 1);
  }
  Extractor ex = signatures_->fresh();
  ex.feed(head);
  ex.finish();
  RunEvidence e;
  ex.describe(e);
  std::vector<std::string> found;
  for (const auto& name : candidates())
    if (std::any_of(e.hits.begin(), e.hits.end(),
                    [&](const LogHit& h) { return h.status == name; }))
      found.push_back(name);
  return found;
}

}  // namespace aerun
