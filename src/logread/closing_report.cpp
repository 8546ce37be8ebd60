#include "logread/closing_report.hpp"

#include <string.h>

#include <array>
#include <string>

#include "logread/ascii_class.hpp"

namespace aerun::logread {

namespace {

bool has(const std::string& s, std::string_view w) {
  return s.find(w) != std::string::npos;
}

// Whether s (lowercase) holds `word` as a whole word (letters on neither side).
bool has_word(const std::string& s, std::string_view word) {
  for (size_t at = s.find(word); at != std::string::npos; at = s.find(word, at + 1)) {
    const bool left = at == 0 || !is_alpha(s[at - 1]);
    const size_t end = at + word.size();
    const bool right = end >= s.size() || !is_alpha(s[end]);
    if (left && right) return true;
  }
  return false;
}

// Whether s (lowercase) holds a duration: a number followed by a time unit (`2.997 s`, `7m`,
// `21 minutes`, `1311 sec`), or a clock time's h:mm(:ss).
bool has_duration(const std::string& s) {
  static constexpr auto kUnits = std::to_array<std::string_view>(
      {"ms", "s", "sec", "secs", "second", "seconds", "m", "min", "mins", "minute", "minutes", "h",
       "hr", "hrs", "hour", "hours"});
  for (size_t i = 0; i < s.size(); ++i) {
    if (!is_digit(s[i]) || (i > 0 && (is_digit(s[i - 1]) || s[i - 1] == '.'))) continue;
    size_t j = i;
    while (j < s.size() && is_digit(s[j])) ++j;
    // h:mm or h:mm:ss (not a ratio 3/4, not a date's 2024-01-01)
    if (j + 2 < s.size() && s[j] == ':' && is_digit(s[j + 1]) && is_digit(s[j + 2]) &&
        (j + 3 >= s.size() || !is_digit(s[j + 3])))
      return true;
    if (j < s.size() && s[j] == '.')
      for (++j; j < s.size() && is_digit(s[j]);) ++j;
    size_t k = j;
    while (k < s.size() && s[k] == ' ') ++k;
    size_t e = k;
    while (e < s.size() && is_alpha(s[e])) ++e;
    const std::string_view unit(s.data() + k, e - k);
    for (std::string_view u : kUnits)
      if (unit == u) return true;
    i = j;
  }
  return false;
}

}  // namespace

bool reports_run_totals(std::string_view line) {
  if (line.size() > 300) return false;
  // A cheap look first: every word of time and `final` has one of these.
  bool maybe = false;
  for (std::string_view w :
       {"ime", "IME", "ook", "OOK", "lapse", "LAPSE", "inal", "INAL", "urati", "URATI"})
    if (::memmem(line.data(), line.size(), w.data(), w.size())) {
      maybe = true;
      break;
    }
  if (!maybe) return false;
  std::string s(line);
  bool digit = false;
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    digit |= is_digit(c);
  }
  if (!digit) return false;
  // A period of the loop or a phase of it: not the whole run.
  for (std::string_view w : {"epoch", "step",   "iter",       "batch",  "/it",  "it/s",   "eta",
                             "eval",  "valid",  "checkpoint", "ckpt",   "load", "saving", "saved",
                             "data",  "warmup", "warm-up",    "compil", "init", "setup",  "per "})
    if (has(s, w)) return false;
  // Nor a failure's words (`RuntimeError: CUDA out of memory ... total capacity`).
  for (std::string_view w : {"error", "exception", "fail", "warn", "traceback", "killed", "memory",
                             "abort", "fatal", "timeout", "timed out"})
    if (has(s, w)) return false;
  if (has_word(s, "final") && (has(s, ":") || has(s, "=")) && !has(s, "final lr")) return true;
  const bool time_word = has_word(s, "time") || has(s, "_time") || has(s, "time_") ||
                         has_word(s, "took") || has_word(s, "elapsed") || has_word(s, "duration") ||
                         has_word(s, "runtime");
  if (!time_word) return false;
  return has_duration(s) || has_word(s, "total") || has(s, "total_") || has(s, "_total");
}

}  // namespace aerun::logread
