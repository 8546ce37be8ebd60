// Tests that read real logs: each expected value is checked against the text of its own line
// before the extractor's value for it is compared (tests/unit/extract/preset_real_logs_test.cpp,
// tests/unit/ingest/device_logs_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "aerun/extract/extractor.hpp"

namespace aerun::testing {

struct LineValue {
  const char* metric;
  long long line;
  const char* text;  // on that line of the log
  double value;
};

// The file's lines as aerun numbers them: "\r\n", "\n" and a lone "\r" (a progress bar's redraw)
// each end one (docs/presets.md; escape sequences, which never span a line end, are left in).
inline std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> out(1);
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\r' && i + 1 < raw.size() && raw[i + 1] == '\n') continue;
    if (raw[i] == '\r' || raw[i] == '\n')
      out.emplace_back();
    else
      out.back() += raw[i];
  }
  return out;
}

// Each value: its text is on its line of the log at path, and the extractor read that metric's
// value from that line.
inline void expect_line_values(const std::string& path, const Extractor& ex,
                               const std::vector<LineValue>& values) {
  const auto lines = lines_of(path);
  const auto metrics = ex.metrics();
  for (const LineValue& v : values) {
    SCOPED_TRACE(v.metric);
    ASSERT_LE(v.line, static_cast<long long>(lines.size()));
    EXPECT_NE(lines[v.line - 1].find(v.text), std::string::npos) << lines[v.line - 1];
    const auto it = std::find_if(metrics.begin(), metrics.end(),
                                 [&](const MetricValue& m) { return m.name == v.metric; });
    ASSERT_NE(it, metrics.end());
    EXPECT_DOUBLE_EQ(it->value, v.value);
    EXPECT_EQ(it->source_line, v.line);
  }
}

}  // namespace aerun::testing
