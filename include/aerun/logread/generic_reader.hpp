// The generic reader: reads the progress of any training log by its shape, with no pattern of any
// framework (docs/presets.md, "Reading a log it was not taught"). Every line with a digit is cut
// into tokens and read with the key/value grammars people print; lines are grouped by template
// (the line with its numbers masked: Drain's leaf, He et al., ICWS 2017, without its similarity
// merge, since a progress line's words do not change and only its numbers do); a template that
// repeats with a counter that grows (or a training metric that changes) is progress, and the keyed
// numbers of the training and evaluation lines are metrics, under the one canonical vocabulary
// (vocabulary.hpp). Presets come first: the Extractor uses what this reader found only when no
// metric of the case or its presets matched a line.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aerun/record/run_record.hpp"

namespace aerun {

// What the generic reader found in a log.
struct GenericFindings {
  std::vector<MetricValue> metrics;  // canonical names first seen first; each traced to its line
  long long progress_lines = 0;      // lines of progress templates
  long long last_progress_line = 0;
  std::string last_progress_text;
  long long end_line = 0;  // a line saying training finished (end idioms), 0: none
  // A closing report (the whole run's time, its final result: closing_report.hpp) printed once
  // after the last progress line, 0: none. The end of training unless a line after it says the
  // run failed (Extractor::describe).
  long long closing_line = 0;
  // The last progress line's counter: done and planned (equal when every counter on the line and
  // the last epoch counter reached their totals).
  std::optional<double> counter_done, counter_planned;
  long long counter_line = 0;
  // A loss printed as nan or inf on its last lines (it became so and stayed so): the last such
  // line, when no progress line follows it (0: none).
  long long diverged_line = 0;
  std::string diverged_text;
};

// One line of `--explain`: a template and what was read from it.
struct TemplateExplained {
  std::string text;     // the template (numbers as #), cut to 200 bytes
  std::string example;  // its first line, cut to 200 bytes
  long long first_line = 0, last_line = 0, lines = 0;
  std::string role;  // "progress", "evaluation", "summary", "not read"
  std::string why;   // why it has that role
  struct Key {
    std::string key;   // as printed
    std::string name;  // stored under
    std::string unit;
    std::string why;  // how the name was found
    double last = 0;
    long long last_line = 0;
  };
  std::vector<Key> keys;
};

class GenericReader {
 public:
  GenericReader();
  ~GenericReader();
  GenericReader(GenericReader&&) noexcept;
  GenericReader& operator=(GenericReader&&) noexcept;

  // One line of the log (without its line end; escape sequences already removed), 1-based.
  void line(std::string_view text, long long line_no);
  // The lines of the part of the log read after this one's, numbered from 1 in that part: they
  // are line_offset + their numbers in the whole log.
  void append(GenericReader&& next, long long line_offset);

  // Lines of progress templates so far (a template's earlier lines counted once it shows it is
  // progress): what the Extractor keeps beside each status line, for the judge.
  long long progress_so_far() const;
  // The last progress line so far and its number (0: none yet), for the stall watchdog.
  const std::string& last_progress_text() const;
  long long last_progress_line() const;

  GenericFindings findings() const;
  // Templates with their roles and keys, most lines first (at most `limit`).
  std::vector<TemplateExplained> explain(size_t limit = 40) const;

  // Templates kept at most (a log of a million distinct lines keeps its most frequent ones).
  static constexpr size_t kMaxTemplates = 2048;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aerun
