// The running reduction of one metric of the extractor: its values so far (first, last, min,
// max, an exact sum, the values a median needs, the series), and the value it reduces to.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/extract/extractor.hpp"
#include "extract/exact_sum.hpp"
#include "extract/parse_number.hpp"

namespace aerun::extract_detail {

// A line cut to at most n bytes without splitting a UTF-8 sequence.
inline std::string truncate_utf8(std::string_view line, size_t n) {
  if (line.size() <= n) return std::string(line);
  while (n > 0 && (static_cast<unsigned char>(line[n]) & 0xC0) == 0x80) --n;
  return std::string(line.substr(0, n));
}

// The running reduction of one metric.
struct MetricState {
  MetricSpec spec;
  long long matched = 0;      // lines whose pattern matched (before skip and number checks)
  long long taken_line = 0;   // the last line that gave this metric a value (one per line)
  long long seen = 0;         // matches, skipped ones included
  long long not_numbers = 0;  // captures that were not a finite decimal number (not used)
  long long first_not_number_line = 0;
  std::string first_not_number;  // that capture, cut to 40 bytes
  long long count = 0;           // matches used
  double first = 0, last = 0, min = 0, max = 0;
  long long first_line = 0, last_line = 0, min_line = 0, max_line = 0;
  ExactSum sum;
  std::vector<double> values;  // medians only
  std::vector<SeriesPoint> points;
  // A part of a log read after others (Extractor::follows_earlier_part): the first `skip` values
  // are kept here, not skipped, since whether they are skipped depends on the parts before.
  bool defer_skip = false;
  struct Deferred {
    std::optional<double> value;  // scaled; nullopt: a count match whose capture is no number
    long long line = 0;
  };
  std::vector<Deferred> deferred;

  // A line matched one of the metric's patterns and captured cap (scaled by scale).
  void on_match(std::string_view cap, double scale, long long line_no) {
    ++matched;
    taken_line = line_no;
    const auto v = parse_number(cap);
    if (!v && spec.reduce != Reduction::Count && ++not_numbers == 1) {
      first_not_number_line = line_no;
      first_not_number = truncate_utf8(cap, 40);
    }
    std::optional<double> scaled;
    if (v) scaled = *v * scale;
    if (spec.reduce == Reduction::Count) {
      if (++seen <= spec.skip) {
        if (defer_skip) deferred.push_back({scaled, line_no});
        return;
      }
      add_count(scaled, line_no);
      return;
    }
    if (!v) return;
    if (++seen <= spec.skip) {
      if (defer_skip) deferred.push_back({scaled, line_no});
      return;
    }
    add(*scaled, line_no);
  }

  // A `reduce: count` match that counts.
  void add_count(std::optional<double> v, long long line_no) {
    ++count;
    last_line = line_no;
    if (spec.series && v) points.push_back({count - 1, *v, line_no});
  }

  void add(double v, long long line_no) {
    if (count == 0) {
      first = min = max = v;
      first_line = min_line = max_line = line_no;
    } else if (v < min) {
      min = v;
      min_line = line_no;
    } else if (v > max) {
      max = v;
      max_line = line_no;
    }
    last = v;
    last_line = line_no;
    sum.add(v);
    if (spec.reduce == Reduction::Median) values.push_back(v);
    if (spec.series) points.push_back({count, v, line_no});
    ++count;
  }

  // Appends the state of the part of the log read after this one (b, with b.defer_skip; its
  // lines numbered from 1): as if this state had seen b's matches too, `line_offset` lines on.
  void append(MetricState&& b, long long line_offset) {
    matched += b.matched;
    if (b.not_numbers > 0 && not_numbers == 0) {
      first_not_number_line = b.first_not_number_line + line_offset;
      first_not_number = std::move(b.first_not_number);
    }
    not_numbers += b.not_numbers;
    // Of b's first values, those past this part's skip count.
    const long long still_skipped = std::max(0LL, spec.skip - seen);
    for (size_t i = static_cast<size_t>(std::min<long long>(still_skipped, b.deferred.size()));
         i < b.deferred.size(); ++i) {
      const Deferred& d = b.deferred[i];
      if (spec.reduce == Reduction::Count)
        add_count(d.value, d.line + line_offset);
      else
        add(*d.value, d.line + line_offset);
    }
    seen += b.seen;
    if (spec.series)
      for (SeriesPoint p : b.points) {
        p.index += count;
        p.source_line += line_offset;
        points.push_back(p);
      }
    if (b.count == 0) return;
    if (spec.reduce != Reduction::Count) {
      if (count == 0) {
        first = b.first;
        first_line = b.first_line + line_offset;
        min = b.min;
        min_line = b.min_line + line_offset;
        max = b.max;
        max_line = b.max_line + line_offset;
      } else {
        if (b.min < min) {
          min = b.min;
          min_line = b.min_line + line_offset;
        }
        if (b.max > max) {
          max = b.max;
          max_line = b.max_line + line_offset;
        }
      }
      last = b.last;
      sum.merge(b.sum);
      values.insert(values.end(), b.values.begin(), b.values.end());
    }
    last_line = b.last_line + line_offset;
    count += b.count;
  }

  MetricValue reduced() const {
    MetricValue m{spec.name, last, spec.unit, count, last_line};
    switch (spec.reduce) {
      case Reduction::First:
        m.value = first;
        m.source_line = first_line;
        break;
      case Reduction::Last:
        break;
      case Reduction::Min:
        m.value = min;
        m.source_line = min_line;
        break;
      case Reduction::Max:
        m.value = max;
        m.source_line = max_line;
        break;
      case Reduction::Mean:
        m.value = sum.value() / static_cast<double>(count);
        break;
      case Reduction::Sum:
        m.value = sum.value();
        break;
      case Reduction::Count:
        m.value = static_cast<double>(count);
        break;
      case Reduction::Median: {
        std::vector<double> v = values;
        const size_t mid = v.size() / 2;
        std::nth_element(v.begin(), v.begin() + mid, v.end());
        m.value = v[mid];
        if (v.size() % 2 == 0)
          m.value = (*std::max_element(v.begin(), v.begin() + mid) + m.value) / 2;
        break;
      }
    }
    return m;
  }
};

}  // namespace aerun::extract_detail
