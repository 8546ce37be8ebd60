#include "aerun/logread/generic_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <unordered_map>
#include <unordered_set>

#include "logread/closing_report.hpp"
#include "logread/end_idioms.hpp"
#include "logread/line_fields.hpp"
#include "logread/vocabulary.hpp"

namespace aerun {

using logread::Canonical;
using logread::Role;

namespace {

constexpr size_t kMaxFieldsPerTemplate = 48;
constexpr size_t kMaxRecordLines = 256;  // lines of a record kept until it shows what it is
constexpr size_t kExampleBytes = 200;
constexpr size_t kProgressTextBytes = 300;

// Where to cut s to at most n bytes without splitting a UTF-8 sequence.
size_t cut_at(std::string_view s, size_t n) {
  if (s.size() <= n) return s.size();
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return n;
}

std::string cut_utf8(std::string_view s, size_t n) {
  if (s.size() <= n) return std::string(s);
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return std::string(s.substr(0, n));
}

// One keyed number of a template, over all its lines.
struct FieldStat {
  std::string key;
  std::string unit;  // the unit printed on the line canon was made from (canon.scale is from it)
  bool average = false;
  bool counter = false;
  Canonical canon;
  long long count = 0;
  double first = 0, last = 0, max = 0;
  long long first_line = 0, last_line = 0, max_line = 0;
  long double sum = 0;
  double total = 0;
  long long increases = 0, decreases = 0;
  long long nan_tail = 0;  // values nan or inf at the end, in a row
  long long nan_line = 0;  // the last of them
  // A counter that starts again (the batches of each epoch): the value each round ended at, when
  // they all ended at the same one (the last batch printed of an epoch, `[57600/60000]`).
  double round_end = 0;
  long long rounds = 0;
  bool rounds_same = true;

  void end_round(double at) {
    if (rounds == 0)
      round_end = at;
    else if (at != round_end)
      rounds_same = false;
    ++rounds;
  }
  // Whether the counter's last value is where every earlier round ended: its loop ran through.
  bool at_round_end() const { return rounds > 0 && rounds_same && last == round_end; }

  double reduced(long long& line) const {
    switch (canon.reduce) {
      case logread::Reduce::Mean:
        line = last_line;
        return static_cast<double>(sum / static_cast<long double>(count));
      case logread::Reduce::Max:
        line = max_line;
        return max;
      case logread::Reduce::Last:
        break;
    }
    line = last_line;
    return last;
  }
};

// A counter of a template's last line: done of total, in the printed values.
struct LastCounter {
  double done = 0, total = 0;
  bool epoch = false;
  int16_t field = -1;  // its field in the template
};

// A total of steps or epochs printed by name, and its line. A tentative one (`# epoch: 20` in a
// configuration printed before training) holds only when the counter ends exactly there.
struct PrintedTotal {
  double value = 0;
  long long line = 0;
  bool tentative = false;
  bool before_training = false;  // read by a rule that holds only before training started
};

// Lines of one shape.
struct Template {
  uint64_t shape = 0;
  std::string text, example;
  long long count = 0, first_line = 0, last_line = 0;
  bool eval = false;
  bool progress = false;
  std::string why;
  std::vector<FieldStat> fields;
  std::vector<LastCounter> last_counters;
  // Its last line's text while it has fewer than three lines: a part of a log read alone may not
  // know the template is progress (append() does, from the part before).
  std::string tail_text;
  // How a line of this template gives its fields, once its first line was read in full: the
  // token of each value (and of its total) and its field. A line of the same hash and as many
  // tokens is read through it without reading its keys again; the keys of a table row depend on
  // the header above, so a plan that used one holds only under that header.
  struct Step {
    uint32_t token;
    int32_t total_token;
    uint16_t field;
    bool counter;
    double scale;  // to the field's unit from this line's (`182ms` and `48s` of one template)
  };
  std::vector<Step> plan;
  size_t plan_tokens = 0;
  uint64_t plan_shape = 0;  // the hash of the lines the plan was made from (a similar template's
                            // lines are read in full)
  bool plan_ready = false;
  bool plan_header = false;
  uint64_t plan_generation = 0;

  FieldStat* field(const std::string& key, bool average) {
    for (auto& f : fields)
      if (f.key == key && f.average == average) return &f;
    return nullptr;
  }
  bool has_training() const {
    return std::any_of(fields.begin(), fields.end(),
                       [](const FieldStat& f) { return f.canon.role == Role::Training; });
  }
  bool counter_reset() const {
    return std::any_of(fields.begin(), fields.end(), [](const FieldStat& f) {
      return f.counter && f.decreases > 0 && f.canon.name != "epoch";
    });
  }
};

bool loss_like(const std::string& name) {
  for (const char* p : {"loss", "acc", "reward", "return", "ppl", "perplexity", "score"})
    if (name.find(p) != std::string::npos) return true;
  return false;
}

// A training rate or a step's time.
bool rate_like(const Canonical& c) {
  return c.unit == "ms" || c.unit.ends_with("/s") || c.unit == "TFLOP/s" ||
         c.unit == "tokens/s/GPU";
}

// A line's skeleton: its bytes with each run of digits (with the dots between them) written as
// one mark of its class: an integer of 1, 2, 3 or 4 digits, one of more, or a decimal. Lines of
// one skeleton are cut into the same tokens (the tokenizer's choices that depend on digits —
// dates, times, thousands, versions — depend only on these classes), so a plan made from one
// such line reads the next by its runs alone. runs gets each run's [start, end).
uint64_t mix(uint64_t h, uint64_t w) {
  h = (h ^ w) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

// The hash of bytes b[0, n), eight at a time (the same bytes give the same hash wherever they
// are in the line).
uint64_t hash_bytes(uint64_t h, const char* b, size_t n) {
  size_t k = 0;
  for (; k + 8 <= n; k += 8) {
    uint64_t w;
    std::memcpy(&w, b + k, 8);
    h = mix(h, w);
  }
  const size_t rest = n - k;
  uint64_t w = 0;
  if (rest > 0 && n >= 8) {  // the last eight bytes, less those hashed already
    std::memcpy(&w, b + n - 8, 8);
    w >>= 8 * (8 - rest);
  } else {
    for (size_t i = n; i-- > k;) w = (w << 8) | static_cast<unsigned char>(b[i]);
  }
  return mix(h, w ^ (static_cast<uint64_t>(rest) << 56));
}

uint64_t skeleton_of(std::string_view line, std::vector<std::pair<uint32_t, uint32_t>>& runs) {
  runs.clear();
  uint64_t h = 1469598103934665603ull;
  const size_t n = std::min(line.size(), logread::kMaxTokenBytes);
  const char* b = line.data();
  const auto digit = [&](size_t i) { return b[i] >= '0' && b[i] <= '9'; };
  const auto wordish = [&](size_t i) {
    const auto c = static_cast<unsigned char>(b[i]);
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
  };
  // Digits in a word (pal1, Top-1, loss_0, an exponent's e-05) are the word's bytes.
  const auto in_word = [&](size_t i) {
    return i > 0 && (wordish(i - 1) || ((b[i - 1] == '-' || b[i - 1] == '.' || b[i - 1] == '@' ||
                                         b[i - 1] == '/' || b[i - 1] == '+') &&
                                        i > 1 && wordish(i - 2)));
  };
  // Bit i%64 of digits[i/64]: whether byte i is a digit (found sixteen bytes at a time), so that
  // runs of digits are found by counting bits.
  uint64_t digits[logread::kMaxTokenBytes / 64];
  const size_t words = (n + 63) / 64;
  for (size_t w = 0; w < words; ++w) {
    const size_t base = w * 64;
    uint64_t bits = 0;
    size_t k = base;
#if defined(__SSE2__)
    const __m128i zero = _mm_set1_epi8('0');
    const __m128i nine = _mm_set1_epi8(9);
    for (; k + 16 <= n && k < base + 64; k += 16) {
      const __m128i x =
          _mm_sub_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + k)), zero);
      const auto m = static_cast<uint64_t>(
          static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(x, nine), x))));
      bits |= m << (k - base);
    }
#endif
    for (; k < n && k < base + 64; ++k)
      if (digit(k)) bits |= uint64_t{1} << (k - base);
    digits[w] = bits;
  }
  // The first byte at or after i that is (set) or is not (!set) a digit, or n.
  const auto next = [&](size_t i, bool set) -> size_t {
    size_t w = i >> 6;
    if (w >= words) return n;
    uint64_t x = (set ? digits[w] : ~digits[w]) & (~uint64_t{0} << (i & 63));
    while (x == 0) {
      if (++w == words) return n;
      x = set ? digits[w] : ~digits[w];
    }
    return std::min(n, (w << 6) + static_cast<size_t>(__builtin_ctzll(x)));
  };
  size_t seg = 0;  // the start of the bytes not hashed yet
  for (size_t i = next(0, true); i < n; i = next(i, true)) {
    if (in_word(i)) {
      i = next(i, false);
      continue;
    }
    h = hash_bytes(h, b + seg, i - seg);
    const size_t start = i;
    bool dot = false;
    i = next(i, false);
    while (i + 1 < n && b[i] == '.' && digit(i + 1)) {
      dot = true;
      i = next(i + 1, false);
    }
    const size_t len = i - start;
    h = mix(h, dot ? 1 : 2 + std::min<size_t>(len, 5));
    runs.emplace_back(static_cast<uint32_t>(start), static_cast<uint32_t>(i));
    seg = i;
  }
  return hash_bytes(h, b + seg, n - seg) ^ n;
}

// The number that [b, e) starts with (an optional sign, digits, a fraction, an exponent), as
// std::from_chars reads it. Clinger's fast path: a mantissa of at most 15 digits scaled by a power
// of ten of at most 22 is exact in a double, so one multiplication or division rounds correctly;
// any other number goes to std::from_chars. Most values of a log are of the first kind.
double parse_number(const char* b, const char* e) {
  static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const char* p = b;
  const bool negative = p < e && *p == '-';
  if (p < e && (*p == '-' || *p == '+')) ++p;
  uint64_t m = 0;
  int digits = 0, scale = 0;
  for (; p < e && *p >= '0' && *p <= '9'; ++p, ++digits)
    m = m * 10 + static_cast<unsigned>(*p - '0');
  if (p < e && *p == '.')
    for (++p; p < e && *p >= '0' && *p <= '9'; ++p, ++digits, --scale)
      m = m * 10 + static_cast<unsigned>(*p - '0');
  if (p < e && (*p == 'e' || *p == 'E')) {
    const char* q = p + 1;
    const bool eneg = q < e && *q == '-';
    if (q < e && (*q == '-' || *q == '+')) ++q;
    int x = 0, xd = 0;
    for (; q < e && *q >= '0' && *q <= '9'; ++q, ++xd) x = std::min(x * 10 + (*q - '0'), 100000);
    if (xd > 0) {
      scale += eneg ? -x : x;
      p = q;
    }
  }
  if (digits == 0 || digits > 15 || scale < -22 || scale > 22) {
    return logread::to_double(std::string_view(b, static_cast<size_t>(e - b)));
  }
  double v = static_cast<double>(m);
  v = scale < 0 ? v / kPow10[-scale] : v * kPow10[scale];
  return negative ? -v : v;
}

// A training loss (or perplexity), whose becoming nan is a divergence; an evaluation's is not.
bool training_loss(const std::string& name) {
  if (name.starts_with("eval_")) return false;
  for (const char* p : {"loss", "ppl", "perplexity", "cost"})
    if (name.find(p) != std::string::npos) return true;
  return false;
}

}  // namespace

struct GenericReader::Impl {
  std::vector<Template> templates;
  std::unordered_map<uint64_t, size_t> index;
  // The templates by their text (when whole): lines of the same words whose units differ
  // (CatBoost's `total: 182ms` and `total: 48s`) hash apart, and are one template (Drain's leaf).
  std::unordered_map<std::string, size_t> by_text;
  std::vector<size_t> progress_templates;  // indexes of the progress templates (few)
  long long progress_count = 0;            // lines of progress templates so far
  long long first_progress_line = 0, last_progress_line = 0;
  std::string last_progress_text;
  long long end_line = 0;
  // The last closing report (closing_report.hpp), its skeleton, and the first line of that
  // skeleton among the reports (one printed before the progress ended reports a period, or a
  // phase, not the run).
  long long closing_line = 0, closing_since = 0;
  uint64_t closing_skeleton = 0;
  long long last_nan_line = 0;
  std::string last_nan_text;
  // Totals printed by name (`epochs: 20`, `max_iter=300`, `--epochs 4`): what a counter of that
  // kind ends at.
  std::optional<PrintedTotal> printed_total_steps, printed_total_epochs;
  std::optional<LastCounter> last_epoch;
  long long last_epoch_line = 0;
  std::vector<logread::Token> tokens;
  logread::LineFields lf;
  // Plans by skeleton: a value as runs of digits (a number, a counter's two, a duration's parts).
  struct RunStep {
    uint16_t field;
    uint16_t first_run, runs;  // the value's runs
    uint16_t extra = 0;        // a number's bytes after its run (an exponent, a unit, a quote)
    int16_t total_run = -1;    // a counter's total, or -1
    bool negative = false;     // a '-' before the first run
    bool counter = false;
    bool duration = false;  // runs are [h:]m:s
    double scale = 1;       // the plan's step's
  };
  struct SkeletonPlan {
    uint64_t shape = 0;  // the template's
    size_t runs = 0;
    std::vector<RunStep> steps;
  };
  std::unordered_map<uint64_t, SkeletonPlan> skeleton_plans;
  std::vector<std::pair<uint32_t, uint32_t>> runs;
  static constexpr size_t kMaxSkeletonPlans = 4096;
  logread::TableHeader header;

  Template& find_or_add(uint64_t shape, std::string_view text) {
    if (const auto it = index.find(shape); it != index.end()) return templates[it->second];
    std::string tt = cut_utf8(logread::template_of(text, tokens), kExampleBytes);
    if (const auto same = by_text.find(tt);
        same != by_text.end() && templates[same->second].eval == lf.eval_context) {
      index.emplace(shape, same->second);
      return templates[same->second];
    }
    // Drain's similarity merge, for progress lines only: a new template of as many words as a
    // progress template's, most of them the same (a bar's last frame: `12.73s/it` for `1.5it/s`,
    // `100%` and a full bar), is that template.
    if (const Template* near = similar_progress(tt)) {
      const size_t at = static_cast<size_t>(near - templates.data());
      index.emplace(shape, at);
      return templates[at];
    }
    if (templates.size() >= kMaxTemplates) evict();
    Template t;
    t.shape = shape;
    t.text = std::move(tt);
    t.example = cut_utf8(text, kExampleBytes);
    t.eval = lf.eval_context;
    index.emplace(shape, templates.size());
    if (t.text.size() < kExampleBytes) by_text.emplace(t.text, templates.size());
    templates.push_back(std::move(t));
    return templates.back();
  }

  // The progress template whose text has as many words as tt and at least 70 % of them equal
  // (at least three words), or nullptr.
  const Template* similar_progress(const std::string& tt) const {
    const auto words = [](std::string_view x) {
      std::vector<std::string_view> w;
      for (size_t a = 0; a < x.size();) {
        const size_t b = std::min(x.find(' ', a), x.size());
        if (b > a) w.push_back(x.substr(a, b - a));
        a = b + 1;
      }
      return w;
    };
    const auto mine = words(tt);
    if (mine.size() < 3) return nullptr;
    const Template* best = nullptr;
    double best_share = 0.7;
    for (const size_t pi : progress_templates) {
      const Template& t = templates[pi];
      if (t.eval != lf.eval_context || t.text.size() >= kExampleBytes) continue;
      const auto theirs = words(t.text);
      if (theirs.size() != mine.size()) {
        if (extends(mine, theirs)) return &t;
        continue;
      }
      // Words may differ only where they are values, bars or punctuation, never a key.
      const auto keyless = [](std::string_view w) {
        if (w.find('#') != std::string_view::npos || w.find('~') != std::string_view::npos)
          return true;
        return std::none_of(w.begin(), w.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        });
      };
      size_t same = 0;
      bool keys_differ = false;
      for (size_t i = 0; i < mine.size(); ++i) {
        if (mine[i] == theirs[i])
          ++same;
        else if (!keyless(mine[i]) || !keyless(theirs[i]))
          keys_differ = true;
      }
      if (keys_differ) continue;
      const double share = static_cast<double>(same) / static_cast<double>(mine.size());
      if (share >= best_share) {
        best_share = share;
        best = &t;
      }
    }
    return best;
  }

  // Whether a line's words are a progress template's with more after them or among them: a
  // progress line with another message glued after it (a tqdm frame, then "slurmstepd: error:
  // *** JOB ... CANCELLED" with no newline between), or one more key printed from some step on
  // (llama2-accessory's `grad_norm: 5.2397 (5.2397)` once warm-up ended). The progress
  // template's words come first and in order, its first two where they were; at most four words
  // come in among them, any number after them (the last may start the glued message's word).
  static bool extends(const std::vector<std::string_view>& mine,
                      const std::vector<std::string_view>& theirs) {
    if (theirs.size() < 4 || mine.size() <= theirs.size()) return false;
    if (mine[0] != theirs[0] || mine[1] != theirs[1]) return false;
    size_t i = 0, inserted = 0;
    for (size_t k = 0; k < theirs.size(); ++k) {
      const std::string_view w = theirs[k];
      // The glued message starts in the last word (`#]slurmstepd:`).
      const bool last = k + 1 == theirs.size();
      while (i < mine.size() && mine[i] != w && !(last && mine[i].starts_with(w))) {
        ++i;
        ++inserted;
      }
      if (i == mine.size()) return false;
      ++i;
    }
    return inserted <= 4;
  }

  void rebuild_by_text() {
    by_text.clear();
    for (size_t i = 0; i < templates.size(); ++i)
      if (templates[i].text.size() < kExampleBytes) by_text.emplace(templates[i].text, i);
  }

  void list_progress() {
    progress_templates.clear();
    for (size_t i = 0; i < templates.size(); ++i)
      if (templates[i].progress) progress_templates.push_back(i);
  }

  // The table is full: the less frequent half of the templates that are not progress goes (the
  // frequent ones, which progress lines are, stay: a log of a million distinct lines keeps them).
  void evict() {
    std::vector<size_t> order(templates.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const Template& x = templates[a];
      const Template& y = templates[b];
      if (x.progress != y.progress) return x.progress;
      if (x.count != y.count) return x.count > y.count;
      return x.last_line > y.last_line;
    });
    order.resize(templates.size() / 2);
    std::sort(order.begin(), order.end());
    std::vector<Template> kept;
    kept.reserve(kMaxTemplates);
    for (size_t i : order) kept.push_back(std::move(templates[i]));
    templates = std::move(kept);
    index.clear();
    for (size_t i = 0; i < templates.size(); ++i) index.emplace(templates[i].shape, i);
    rebuild_by_text();
    skeleton_plans.clear();  // they name templates by shape: those that went are read in full
    list_progress();
  }

  // What one line of a template showed: for the rule that makes a template progress.
  struct LineFlags {
    bool training = false, counter_grew = false, named_counter = false;
    bool worded_counter = false;  // a count the vocabulary knows by its words grew (frames)
    // The field whose counter grew, by its place: a field added to the template later on the
    // same line (read_in_full) may move the fields, so no pointer into them is kept.
    long grew = -1;
  };

  // A value v (printed value times the field's scale) of field s on line no.
  void take(Template& t, FieldStat& s, double v, bool counter, double printed, double total,
            long long no, std::string_view text, LineFlags& flags) {
    if (!std::isfinite(v)) {  // nan, inf: never a value (the status says the divergence)
      ++s.nan_tail;
      s.nan_line = no;
      if (training_loss(s.canon.name) && s.canon.role == Role::Training) {
        last_nan_line = no;
        last_nan_text = cut_utf8(text, kProgressTextBytes);
      }
      return;
    }
    s.nan_tail = 0;
    if (s.count > 0) {
      if (v > s.last) {
        ++s.increases;
        if (s.canon.role == Role::Counter) {
          flags.counter_grew = true;
          flags.grew = &s - t.fields.data();
          flags.named_counter |= s.canon.name == "step" || s.canon.name == "epoch";
          flags.worded_counter |= !counter && !s.key.empty();
        }
      } else if (v < s.last) {
        ++s.decreases;
        if (counter) s.end_round(s.last);
      }
    }
    if (s.count == 0 || v > s.max) {
      s.max = v;
      s.max_line = no;
    }
    if (s.count == 0) {
      s.first = v;
      s.first_line = no;
    }
    ++s.count;
    s.last = v;
    s.last_line = no;
    s.sum += v;
    if (counter) {
      s.total = total;
      t.last_counters.push_back(
          {printed, total, s.canon.name == "epoch", static_cast<int16_t>(&s - t.fields.data())});
      if (s.canon.name == "epoch") {
        last_epoch = LastCounter{printed, total, true, -1};
        last_epoch_line = no;
      }
    }
    flags.training |= s.canon.role == Role::Training;
  }

  // The first line of a template, or one its plan does not fit: its keys read in full, its
  // fields found or made, and the plan rebuilt from it.
  void read_in_full(Template& t, std::string_view text, long long no, LineFlags& flags,
                    bool keys_read) {
    if (!keys_read) logread::read_keys(text, tokens, lf, false, header);
    for (const logread::Field& f : lf.fields) note_total(f, no);
    t.plan.clear();
    t.plan_header = false;
    bool complete = true;
    for (size_t i = 0; i < lf.fields.size(); ++i) {
      const logread::Field& f = lf.fields[i];
      FieldStat* s = t.field(f.key, f.average);
      if (!s) {
        if (t.fields.size() >= kMaxFieldsPerTemplate) {
          complete = false;
          continue;
        }
        FieldStat ns;
        ns.key = f.key;
        ns.average = f.average;
        ns.counter = f.counter;
        ns.canon = logread::canonical(f.key, f.unit, t.eval, f.counter, f.value);
        ns.unit = std::string(f.unit);
        ns.canon.test |= lf.test_context;
        // Another key of this template already means this quantity (`loss` and `total_loss`):
        // this one keeps its own name.
        if (!f.key.empty() &&
            std::any_of(t.fields.begin(), t.fields.end(), [&](const FieldStat& o) {
              return o.canon.name == ns.canon.name && o.average == f.average && !o.key.empty();
            })) {
          ns.canon.name = logread::normalise_key(f.key);
          ns.canon.why =
              "'" + f.key + "' means a quantity another key of the line names: its own name";
        }
        if (f.key.empty()) {  // a counter nothing names: [ 120/1000], | 450/1000 [
          ns.canon.name = "step";
          ns.canon.role = Role::Counter;
          ns.canon.why = "a counter done/total with no key";
        }
        t.fields.push_back(std::move(ns));
        s = &t.fields.back();
      } else if (s->last_line == no) {
        continue;  // the same key twice on a line: the first counts
      }
      // A line of the same words printing another unit of the quantity: its own scale.
      const double scale =
          f.unit == s->unit ? s->canon.scale
                            : logread::canonical(f.key, f.unit, t.eval, f.counter, f.value).scale;
      t.plan.push_back(
          {f.token, f.total_token, static_cast<uint16_t>(s - t.fields.data()), f.counter, scale});
      t.plan_header |= f.from_header;
      take(t, *s, f.value * scale, f.counter, f.value, f.total, no, text, flags);
    }
    t.plan_ready = complete;
    t.plan_shape = lf.shape;
    t.plan_tokens = tokens.size();
    t.plan_generation = header.generation;
  }

  // Whether a line says training ended (end_idioms.hpp).
  static bool ends(std::string_view text) {
    return logread::says_training_ended(text) || logread::launcher_says_success(text);
  }
  // A line of a template seen at most once before: an end line, or a closing report (taken as
  // the end in findings() when nothing like it comes again and no progress follows it).
  void note_end(std::string_view text, long long no) {
    if (ends(text)) {
      end_line = no;
    } else if (logread::reports_run_totals(text)) {
      if (closing_line == 0 || last_skeleton != closing_skeleton) closing_since = no;
      closing_line = no;
      closing_skeleton = last_skeleton;
    }
  }

  // The value of run k (with the sign before it) of text.
  double run_value(std::string_view text, size_t k, bool negative) const {
    size_t a = runs[k].first;
    const size_t b = runs[k].second;
    if (negative) --a;
    return parse_number(text.data() + a, text.data() + b);
  }

  // Reads a line by its skeleton's plan: true when it had one (and the line was read).
  bool by_skeleton(std::string_view text, long long no) {
    const uint64_t sk = skeleton_of(text, runs);
    last_skeleton = sk;
    const auto it = skeleton_plans.find(sk);
    if (it == skeleton_plans.end() || it->second.runs != runs.size()) return false;
    const auto ti = index.find(it->second.shape);
    if (ti == index.end()) return false;
    Template& t = templates[ti->second];
    if (t.count < 2) note_end(text, no);
    ++t.count;
    t.last_line = no;
    LineFlags flags;
    t.last_counters.clear();
    for (const RunStep& st : it->second.steps) {
      double v;
      if (st.duration) {
        v = 0;
        for (size_t k = 0; k < st.runs; ++k) v = v * 60 + run_value(text, st.first_run + k, false);
      } else {  // the run and what follows it in the number (1e-05: the exponent)
        const size_t a = runs[st.first_run].first - (st.negative ? 1 : 0);
        v = parse_number(text.data() + a, text.data() + runs[st.first_run].second + st.extra);
      }
      const double total =
          st.total_run >= 0 ? run_value(text, static_cast<size_t>(st.total_run), false) : 0;
      FieldStat& f = t.fields[st.field];
      take(t, f, v * st.scale, st.counter, v, total, no, text, flags);
    }
    after_fields(t, text, no, flags);
    return true;
  }

  // After a line was read with its tokens: a plan of its values by runs, when each value is one
  // run (or a counter's two, a duration's parts, an exponent's mantissa and power).
  void plan_by_skeleton(const Template& t, std::string_view text) {
    if (!t.plan_ready || t.plan_header || skeleton_plans.size() >= kMaxSkeletonPlans) return;
    const uint64_t sk = skeleton_of(text, runs);
    if (skeleton_plans.count(sk)) return;
    SkeletonPlan plan;
    plan.shape = t.shape;
    plan.runs = runs.size();
    auto run_at = [&](uint32_t pos) -> long {
      for (size_t k = 0; k < runs.size(); ++k)
        if (runs[k].first == pos) return static_cast<long>(k);
      return -1;
    };
    for (const Template::Step& st : t.plan) {
      const logread::Token& tok = tokens[st.token];
      RunStep r;
      r.field = st.field;
      r.counter = st.counter;
      r.scale = st.scale;
      uint32_t start = tok.start;
      if (tok.quoted) ++start;
      if (start < text.size() && (text[start] == '-' || text[start] == '+')) {
        r.negative = text[start] == '-';
        ++start;
      }
      const long first = run_at(start);
      if (first < 0) return;  // nan, inf, a value no run starts: this skeleton is read in full
      size_t last = static_cast<size_t>(first);
      const uint32_t end = tok.start + tok.len;
      while (last + 1 < runs.size() && runs[last + 1].second <= end) ++last;
      r.first_run = static_cast<uint16_t>(first);
      r.runs = static_cast<uint16_t>(last - static_cast<size_t>(first) + 1);
      if (tok.kind == logread::TokKind::Duration) {
        // Only h:m:s adds up run by run; `2h 42s`, `3d 4h` are read in full.
        if (tok.text.find_first_of("dhms") != std::string_view::npos) return;
        r.duration = true;
      } else if (tok.kind == logread::TokKind::Fraction) {
        if (r.runs != 2) return;
        r.runs = 1;
        r.total_run = static_cast<int16_t>(first + 1);
      } else if (r.runs != 1 || tok.kind != logread::TokKind::Number) {
        return;  // 1,234 (thousands): read in full
      } else {
        r.extra = static_cast<uint16_t>(end - runs[static_cast<size_t>(first)].second);
      }
      if (st.total_token >= 0) {
        const long tr = run_at(tokens[static_cast<size_t>(st.total_token)].start);
        if (tr < 0) return;
        r.total_run = static_cast<int16_t>(tr);
      }
      plan.steps.push_back(r);
    }
    skeleton_plans.emplace(sk, std::move(plan));
  }

  // Lines after a heading of an evaluation's section (`=====Evaluation Metrics=====`), up to an
  // empty line or a progress line: an evaluation's (DL4J's ` Accuracy:        0.9856`).
  bool eval_section = false;
  long long eval_section_line = 0;
  static constexpr long long kEvalSectionLines = 100;

  // The skeletons of lines that had no field (a timestamped message, a warning with a number):
  // the next line of one is not cut into tokens again. Rows of numbers get keys from a table's
  // header: a new header forgets them.
  std::unordered_set<uint64_t> fieldless;
  uint64_t fieldless_generation = 0;
  uint64_t last_skeleton = 0;
  static constexpr size_t kMaxFieldless = 4096;

  void line(std::string_view text, long long no) {
    if (by_skeleton(text, no)) return;
    if (fieldless_generation != header.generation) {
      fieldless.clear();
      fieldless_generation = header.generation;
    }
    if (fieldless.count(last_skeleton)) {
      note_end(text, no);
      return;
    }
    if (!logread::read_shape(text, tokens, lf, header)) {
      note_end(text, no);
      if (text.find_first_not_of(" \t\r") == std::string_view::npos)
        eval_section = false;
      else if (logread::heads_evaluation(text)) {
        eval_section = true;
        eval_section_line = no;
      }
      return;
    }
    const auto found = index.find(lf.shape);
    const bool is_new = found == index.end();
    // A line of a template seen twice already is no end line (the end is said once).
    if (is_new || templates[found->second].count < 2) note_end(text, no);
    if (is_new) {  // a new template: kept only when the line has fields
      logread::read_keys(text, tokens, lf, false, header);
      if (lf.fields.empty()) {
        if (fieldless.size() < kMaxFieldless && header.generation == fieldless_generation)
          fieldless.insert(last_skeleton);
        return;
      }
      // A section is its results (` Accuracy:        0.9856`, Knover's `step 100:lm_loss: ...`
      // over an evaluation's batches): a line far below the heading is training going on.
      if (eval_section && no - eval_section_line > kEvalSectionLines) eval_section = false;
      lf.eval_context |= eval_section;
    }
    Template& t = find_or_add(lf.shape, text);
    if (t.count == 0) t.first_line = no;
    ++t.count;
    t.last_line = no;
    LineFlags flags;
    t.last_counters.clear();
    if (t.plan_ready && t.plan_shape == lf.shape && t.plan_tokens == tokens.size() &&
        (!t.plan_header || t.plan_generation == header.generation)) {
      for (const Template::Step& st : t.plan) {  // the fast way: values only
        const logread::Token& tok = tokens[st.token];
        FieldStat& s = t.fields[st.field];
        const double total =
            st.total_token >= 0 ? tokens[static_cast<size_t>(st.total_token)].value : tok.total;
        take(t, s, tok.value * st.scale, st.counter, tok.value, total, no, text, flags);
      }
    } else {
      read_in_full(t, text, no, flags, is_new);
    }
    after_fields(t, text, no, flags);
    plan_by_skeleton(t, text);
  }

  void promote(Template& t, std::string why) {
    t.progress = true;
    progress_templates.push_back(static_cast<size_t>(&t - templates.data()));
    t.why = std::move(why);
    progress_count += t.count;  // its earlier lines were progress too
    if (first_progress_line == 0 || t.first_line < first_progress_line)
      first_progress_line = t.first_line;
  }

  // Whether a line of t holds a step or epoch counter and a loss, an accuracy, a reward, or a
  // training rate or step time the vocabulary knows (not a configuration's long list of keys).
  static bool counts_and_trains(const Template& t) {
    if (t.fields.size() > 16) return false;
    bool counts = false, trains = false;
    for (const FieldStat& f : t.fields) {
      if (f.last_line != t.last_line) continue;
      counts |=
          f.canon.role == Role::Counter && (f.canon.name == "step" || f.canon.name == "epoch");
      trains |= f.canon.role == Role::Training && (loss_like(f.canon.name) || rate_like(f.canon));
    }
    return counts && trains;
  }

  // What every line of a template does after its values were taken: the progress rule, the
  // progress count and text, records.
  void after_fields(Template& t, std::string_view text, long long no, const LineFlags& flags) {
    const bool training = flags.training, counter_grew = flags.counter_grew,
               named_counter = flags.named_counter;
    const std::string grew =
        flags.grew >= 0 ? t.fields[static_cast<size_t>(flags.grew)].canon.name : std::string();
    if (!t.progress && !t.eval && t.count == 1 && first_progress_line == 0 &&
        counts_and_trains(t)) {
      // Before any line repeated: one line that counts training and prints how it goes (a log
      // cut short, a crash after the first report: `train | step: 22785 | steps/sec: 0.4`).
      promote(t, "a training counter and a training metric on one line");
    } else if (!t.progress && !t.eval && t.count == 1 && first_progress_line == 0 &&
               training_bar(t, text)) {
      // A tqdm bar of training's steps or epochs, once: a run that died at its first step
      // (`Training progress:   0%|  | 0/30000 [00:00<?, ?it/s]`, then a traceback).
      promote(t, "a progress bar of training's steps");
    } else if (!t.progress && !t.eval && t.count >= 2) {
      std::string why;
      if (counter_grew && (training || named_counter)) {
        why = "repeats with its counter '" + grew + "' growing" +
              (training ? " and training metrics" : "");
      } else if (t.count >= 3) {
        // A loss, an accuracy, a reward, or a training rate or step time: lines that print one
        // that changes are printed while training runs (a memory is not: monitors print it too).
        for (const auto& s : t.fields)
          if (s.canon.role == Role::Training && (loss_like(s.canon.name) || rate_like(s.canon)) &&
              s.increases + s.decreases > 0) {
            why = "repeats with '" + s.canon.name + "' changing";
            break;
          }
        // A named counter that grows and values beside it that change, whatever their names
        // (CatBoost's `999:\tlearn: 0.994\ttest: 0.967`, an `auc` or a `dice` no word of the
        // vocabulary says is trained): lines that repeat with the same words and growing numbers.
        // A count named by its words (Sample Factory's `Total num frames: 438272`, timesteps,
        // episodes) counts too, with two values beside it that change.
        if (why.empty() && counter_grew && (named_counter || flags.worded_counter)) {
          std::string changing;
          size_t n = 0;
          for (const auto& s : t.fields)
            if (!s.counter && s.canon.role != Role::Counter && s.canon.role != Role::Ignored &&
                s.increases + s.decreases > 0) {
              if (n++ == 0) changing = s.canon.name;
            }
          if (n >= (named_counter ? 1u : 2u))
            why = "repeats with its counter '" + grew + "' growing and '" + changing + "' changing";
        }
      }
      if (!why.empty()) promote(t, why);
    } else if (t.progress) {
      ++progress_count;
    }
    if (t.progress) {
      eval_section = false;
      last_progress_line = no;
      last_progress_text.assign(text.substr(0, cut_at(text, kProgressTextBytes)));
    } else if (t.count < 3) {
      t.tail_text.assign(text.substr(0, cut_at(text, kProgressTextBytes)));
    }
    // A record: consecutive lines of one keyed value each (a result dict printed as YAML).
    const FieldStat* only = t.fields.size() == 1 ? &t.fields.front() : nullptr;
    if (only && !only->key.empty() && !only->counter && !t.eval) {
      // A key seen again in the record, or a record longer than any result: a new record.
      if (std::find(record_shapes.begin(), record_shapes.end(), t.shape) != record_shapes.end() ||
          record_shapes.size() >= kMaxRecordLines) {
        record.clear();
        record_shapes.clear();
        record_counter = record_training = record_marked = false;
      }
      record_shapes.push_back(t.shape);
      record.push_back(t.shape);
      record_counter |= only->canon.role == Role::Counter;
      record_training |= only->canon.role == Role::Training;
      record_last = no;
      mark_record();
    } else if (!t.eval && !t.fields.empty() && (introduces(text) || counters_only(t, no))) {
      // A line that introduces a record (`train | step: 22785 | steps/sec: 0.4 | output:`), or
      // counters alone on a line (OLMo's `[step=3/739328,epoch=0]` before its `key=value` lines):
      // its keyed values are the record's first.
      record.assign(1, t.shape);
      record_shapes.assign(1, t.shape);
      record_marked = false;
      record_counter = record_training = false;
      for (const FieldStat& f : t.fields) {
        if (f.last_line != no) continue;
        record_counter |= f.canon.role == Role::Counter;
        record_training |= f.canon.role == Role::Training;
      }
      record_last = no;
    } else {
      record.clear();
      record_shapes.clear();
      record_counter = record_training = record_marked = false;
    }
  }

  // Whether a line of t is a tqdm bar (its rate `it/s` or `s/it` in the brackets after the count)
  // whose counter, done/total, is named a step or epoch by its description.
  static bool training_bar(const Template& t, std::string_view text) {
    if (text.find("%|") == std::string_view::npos ||
        (text.find("it/s]") == std::string_view::npos &&
         text.find("s/it]") == std::string_view::npos &&
         text.find("it/s,") == std::string_view::npos &&
         text.find("s/it,") == std::string_view::npos))
      return false;
    return std::any_of(t.fields.begin(), t.fields.end(), [&](const FieldStat& f) {
      return f.counter && f.last_line == t.last_line && !f.key.empty() &&
             (f.canon.name == "step" || f.canon.name == "epoch");
    });
  }

  // Whether line `no` of t counts (a done/total step or epoch) and prints no training metric: a
  // record's heading (`[step=3/739328,epoch=0]`; what else it holds, a host:rank or a source
  // file:line, is no metric).
  static bool counters_only(const Template& t, long long no) {
    bool any_total = false;
    for (const FieldStat& f : t.fields) {
      if (f.last_line != no) continue;
      if (f.canon.role == Role::Training) return false;
      any_total |= f.counter && f.canon.role == Role::Counter;
    }
    return any_total;
  }

  // Whether a line ends with a colon (blanks after it aside): what follows is its content.
  static bool introduces(std::string_view text) {
    size_t e = text.size();
    while (e > 0 && (text[e - 1] == ' ' || text[e - 1] == '\t')) --e;
    return e > 0 && text[e - 1] == ':';
  }

  // The lines of the record being read (their templates' hashes), and what its keys are.
  std::vector<uint64_t> record;
  std::vector<uint64_t>
      record_shapes;  // every line's of the record (record keeps those not marked)
  bool record_counter = false, record_training = false, record_marked = false;
  long long record_last = 0;

  // A record (so far) of four or more keyed values that counts training (`training_iteration: 7`,
  // `timesteps_total: 7000`) and holds a training metric is a progress record, printed once per
  // report as RLlib's and Ray Tune's results are: its lines are progress.
  void mark_record() {
    if ((record.size() >= 4 || record_marked) && record_counter && record_training) {
      record_marked = true;
      for (const uint64_t shape : record) {  // after the first time, only the new line's is new
        const auto it = index.find(shape);
        if (it == index.end()) continue;
        Template& t = templates[it->second];
        if (t.progress) continue;
        t.progress = true;
        progress_templates.push_back(it->second);
        t.why = "a record of keyed values with a training counter";
        progress_count += t.count;
        if (first_progress_line == 0 || t.first_line < first_progress_line)
          first_progress_line = t.first_line;
      }
      if (record_last > last_progress_line) last_progress_line = record_last;
      record.erase(record.begin(), record.end() - 1);  // marked: keep the flags, not the lines
    }
  }

  // A total printed by its name: how many epochs or steps training was given. Anywhere: a key
  // that says so (`epochs: 20`, `max_iter=300`, `--epochs 4`, `SOLVER.MAX_ITER: 300`). Before
  // training only, the phrases of a sentence (`Start training for 3 epochs`, `total number of
  // steps 372`) and, tentatively, the counter's own name in a configuration (`# epoch: 20`).
  void note_total(const logread::Field& f, long long no) {
    if (f.counter || f.value <= 0 || f.value != std::floor(f.value)) return;
    static const std::vector<std::string> epochs = {
        "epochs",           "num_epochs", "n_epochs", "max_epochs", "max_epoch",   "total_epochs",
        "num_train_epochs", "nb_epoch",   "nepochs",  "epoch_num",  "train_epochs"};
    static const std::vector<std::string> steps = {"max_steps",
                                                   "total_steps",
                                                   "num_steps",
                                                   "train_steps",
                                                   "max_iters",
                                                   "max_iter",
                                                   "total_iters",
                                                   "num_iterations",
                                                   "train_iters",
                                                   "max_update",
                                                   "total_num_steps",
                                                   "num_training_steps",
                                                   "total_training_steps",
                                                   "max_train_steps",
                                                   "training_steps",
                                                   "total_optimization_steps",
                                                   "num_train_steps",
                                                   "iterations",
                                                   "n_iters",
                                                   "niter"};
    std::string k = logread::normalise_key(f.key);
    // A configuration's path (`SOLVER.MAX_ITER`, `trainer.max_steps`): its last part.
    if (const size_t dot = f.key.find_last_of("./");
        dot != std::string::npos && dot + 1 < f.key.size())
      k = logread::normalise_key(std::string_view(f.key).substr(dot + 1));
    const auto set = [&](std::optional<PrintedTotal>& total, bool tentative, bool before) {
      if (tentative && total && !total->tentative) return;  // a key that says so wins
      total = PrintedTotal{f.value, no, tentative, before};
    };
    if (std::find(epochs.begin(), epochs.end(), k) != epochs.end())
      return set(printed_total_epochs, false, false);
    if (std::find(steps.begin(), steps.end(), k) != steps.end())
      return set(printed_total_steps, false, false);
    if (first_progress_line != 0 || f.token >= tokens.size()) return;
    // The words next to the value: the two after it, the four before it (lower case).
    std::vector<std::string> before, after;
    for (size_t i = f.token; i-- > 0 && before.size() < 4;)
      if (tokens[i].kind == logread::TokKind::Word) before.push_back(lower(tokens[i].text));
    for (size_t i = f.token + 1; i < tokens.size() && after.size() < 1; ++i)
      if (tokens[i].kind == logread::TokKind::Word)
        after.push_back(lower(tokens[i].text));
      else if (tokens[i].kind != logread::TokKind::Space)
        break;
    const auto has = [](const std::vector<std::string>& w, std::string_view x) {
      return std::find(w.begin(), w.end(), x) != w.end();
    };
    const auto kind_of = [](std::string_view w) -> int {  // 1: epochs, 2: steps
      if (w == "epochs") return 1;
      if (w == "steps" || w == "iterations" || w == "iters" || w == "updates") return 2;
      return 0;
    };
    // "training for 3 epochs", "train for 1000 steps"
    if (!after.empty() && kind_of(after[0]) != 0 && has(before, "for"))
      return set(kind_of(after[0]) == 1 ? printed_total_epochs : printed_total_steps, false, true);
    // "total number of steps 372", "number of epochs 6"
    if (kind_of(k) != 0 && (has(before, "total") || has(before, "number")))
      return set(kind_of(k) == 1 ? printed_total_epochs : printed_total_steps, false, true);
    if (f.value > 1 && (k == "epoch" || k == "epoch_s"))
      return set(printed_total_epochs, true, true);
    if (f.value > 1 && (k == "step" || k == "iter" || k == "iteration"))
      return set(printed_total_steps, true, true);
  }

  static std::string lower(std::string_view w) {
    std::string out(w);
    for (char& c : out)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
  }

  // Whether a template's numbers are metrics, and its role's name and reason.
  std::pair<std::string, std::string> role_of(const Template& t) const {
    if (t.progress) return {"progress", t.why};
    if (first_progress_line == 0) return {"not read", "no progress line in the log"};
    if (!t.has_training()) return {"not read", "no training metric among its keys"};
    // A configuration prints each of its values once; lines of one template whose training
    // values change, printed right up to the first progress line, report training (darknet's
    // "Region 106 Avg IOU: 0.85, Class: 0.99, ..." before each iteration's line).
    const bool reports = t.count >= 2 && t.last_line + 3 >= first_progress_line &&
                         std::any_of(t.fields.begin(), t.fields.end(), [](const FieldStat& f) {
                           return f.canon.role == Role::Training && f.increases + f.decreases > 0;
                         });
    if (t.last_line < first_progress_line && !reports)
      return {"not read", "printed only before training started (a configuration)"};
    if (t.eval) return {"evaluation", "an evaluation's line, during or after training"};
    if (t.count == 1) return {"summary", "printed once, after training started"};
    return {"metrics", "repeats with training metrics, during or after training"};
  }
};

GenericReader::GenericReader() : impl_(std::make_unique<Impl>()) {}
GenericReader::~GenericReader() = default;
GenericReader::GenericReader(GenericReader&&) noexcept = default;
GenericReader& GenericReader::operator=(GenericReader&&) noexcept = default;

void GenericReader::line(std::string_view text, long long line_no) {
  impl_->line(text, line_no);
}

long long GenericReader::progress_so_far() const {
  return impl_->progress_count;
}

const std::string& GenericReader::last_progress_text() const {
  return impl_->last_progress_text;
}

long long GenericReader::last_progress_line() const {
  return impl_->last_progress_line;
}

void GenericReader::append(GenericReader&& next_reader, long long off) {
  Impl& a = *impl_;
  Impl& b = *next_reader.impl_;
  const bool a_had_progress = a.first_progress_line != 0;
  for (Template& t : b.templates) {
    t.first_line += off;
    t.last_line += off;
    for (FieldStat& f : t.fields) {
      f.first_line += off;
      f.last_line += off;
      f.max_line += off;
      if (f.nan_line) f.nan_line += off;
    }
  }
  if (b.last_progress_line) b.last_progress_line += off;
  if (b.end_line) b.end_line += off;
  if (b.closing_line) {
    b.closing_line += off;
    b.closing_since += off;
  }
  if (b.last_epoch_line) b.last_epoch_line += off;
  for (Template& bt : b.templates) {
    auto it = a.index.find(bt.shape);
    if (it == a.index.end()) {
      const auto same = a.by_text.find(bt.text);
      if (same != a.by_text.end() && a.templates[same->second].eval == bt.eval)
        it = a.index.emplace(bt.shape, same->second).first;
    }
    if (it == a.index.end()) {
      if (a.templates.size() >= kMaxTemplates) a.evict();
      a.index.emplace(bt.shape, a.templates.size());
      if (bt.text.size() < kExampleBytes) a.by_text.emplace(bt.text, a.templates.size());
      a.templates.push_back(std::move(bt));
      continue;
    }
    Template& at = a.templates[it->second];
    at.count += bt.count;
    at.last_line = bt.last_line;
    at.last_counters = std::move(bt.last_counters);
    if (!bt.tail_text.empty()) at.tail_text = std::move(bt.tail_text);
    if (!at.progress && bt.progress) {
      at.progress = true;
      at.why = bt.why;
    }
    for (FieldStat& bf : bt.fields) {
      FieldStat* af = at.field(bf.key, bf.average);
      if (!af) {
        if (at.fields.size() < kMaxFieldsPerTemplate) at.fields.push_back(std::move(bf));
        continue;
      }
      if (bf.count == 0 || af->count == 0) {  // values nan only on one side: the tail of nan
        if (bf.count > 0) {
          *af = std::move(bf);
        } else {
          af->nan_tail += bf.nan_tail;
          if (bf.nan_line) af->nan_line = bf.nan_line;
        }
        continue;
      }
      if (bf.first > af->last) ++af->increases;
      if (bf.first < af->last) {
        ++af->decreases;
        if (bf.counter) af->end_round(af->last);
      }
      if (bf.rounds > 0) {
        if (af->rounds == 0) {
          af->round_end = bf.round_end;
          af->rounds_same = bf.rounds_same;
        } else {
          af->rounds_same = af->rounds_same && bf.rounds_same && bf.round_end == af->round_end;
        }
        af->rounds += bf.rounds;
      }
      af->increases += bf.increases;
      af->decreases += bf.decreases;
      if (bf.max > af->max) {
        af->max = bf.max;
        af->max_line = bf.max_line;
      }
      af->count += bf.count;
      af->sum += bf.sum;
      if (bf.nan_tail > 0 || bf.count > 0) {
        af->nan_tail = bf.count > 0 ? bf.nan_tail : af->nan_tail + bf.nan_tail;
        if (bf.nan_line) af->nan_line = bf.nan_line;
      }
      af->last = bf.last;
      af->last_line = bf.last_line;
      if (bf.counter) af->total = bf.total;
    }
  }
  long long total = 0;
  a.first_progress_line = 0;
  for (const Template& t : a.templates)
    if (t.progress) {
      total += t.count;
      if (a.first_progress_line == 0 || t.first_line < a.first_progress_line)
        a.first_progress_line = t.first_line;
    }
  a.progress_count = total;
  a.list_progress();
  if (b.last_progress_line != 0) {
    a.last_progress_line = b.last_progress_line;
    a.last_progress_text = std::move(b.last_progress_text);
  }
  // A template that is progress only by the part before (too few of its lines in this one): its
  // lines here are progress too.
  for (const size_t pi : a.progress_templates) {
    const Template& t = a.templates[pi];
    if (t.last_line > a.last_progress_line && !t.tail_text.empty()) {
      a.last_progress_line = t.last_line;
      a.last_progress_text = t.tail_text;
    }
  }
  if (b.end_line != 0) a.end_line = b.end_line;
  if (b.closing_line != 0) {  // the later part's, since the earlier part's when it had it too
    if (a.closing_line == 0 || a.closing_skeleton != b.closing_skeleton)
      a.closing_since = b.closing_since;
    a.closing_line = b.closing_line;
    a.closing_skeleton = b.closing_skeleton;
  }
  if (b.last_nan_line != 0) {
    a.last_nan_line = b.last_nan_line + off;
    a.last_nan_text = std::move(b.last_nan_text);
  }
  for (auto [to, from] : {std::pair{&a.printed_total_steps, &b.printed_total_steps},
                          std::pair{&a.printed_total_epochs, &b.printed_total_epochs}}) {
    if (!*from || ((*from)->tentative && *to && !(*to)->tentative)) continue;
    // A rule of the lines before training, in a part read after training had started: not one.
    if ((*from)->before_training && a_had_progress) continue;
    *to = **from;
    (*to)->line += off;
  }
  if (b.last_epoch) {
    a.last_epoch = b.last_epoch;
    a.last_epoch_line = b.last_epoch_line;
  }
}

GenericFindings GenericReader::findings() const {
  const Impl& s = *impl_;
  GenericFindings out;
  out.progress_lines = s.progress_count;
  out.last_progress_line = s.last_progress_line;
  out.last_progress_text = s.last_progress_text;
  // Training cannot end before it started: an end line before the first progress line is not one.
  out.end_line = s.first_progress_line != 0 && s.end_line > s.first_progress_line ? s.end_line : 0;
  // A closing report once, after the last progress line.
  if (s.first_progress_line != 0 && s.closing_since > s.last_progress_line)
    out.closing_line = s.closing_line;
  // Progress templates first (by their first line), then the others that are read.
  std::vector<const Template*> read;
  for (const Template& t : s.templates)
    if (s.role_of(t).first != "not read") read.push_back(&t);
  std::stable_sort(read.begin(), read.end(), [](const Template* a, const Template* b) {
    if (a->progress != b->progress) return a->progress;
    if (a->progress && a->count != b->count) return a->count > b->count;
    return a->first_line < b->first_line;
  });
  // One metric a name: the same name from several templates is one quantity (the last value
  // printed of it, the mean over all its lines, the largest); two keys of one template that mean
  // the same quantity keep the second under its own name (see Template::fields).
  struct Pooled {
    std::string name, unit;
    logread::Reduce reduce = logread::Reduce::Last;
    long long count = 0, line = 0;
    double value = 0;
    long double sum = 0;
    bool progress = false;  // a progress template gave it
  };
  std::vector<Pooled> pooled;
  auto pool = [&](const std::string& name, const FieldStat& f, double last, long long last_line,
                  bool total, bool progress) {
    auto it =
        std::find_if(pooled.begin(), pooled.end(), [&](const Pooled& p) { return p.name == name; });
    if (it == pooled.end()) {
      pooled.push_back({name, total ? "" : f.canon.unit,
                        total ? logread::Reduce::Last : f.canon.reduce, 0, 0, 0, 0, progress});
      it = pooled.end() - 1;
    }
    // A mean is over the progress lines when they print it: a time printed once after training
    // (LitGPT's "Training time: 11.20s") is no step's (progress templates are pooled first).
    if (it->reduce == logread::Reduce::Mean && it->progress && !progress) return;
    it->count += f.count;
    if (it->reduce == logread::Reduce::Mean) {
      it->sum += f.sum;
      it->line = std::max(it->line, f.last_line);
    } else if (it->reduce == logread::Reduce::Max) {
      if (it->line == 0 || f.max > it->value) {
        it->value = f.max;
        it->line = f.max_line;
      }
    } else if (last_line >= it->line) {
      it->value = last;
      it->line = last_line;
    }
  };
  // Whether training had ended when t's line was printed: an end line before it, its own words
  // ("| End of training | test loss"), or every counter of the last progress line at its total.
  const Template* last_progress = nullptr;
  for (const Template& t : s.templates)
    if (t.progress && (!last_progress || t.last_line > last_progress->last_line))
      last_progress = &t;
  const bool counters_at_total =
      last_progress && !last_progress->last_counters.empty() &&
      std::all_of(last_progress->last_counters.begin(), last_progress->last_counters.end(),
                  [](const LastCounter& c) { return c.total > 0 && c.done >= c.total; }) &&
      (!s.last_epoch || s.last_epoch->done >= s.last_epoch->total);
  const auto ended_before = [&](const Template& t) {
    if (s.end_line != 0 && s.end_line < t.first_line) return true;
    if (logread::contains_ci(t.example, "end of training")) return true;
    return counters_at_total;
  };
  for (const Template* t : read)
    for (const FieldStat& f : t->fields) {
      if (f.canon.role == Role::Ignored || f.count == 0) continue;
      // A bar that names no counter counts its own lines (an evaluation's, a prediction's): only
      // a progress line's is the step.
      if (f.canon.role == Role::Counter && !t->progress && f.key.empty()) continue;
      // A counter with no key beside a keyed step counter that printed a number: the keyed one
      // is the step (not MotionSeg3D's "Update: nan mean" beside "Epoch: [4][1040/1047]").
      if (f.key.empty() && std::any_of(t->fields.begin(), t->fields.end(), [](const FieldStat& o) {
            return !o.key.empty() && o.canon.name == "step" && o.count > 0;
          }))
        continue;
      std::string name = f.average ? f.canon.name + "_avg" : f.canon.name;
      // A test printed once after training ended ("| End of training | test loss 3.62 |", Keras's
      // "Test Accuracy" after the last epoch) is the test, not one of the evaluations during it
      // (torchvision's "Test:  Acc@1 70.300" of the last epoch, before its "Training time").
      if (f.canon.test && t->count == 1 && t->first_line > s.last_progress_line &&
          name.starts_with("eval_") && ended_before(*t))
        name = "test_" + name.substr(5);
      // A bare `time` that only grows is the time elapsed, not a step's time (flair's
      // "time (sec): 3.95" since the epoch began, against detectron2's "time: 1.2331").
      if (f.canon.name == "iter_ms" && logread::normalise_key(f.key) == "time" &&
          f.increases >= 2 && f.decreases == 0) {
        FieldStat elapsed = f;  // back to seconds, its last value
        elapsed.canon.unit = "s";
        elapsed.canon.reduce = logread::Reduce::Last;
        elapsed.last /= 1000;
        pool("time_s", elapsed, elapsed.last, elapsed.last_line, false, t->progress);
        continue;
      }
      pool(name, f, f.last, f.last_line, false, t->progress);
      if (f.counter && f.total > 0) {
        const std::string& n = f.canon.name;
        pool(n == "step"    ? "total_steps"
             : n == "epoch" ? "total_epochs"
                            : "total_" + n,
             f, f.total, f.last_line, true, t->progress);
      }
    }
  // The last value of a counter of progress lines (step, epoch), if any.
  const auto counter_last = [&](const std::string& name) -> std::optional<double> {
    const FieldStat* best = nullptr;
    for (const size_t pi : s.progress_templates)
      for (const FieldStat& f : s.templates[pi].fields)
        if (f.canon.role == Role::Counter && f.canon.name == name &&
            (!best || f.last_line > best->last_line))
          best = &f;
    if (!best) return std::nullopt;
    return best->last;
  };
  // A total printed by name that holds: a tentative one only where its counter ended at it.
  const auto printed_total = [&](const std::optional<PrintedTotal>& total,
                                 const std::string& counter) -> std::optional<PrintedTotal> {
    if (!total || !total->tentative) return total;
    if (total->line >= s.first_progress_line) return std::nullopt;  // the progress line's own
    const std::optional<double> last = counter_last(counter);
    if (last && (*last == total->value || (counter == "step" && *last + 1 == total->value)))
      return total;
    return std::nullopt;
  };
  const std::optional<PrintedTotal> total_epochs = printed_total(s.printed_total_epochs, "epoch");
  const std::optional<PrintedTotal> total_steps = printed_total(s.printed_total_steps, "step");
  // How many epochs or steps training was given, where no counter printed it.
  if (s.first_progress_line != 0)
    for (const auto& named : {std::pair{std::string("total_epochs"), total_epochs},
                              std::pair{std::string("total_steps"), total_steps}}) {
      const std::string& name = named.first;
      const std::optional<PrintedTotal>& total = named.second;
      if (total && std::none_of(pooled.begin(), pooled.end(),
                                [&](const Pooled& p) { return p.name == name; }))
        pooled.push_back({name, "", logread::Reduce::Last, 1, total->line, total->value, 0, false});
    }
  for (const Pooled& p : pooled) {
    const double v = p.reduce == logread::Reduce::Mean
                         ? static_cast<double>(p.sum / static_cast<long double>(p.count))
                         : p.value;
    if (std::isfinite(v)) out.metrics.push_back({p.name, v, p.unit, p.count, p.line});
  }
  // Completion: the counters of the last progress line, and the last epoch counter.
  const Template* last = nullptr;
  for (const Template& t : s.templates)
    if (t.progress && (!last || t.last_line > last->last_line)) last = &t;
  const LastCounter* round_short = nullptr;
  if (last && !last->last_counters.empty()) {
    bool at_total = true;
    const LastCounter* first_short = nullptr;
    for (const LastCounter& c : last->last_counters)
      if (c.done < c.total) {
        at_total = false;
        // The batches of the last epoch that got as far as every earlier epoch's did (a log
        // printed every 10 batches ends each epoch at 57600 of 60000): that epoch ran through;
        // whether training ended is the epoch's to say.
        if (c.field >= 0 && last->fields[static_cast<size_t>(c.field)].at_round_end()) {
          if (!round_short) round_short = &c;
          continue;
        }
        if (!first_short) first_short = &c;
      }
    if (s.last_epoch && s.last_epoch->done < s.last_epoch->total) {
      at_total = false;
      if (!first_short) first_short = &*s.last_epoch;
    }
    // A counter of the batches of an epoch ("epoch 1 - iter 40/40" with no total of epochs): at
    // its total, one epoch ended, not training — unless the epochs went on while the counter
    // never started again: then it counts the whole run (PaddleSeg's "epoch: 216, iter:
    // 80000/80000").
    const bool epoch_without_total =
        std::any_of(last->fields.begin(), last->fields.end(), [&](const FieldStat& f) {
          return f.canon.name == "epoch" && !f.counter && f.last_line == last->last_line &&
                 !(f.increases > 0 && !last->counter_reset());
        });
    const bool inner_only = (last->counter_reset() || epoch_without_total) && !s.last_epoch;
    if (at_total && !inner_only) {
      const LastCounter& c = last->last_counters.front();
      out.counter_done = c.total;
      out.counter_planned = c.total;
      out.counter_line = last->last_line;
    } else if (first_short) {
      out.counter_done = first_short->done;
      out.counter_planned = first_short->total;
      out.counter_line = last->last_line;
    }
  }
  // A counter with no total on its line that reached a total printed by name (0-based counters,
  // which started at 0, end at the total less one).
  if (!out.counter_line && last) {
    for (const FieldStat& f : last->fields) {
      if (f.canon.role != Role::Counter || f.counter || f.last_line != last->last_line) continue;
      const std::optional<PrintedTotal>& printed = f.canon.name == "epoch"  ? total_epochs
                                                   : f.canon.name == "step" ? total_steps
                                                                            : std::nullopt;
      if (!printed) continue;
      const std::optional<double> total = printed->value;
      // A step index of a 0-based loop ends at the total less one (detectron2's "iter: 299" of
      // MAX_ITER 300); an epoch printed while it runs has not ended at its last value.
      const double done = f.canon.name == "step" && f.last + 1 == *total ? *total : f.last;
      out.counter_done = done;
      out.counter_planned = *total;
      out.counter_line = f.last_line;
      if (f.canon.name == "epoch") break;
    }
  }
  if (!out.counter_line && round_short) {
    out.counter_done = round_short->done;
    out.counter_planned = round_short->total;
    out.counter_line = last->last_line;
  }
  // Diverged: the last training loss printed was nan or inf — still nan at its last occurrence,
  // and no loss printed a number after it (lines after it that print no loss, the next epoch's
  // heading, do not say it recovered).
  if (s.last_nan_line != 0) {
    bool stayed = false;  // the loss of that line is still nan at its last occurrence
    bool recovered = false;
    for (const Template& t : s.templates)
      for (const FieldStat& f : t.fields) {
        if (!training_loss(f.canon.name) || f.canon.role != Role::Training) continue;
        if (f.nan_tail > 0 && f.nan_line == s.last_nan_line) stayed = true;
        if (f.count > 0 && f.last_line > s.last_nan_line) recovered = true;
      }
    if (stayed && !recovered) {
      out.diverged_line = s.last_nan_line;
      out.diverged_text = s.last_nan_text;
    }
  }
  return out;
}

std::vector<TemplateExplained> GenericReader::explain(size_t limit) const {
  const Impl& s = *impl_;
  std::vector<const Template*> order;
  for (const Template& t : s.templates) order.push_back(&t);
  std::stable_sort(order.begin(), order.end(), [](const Template* a, const Template* b) {
    if (a->progress != b->progress) return a->progress;
    return a->count > b->count;
  });
  if (order.size() > limit) order.resize(limit);
  std::vector<TemplateExplained> out;
  for (const Template* t : order) {
    TemplateExplained e;
    e.text = t->text;
    e.example = t->example;
    e.first_line = t->first_line;
    e.last_line = t->last_line;
    e.lines = t->count;
    std::tie(e.role, e.why) = s.role_of(*t);
    for (const FieldStat& f : t->fields) {
      TemplateExplained::Key k;
      k.key = f.key.empty() ? "(a counter)" : f.key;
      k.name = f.canon.role == Role::Ignored ? "-"
               : f.average                   ? f.canon.name + "_avg"
                                             : f.canon.name;
      k.unit = f.canon.unit;
      k.why = f.average ? "the running average in parentheses after '" + f.key + "'" : f.canon.why;
      k.last = f.last;
      k.last_line = f.last_line;
      e.keys.push_back(std::move(k));
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace aerun
