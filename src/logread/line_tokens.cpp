#include "logread/line_tokens.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "logread/ascii_class.hpp"

namespace aerun::logread {

namespace {

bool is_high(char c) {
  return static_cast<unsigned char>(c) >= 0x80;
}
bool is_word_char(char c) {
  return is_alpha(c) || is_digit(c) || c == '_' || is_high(c);
}

// The length of a progress-bar glyph at s[i] (UTF-8 block elements U+2580-U+259F, box drawing
// U+2500-U+257F as rich's ━ ╸ ╺), 0 if none.
size_t bar_glyph(std::string_view s, size_t i) {
  if (i + 2 < s.size() && static_cast<unsigned char>(s[i]) == 0xE2) {
    const auto b1 = static_cast<unsigned char>(s[i + 1]);
    if (b1 == 0x96 || b1 == 0x94 || b1 == 0x95) return 3;
  }
  return 0;
}

// Units written glued to a number or as the word after it, with their normal spelling.
struct UnitName {
  std::string_view written, unit;
};
constexpr std::array kUnits{
    UnitName{"ms", "ms"},
    UnitName{"msec", "ms"},
    UnitName{"s", "s"},
    UnitName{"sec", "s"},
    UnitName{"secs", "s"},
    UnitName{"second", "s"},
    UnitName{"seconds", "s"},
    UnitName{"min", "min"},
    UnitName{"mins", "min"},
    UnitName{"minutes", "min"},
    UnitName{"h", "h"},
    UnitName{"hours", "h"},
    UnitName{"us", "us"},
    UnitName{"µs", "us"},
    UnitName{"%", "%"},
    UnitName{"KB", "KB"},
    UnitName{"KiB", "KiB"},
    UnitName{"MB", "MB"},
    // Loggers write MB as "Mb" (YOLOX: f"mem: {gpu_mem_usage():.0f}Mb", a torch byte count).
    UnitName{"Mb", "MB"},
    UnitName{"Gb", "GB"},
    UnitName{"MiB", "MiB"},
    UnitName{"GB", "GB"},
    UnitName{"GiB", "GiB"},
    UnitName{"TB", "TB"},
    UnitName{"TiB", "TiB"},
    UnitName{"it/s", "it/s"},
    UnitName{"/s", "samples/s"},
    UnitName{"its/s", "it/s"},
    UnitName{"s/it", "s/it"},
    UnitName{"ms/it", "ms/it"},
    UnitName{"ms/step", "ms/step"},
    UnitName{"s/step", "s/step"},
    UnitName{"us/step", "us/step"},
    UnitName{"ms/iter", "ms/step"},
    UnitName{"s/iter", "s/step"},
    UnitName{"sec/step", "s/step"},
    UnitName{"sec/batch", "s/step"},
    UnitName{"sec/iter", "s/step"},
    UnitName{"sec/it", "s/it"},
    UnitName{"ms/batch", "ms/step"},
    UnitName{"s/batch", "s/step"},
    UnitName{"steps/s", "steps/s"},
    UnitName{"steps/sec", "steps/s"},
    UnitName{"step/s", "steps/s"},
    UnitName{"batches/s", "steps/s"},
    UnitName{"samples/s", "samples/s"},
    UnitName{"samples/sec", "samples/s"},
    UnitName{"sample/s", "samples/s"},
    UnitName{"samples/second", "samples/s"},
    UnitName{"examples/s", "samples/s"},
    UnitName{"examples/sec", "samples/s"},
    UnitName{"img/s", "samples/s"},
    UnitName{"imgs/s", "samples/s"},
    UnitName{"imgs/sec", "samples/s"},
    UnitName{"images/s", "samples/s"},
    UnitName{"images/sec", "samples/s"},
    UnitName{"seq/s", "samples/s"},
    UnitName{"sequences/s", "samples/s"},
    UnitName{"tokens/s", "tokens/s"},
    UnitName{"tokens/sec", "tokens/s"},
    UnitName{"tok/s", "tokens/s"},
    UnitName{"toks/s", "tokens/s"},
    UnitName{"tokens/second", "tokens/s"},
    UnitName{"words/s", "tokens/s"},
    UnitName{"words/sec", "tokens/s"},
    UnitName{"wps", "tokens/s"},
    UnitName{"updates/s", "steps/s"},
    UnitName{"updates/sec", "steps/s"},
    UnitName{"tflops", "TFLOP/s"},
    UnitName{"TFLOPS", "TFLOP/s"},
    UnitName{"TFLOPs", "TFLOP/s"},
    UnitName{"TFLOP/s", "TFLOP/s"},
    UnitName{"Tflops", "TFLOP/s"},
};

std::string_view find_unit(std::string_view w) {
  for (const auto& u : kUnits)
    if (u.written == w) return u.unit;
  // Case-insensitively for the longer ones (SAMPLES/S, Sec).
  if (w.size() >= 3)
    for (const auto& u : kUnits)
      if (iequals(u.written, w)) return u.unit;
  return {};
}

// Reads digits [. digits] [e[+-]digits] from s[i]; returns the end (i when none).
size_t scan_decimal(std::string_view s, size_t i) {
  size_t j = i;
  while (j < s.size() && is_digit(s[j])) ++j;
  if (j < s.size() && s[j] == '.' && j + 1 < s.size() && is_digit(s[j + 1])) {
    ++j;
    while (j < s.size() && is_digit(s[j])) ++j;
  } else if (j < s.size() && s[j] == '.' && j > i &&
             (j + 1 == s.size() || !is_word_char(s[j + 1]))) {
    ++j;  // "3." as printed by some loggers
  }
  if (j == i) return i;
  if (j + 1 < s.size() && (s[j] == 'e' || s[j] == 'E')) {
    size_t k = j + 1;
    if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
    if (k < s.size() && is_digit(s[k])) {
      while (k < s.size() && is_digit(s[k])) ++k;
      j = k;
    }
  }
  return j;
}

// The end of a duration of two or more parts at s[i], `2m 38s`, `2h 51m 42s`, `1h 47min 46s`,
// `3d 4h` (whole numbers, the last part may have a fraction; each unit smaller than the one
// before), with its length in seconds; or i when there is none.
size_t scan_hms(std::string_view s, size_t i, double& secs) {
  secs = 0;
  size_t j = i, parts = 0, end = i;
  double last_unit = 1e18;
  while (j < s.size() && is_digit(s[j])) {
    const size_t a = j;
    j = scan_decimal(s, j);
    const double v = to_double(s.substr(a, j - a));
    size_t u = j;
    while (u < s.size() && is_alpha(s[u])) ++u;
    const std::string_view w = s.substr(j, u - j);
    double unit = 0;
    if (w == "d")
      unit = 86400;
    else if (w == "h")
      unit = 3600;
    else if (w == "m" || w == "min")
      unit = 60;
    else if (w == "s")
      unit = 1;
    if (unit == 0 || unit >= last_unit || (u < s.size() && is_word_char(s[u]))) break;
    if (!is_whole(v) && unit != 1) break;
    secs += v * unit;
    last_unit = unit;
    ++parts;
    end = u;
    if (u + 1 < s.size() && s[u] == ' ' && is_digit(s[u + 1]))
      j = u + 1;
    else
      break;
  }
  return parts >= 2 ? end : i;
}

// The end of `np.float64(-1.5)`, `numpy.int64(3)` or `tensor(0.69, device='cuda:0', ...)` at
// s[i] (after its closing bracket), or i when s[i] starts none.
size_t wrapped_number(std::string_view s, size_t i) {
  size_t j = i;
  if (s.substr(i).starts_with("np.") || s.substr(i).starts_with("numpy.")) {
    j = s.find('.', i) + 1;
    const size_t k = j;
    while (j < s.size() && (is_alpha(s[j]) || is_digit(s[j]) || s[j] == '_')) ++j;
    const std::string_view type = s.substr(k, j - k);
    if (!(type.starts_with("float") || type.starts_with("int") || type.starts_with("uint")))
      return i;
  } else if (s.substr(i).starts_with("tensor")) {
    j = i + 6;
  } else {
    return i;
  }
  if (j >= s.size() || s[j] != '(') return i;
  size_t a = j + 1;
  if (a < s.size() && s[a] == '-') ++a;
  const size_t b = scan_decimal(s, a);
  if (b == a || b >= s.size() || (s[b] != ')' && s[b] != ',')) return i;
  const size_t close = s.find(')', b);
  return close == std::string_view::npos || close - b > 120 ? i : close + 1;
}

// 2024-01-01 (then an optional [T ]hh:mm:ss[.,frac][Z|+hh:mm]), or 2024/01/01: the end, or i.
size_t scan_date(std::string_view s, size_t i) {
  auto digits = [&](size_t at, size_t n) {
    if (at + n > s.size()) return false;
    for (size_t k = 0; k < n; ++k)
      if (!is_digit(s[at + k])) return false;
    return true;
  };
  if (!digits(i, 4) || i + 10 > s.size()) return i;
  const char sep = s[i + 4];
  if ((sep != '-' && sep != '/') || !digits(i + 5, 2) || s[i + 7] != sep || !digits(i + 8, 2))
    return i;
  size_t j = i + 10;
  if (j + 8 <= s.size() && (s[j] == 'T' || s[j] == ' ' || s[j] == '-' || s[j] == '_') &&
      digits(j + 1, 2) && s[j + 3] == ':' && digits(j + 4, 2)) {
    j += 6;
    if (j + 2 < s.size() && s[j] == ':' && digits(j + 1, 2)) j += 3;
    if (j + 1 < s.size() && (s[j] == '.' || s[j] == ',') && is_digit(s[j + 1])) {
      ++j;
      while (j < s.size() && is_digit(s[j])) ++j;
    }
    if (j < s.size() && s[j] == 'Z') ++j;
  }
  return j;
}

// [h]h:mm[:ss[.frac]]: the end and the seconds, or i.
size_t scan_duration(std::string_view s, size_t i, double& seconds) {
  size_t j = i;
  double parts[3];
  int n = 0;
  while (n < 3) {
    const size_t k = j;
    while (j < s.size() && is_digit(s[j])) ++j;
    if (j == k || (n > 0 && j - k != 2)) return i;
    parts[n++] = to_double(s.substr(k, j - k));
    if (j + 2 < s.size() && s[j] == ':' && is_digit(s[j + 1]) && is_digit(s[j + 2]) && n < 3) {
      ++j;
      continue;
    }
    break;
  }
  if (n < 2) return i;
  if (j + 1 < s.size() && s[j] == '.' && is_digit(s[j + 1])) {
    const size_t k = j;
    ++j;
    while (j < s.size() && is_digit(s[j])) ++j;
    parts[n - 1] += to_double(s.substr(k, j - k));
  }
  seconds = n == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : parts[0] * 60 + parts[1];
  return j;
}

// `N day, h:mm:ss` or `N days, h:mm:ss` at i (see tokenize): its end and seconds, or i.
size_t scan_timedelta_days(std::string_view s, size_t i, double& seconds) {
  size_t j = i;
  while (j < s.size() && is_digit(s[j])) ++j;
  if (j == i || j - i > 6) return i;
  const double days = to_double(s.substr(i, j - i));
  const std::string_view rest = s.substr(j);
  size_t k;
  if (rest.starts_with(" days, "))
    k = j + 7;
  else if (rest.starts_with(" day, "))
    k = j + 6;
  else
    return i;
  double secs = 0;
  const size_t e = scan_duration(s, k, secs);
  if (e == k || (e < s.size() && is_word_char(s[e]))) return i;
  seconds = days * 86400 + secs;
  return e;
}

}  // namespace

double to_double(std::string_view s) {
  double v = 0;
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec == std::errc::result_out_of_range) {
    // strtod's answer, which from_chars leaves to the caller: `1e999` is inf, `1e-999` zero
    // (from_chars leaves v as it was: 0 for both, a huge value stored as nought).
    const std::string copy(s.data(), r.ptr);
    v = std::strtod(copy.c_str(), nullptr);
  }
  return v;
}

bool iequals(std::string_view a, std::string_view b) {
  const auto lower = [](char c) {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  };
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

std::string_view unit_word(std::string_view w) {
  return find_unit(w);
}

void tokenize(std::string_view line, std::vector<Token>& out) {
  out.clear();
  if (line.size() > kMaxTokenBytes) line = line.substr(0, kMaxTokenBytes);
  const std::string_view s = line;
  size_t i = 0;
  auto push = [&](TokKind k, size_t start, size_t end) -> Token& {
    Token& t = out.emplace_back();
    t.kind = k;
    t.start = static_cast<uint32_t>(start);
    t.len = static_cast<uint32_t>(end - start);
    t.text = s.substr(start, end - start);
    return t;
  };
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\t') {
      size_t j = i;
      bool tab = false;
      while (j < s.size() && (s[j] == ' ' || s[j] == '\t')) tab |= s[j++] == '\t';
      push(TokKind::Space, i, j).wide = tab || j - i >= 2;
      i = j;
      continue;
    }
    if (const size_t g = bar_glyph(s, i); g > 0) {
      size_t j = i;
      while (j < s.size()) {
        if (const size_t h = bar_glyph(s, j); h > 0)
          j += h;
        else if (s[j] == ' ' && j + 1 < s.size() && bar_glyph(s, j + 1) > 0)
          ++j;
        else
          break;
      }
      push(TokKind::Bar, i, j);
      i = j;
      continue;
    }
    if ((c == '=' || c == '#' || c == '.' || c == '>' || c == '-' || c == '*') &&
        i + 2 < s.size() && s[i + 1] == c && s[i + 2] == c) {  // ===>...., ###, ----
      size_t j = i;
      while (j < s.size() && (s[j] == '=' || s[j] == '#' || s[j] == '.' || s[j] == '>' ||
                              s[j] == '-' || s[j] == '*'))
        ++j;
      push(TokKind::Bar, i, j);
      i = j;
      continue;
    }
    const bool prev_word = i > 0 && (is_word_char(s[i - 1]) || s[i - 1] == '.');
    const bool sign =
        (c == '-' || c == '+') && i + 1 < s.size() &&
        (is_digit(s[i + 1]) || (s[i + 1] == '.' && i + 2 < s.size() && is_digit(s[i + 2]))) &&
        !prev_word;
    if (!prev_word &&
        (is_digit(c) || sign || (c == '.' && i + 1 < s.size() && is_digit(s[i + 1])))) {
      if (const size_t d = scan_date(s, i); d > i) {
        push(TokKind::Stamp, i, d);
        i = d;
        continue;
      }
      if (is_digit(c)) {
        double secs = 0;
        // Python's str(datetime.timedelta) past a day: `1 day, 7:44:21`, `9 days, 13:01:27`
        // (CPython Lib/datetime.py timedelta.__str__: "%d day%s, " then "%d:%02d:%02d"), the
        // eta of every trainer that prints one so (mmengine, PaddlePaddle's, detectron2's).
        if (const size_t d = scan_timedelta_days(s, i, secs); d > i) {
          Token& t = push(TokKind::Duration, i, d);
          t.value = secs;
          i = d;
          continue;
        }
        if (const size_t d = scan_duration(s, i, secs); d > i) {
          // A time of day after a date or at the start of a line is a timestamp.
          const bool stamp = !out.empty() && out.back().kind == TokKind::Space && out.size() >= 2 &&
                             out[out.size() - 2].kind == TokKind::Stamp;
          Token& t = push(stamp ? TokKind::Stamp : TokKind::Duration, i, d);
          t.value = secs;
          i = d;
          continue;
        }
      }
      const size_t num_start = (c == '-' || c == '+') ? i + 1 : i;
      size_t j = scan_decimal(s, num_start);
      if (j == num_start) {
        push(TokKind::Punct, i, i + 1).punct = c;
        ++i;
        continue;
      }
      // 1.2.3 (a version), 0x1f, 10.0.0.1: a word, not a number.
      if (j < s.size() && s[j] == '.' && j + 1 < s.size() && is_digit(s[j + 1])) {
        size_t k = j;
        while (k < s.size() && (is_word_char(s[k]) || s[k] == '.')) ++k;
        push(TokKind::Word, i, k);
        i = k;
        continue;
      }
      // 1,234,567 (thousands): one number, when every group after the first has 3 digits.
      if (j < s.size() && s[j] == ',' && j - num_start <= 3 && j + 3 < s.size() + 0) {
        size_t k = j;
        std::string digits(s.substr(i, j - i));
        while (k + 3 < s.size() + 1 && s[k] == ',' && is_digit(s[k + 1]) && k + 3 < s.size() &&
               is_digit(s[k + 2]) && is_digit(s[k + 3]) &&
               (k + 4 >= s.size() || !is_digit(s[k + 4]))) {
          digits += s.substr(k + 1, 3);
          k += 4;
        }
        if (k > j && (k >= s.size() || s[k] != '.')) {
          Token& t = push(TokKind::Number, i, k);
          t.value = to_double(digits);
          i = k;
          continue;
        }
      }
      double value = to_double(s.substr(i, j - i));
      // a/b: a counter (120/1000, 120/ 1000).
      if (j + 1 < s.size() && s[j] == '/' && c != '-' && c != '+') {
        size_t k = j + 1;
        while (k < s.size() && s[k] == ' ') ++k;
        const size_t e = scan_decimal(s, k);
        if (e > k && (e == s.size() || !is_alpha(s[e]))) {
          // 09/02 02:37:24 or 09/02/2024: a date, not a counter.
          double secs = 0;
          if (e < s.size() && s[e] == '/' && e + 1 < s.size() && is_digit(s[e + 1])) {
            size_t d = e + 1;
            while (d < s.size() && is_digit(s[d])) ++d;
            push(TokKind::Stamp, i, d);
            i = d;
            continue;
          }
          if (e + 1 < s.size() && s[e] == ' ' && is_digit(s[e + 1]) && k == j + 1 && e - i <= 5) {
            if (const size_t d = scan_duration(s, e + 1, secs); d > e + 1) {
              push(TokKind::Stamp, i, d);
              i = d;
              continue;
            }
          }
          // 17942/17962 tok/s (OpenNMT's source/target rates): two values of a unit, no counter.
          if (e + 1 < s.size() && s[e] == ' ' && is_alpha(s[e + 1])) {
            size_t w = e + 1;
            while (w < s.size() && (is_word_char(s[w]) || s[w] == '/')) ++w;
            if (const auto unit = find_unit(s.substr(e + 1, w - e - 1)); !unit.empty()) {
              Token& t = push(TokKind::Number, i, w);
              t.value = value;
              t.unit = unit;
              i = w;
              continue;
            }
          }
          Token& t = push(TokKind::Fraction, i, e);
          t.value = value;
          t.total = to_double(s.substr(k, e - k));
          i = e;
          continue;
        }
      }
      // `200 / 200` (pix2pix's "End of epoch 200 / 200"): a counter written with blanks, when
      // both are whole numbers and the first does not pass the second.
      if (j + 3 < s.size() && s[j] == ' ' && s[j + 1] == '/' && s[j + 2] == ' ' &&
          is_digit(s[j + 3]) && c != '-' && c != '+' && is_whole(value)) {
        size_t e = j + 3;
        while (e < s.size() && is_digit(s[e])) ++e;
        const double total = to_double(s.substr(j + 3, e - j - 3));
        if ((e == s.size() || !(is_word_char(s[e]) || s[e] == '.')) && value <= total &&
            total > 0) {
          Token& t = push(TokKind::Fraction, i, e);
          t.value = value;
          t.total = total;
          i = e;
          continue;
        }
      }
      // `2m 38s`, `2h 51m 42s`, `1h 47min 46s` (CatBoost's total and remaining, StyleGAN's time):
      // a duration of two or more parts.
      if (is_digit(c) && j < s.size() && (s[j] == 'h' || s[j] == 'm')) {
        double secs = 0;
        if (const size_t d = scan_hms(s, i, secs); d > i) {
          Token& t = push(TokKind::Duration, i, d);
          t.value = secs;
          i = d;
          continue;
        }
      }
      // A unit or SI suffix glued to the number: 3ms/step, 4.2it/s, 12GB, 39%, 85.8G, 2.1s/it.
      size_t u = j;
      // A unit starts with a letter or %, or is a rate: "500.1/s" (timm). "4660/global_step=" is
      // a number, then '/'.
      const bool slash_unit = u + 1 < s.size() && s[u] == '/' && s[u + 1] == 's' &&
                              (u + 2 == s.size() || !is_word_char(s[u + 2]));
      if (u < s.size() && s[u] == '/' && !slash_unit) {
        Token& t = push(TokKind::Number, i, j);
        t.value = value;
        i = j;
        continue;
      }
      while (u < s.size() &&
             (is_alpha(s[u]) || s[u] == '/' || s[u] == '%' ||
              static_cast<unsigned char>(s[u]) == 0xC2 || static_cast<unsigned char>(s[u]) == 0xB5))
        ++u;
      while (u > j && s[u - 1] == '/') --u;
      std::string_view unit;
      if (u > j) {
        const std::string_view glued = s.substr(j, u - j);
        unit = find_unit(glued);
        if (unit.empty() && glued.size() == 1 && (u == s.size() || !is_word_char(s[u])) &&
            std::string_view("kKMGBT").find(glued[0]) != std::string_view::npos) {
          unit = glued;  // an SI suffix: the vocabulary applies it (M after a memory is MB)
        } else if (unit.empty()) {
          u = SIZE_MAX;
        }
        // A count glued to what it counts (ESPnet's `2epoch:train:12009-12640batch:`): the number,
        // then its name, a word of its own right after it.
        if (u == SIZE_MAX && is_digit(c) &&
            (j + glued.size() >= s.size() || !is_word_char(s[j + glued.size()]))) {
          static constexpr std::array<std::string_view, 10> kCounts{
              "epoch", "epochs", "batch", "batches", "step",
              "steps", "iter",   "iters", "update",  "updates"};
          if (std::find(kCounts.begin(), kCounts.end(), glued) != kCounts.end()) {
            Token& t = push(TokKind::Number, i, j);
            t.value = value;
            push(TokKind::Word, j, j + glued.size());
            i = j + glued.size();
            continue;
          }
        }
        if (u == SIZE_MAX) {  // 3x, 2d, 16bit: a word
          size_t k = j;
          while (k < s.size() && (is_word_char(s[k]) || s[k] == '/' || s[k] == '%')) ++k;
          push(TokKind::Word, i, k);
          i = k;
          continue;
        }
        j = u;
      } else if (j < s.size() && is_word_char(s[j])) {  // 3_000: a word
        size_t k = j;
        while (k < s.size() && is_word_char(s[k])) ++k;
        push(TokKind::Word, i, k);
        i = k;
        continue;
      }
      // A unit written as the next word: "12.3 sec", "1.61 sec/step", "1089.2 examples/sec".
      size_t end = j;
      if (unit.empty() && j + 1 < s.size() && s[j] == ' ' && is_alpha(s[j + 1])) {
        size_t k = j + 1;
        while (k < s.size() && (is_word_char(s[k]) || s[k] == '/')) ++k;
        while (k > j + 1 && s[k - 1] == '/') --k;
        if (const auto w = find_unit(s.substr(j + 1, k - j - 1)); !w.empty() && w != "%") {
          unit = w;
          end = k;
        }
      }
      Token& t = push(TokKind::Number, i, end);
      t.value = value;
      t.unit = unit;
      i = end;
      continue;
    }
    if (c == '\'' || c == '"') {  // 'key': or "key": or '1.363'
      const size_t close = s.find(c, i + 1);
      if (close != std::string_view::npos && close > i + 1 && close - i <= 64) {
        const std::string_view inner = s.substr(i + 1, close - i - 1);
        size_t e = 0;
        if (inner.front() == '-' || inner.front() == '+') e = 1;
        const size_t d = scan_decimal(inner, e);
        if (d > e && d == inner.size()) {
          Token& t = push(TokKind::Number, i, close + 1);
          t.value = to_double(inner);
          t.quoted = true;
          i = close + 1;
          continue;
        }
        bool keyish = true;
        for (char k : inner)
          if (k == '\n' || k == c) keyish = false;
        if (keyish && close + 1 < s.size() && (s[close + 1] == ':' || s[close + 1] == '=')) {
          Token& t = push(TokKind::Word, i, close + 1);
          t.text = inner;
          t.quoted = true;
          i = close + 1;
          continue;
        }
      }
      push(TokKind::Punct, i, i + 1).punct = c;
      ++i;
      continue;
    }
    if (!prev_word && (c == 'n' || c == 'N' || c == 'i' || c == 'I')) {  // nan, inf: a value
      size_t j = i;
      while (j < s.size() && is_alpha(s[j])) ++j;
      const std::string_view w = s.substr(i, j - i);
      if ((iequals(w, "nan") || iequals(w, "inf") || iequals(w, "infinity")) &&
          (j == s.size() || !is_word_char(s[j]))) {
        Token& t = push(TokKind::Number, i, j);
        t.value = (c == 'n' || c == 'N') ? std::nan("") : HUGE_VAL;
        i = j;
        continue;
      }
    }
    // A number in the repr of its type: NumPy 2's `np.float32(0.4852)` (nnU-Net's "Pseudo dice
    // [np.float32(0.4852)]", any dict of NumPy values), PyTorch's `tensor(0.6931,
    // device='cuda:0', grad_fn=<NllLossBackward0>)`: the number, as if printed bare.
    if ((c == 'n' || c == 't') && !prev_word) {
      if (const size_t w = wrapped_number(s, i); w != i) {
        const size_t a = s.find('(', i) + 1;
        const size_t b = scan_decimal(s, a + (s[a] == '-' ? 1 : 0));
        Token& t = push(TokKind::Number, a, b);
        t.value = to_double(s.substr(a, b - a));
        i = w;
        continue;
      }
    }
    if (is_word_char(c)) {
      size_t j = i;
      while (j < s.size()) {
        if (is_word_char(s[j]) && bar_glyph(s, j) == 0) {
          ++j;
        } else if ((s[j] == '.' || s[j] == '/' || s[j] == '@' || s[j] == '-') && j + 1 < s.size() &&
                   (is_word_char(s[j + 1])) && bar_glyph(s, j + 1) == 0) {
          ++j;
        } else {
          break;
        }
      }
      push(TokKind::Word, i, j);
      i = j;
      continue;
    }
    push(TokKind::Punct, i, i + 1).punct = c;
    ++i;
  }
}

}  // namespace aerun::logread
