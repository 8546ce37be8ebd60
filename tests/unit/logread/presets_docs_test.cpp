// docs/presets.md is a promise: each preset's metric table there is the preset as built.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "aerun/logread/presets.hpp"

namespace aerun {
namespace {

std::string read_docs() {
  std::ifstream in(std::string(AERUN_SOURCE_DIR) + "/docs/presets.md");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string md_code(const std::string& pattern) {
  std::string out = "`";
  for (char c : pattern) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out + "`";
}

const char* reduction_name(Reduction r) {
  switch (r) {
    case Reduction::First:
      return "first";
    case Reduction::Last:
      return "last";
    case Reduction::Mean:
      return "mean";
    case Reduction::Median:
      return "median";
    case Reduction::Min:
      return "min";
    case Reduction::Max:
      return "max";
    case Reduction::Count:
      return "count";
    case Reduction::Sum:
      return "sum";
  }
  return "?";
}

std::string scaled(const std::string& pattern, double scale) {
  return md_code(pattern) + (scale != 1 ? fmt::format(" ×{:g}", scale) : "");
}

// The metric table of a preset as docs/presets.md shows it.
std::string metric_table(const Preset& p) {
  std::string t =
      "| metric | unit | reduce | progress | matches (RE2; a later pattern is used only on a line "
      "the earlier ones do not match) |\n|---|---|---|---|---|\n";
  for (const auto& m : p.metrics) {
    std::string cell = scaled(m.pattern, m.scale);
    for (const auto& a : m.alternatives) cell += "<br>" + scaled(a.pattern, a.scale);
    t += fmt::format("| `{}` | {} | {} | {} | {} |\n", m.name, m.unit.empty() ? "-" : m.unit,
                     reduction_name(m.reduce), m.progress ? "yes" : "", cell);
  }
  return t;
}

TEST(PresetsDocs, EveryPresetsMetricTableIsThePresetAsBuilt) {
  const std::string docs = read_docs();
  for (const auto& p : builtin_presets()) {
    if (p.metrics.empty()) continue;
    const std::string table = metric_table(p);
    EXPECT_NE(docs.find(table), std::string::npos)
        << "docs/presets.md lacks (or differs from) the table of " << p.name << "@" << p.version
        << "; expected:\n"
        << table;
  }
}

}  // namespace
}  // namespace aerun
