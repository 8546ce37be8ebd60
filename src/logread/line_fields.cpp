#include "logread/line_fields.hpp"

#include <algorithm>
#include <cctype>

#include "logread/vocabulary.hpp"

#include <array>
#include <cstring>

namespace aerun::logread {

namespace {

constexpr size_t kMaxKeyWords = 4;

bool is_punct(const Token& t, char c) {
  return t.kind == TokKind::Punct && t.punct == c;
}

// Words that say the line is of an evaluation, not of training.
bool eval_word(std::string_view w) {
  static constexpr std::array<std::string_view, 12> words{
      "eval",       "evaluation", "evaluating", "val", "valid", "validation",
      "validating", "test",       "testing",    "dev", "Test:", "Eval"};
  for (auto e : words)
    if (iequals(w, e)) return true;
  return false;
}

// An English month's name or its first three letters (Jan, Sept, February, ...).
bool month_name(std::string_view w) {
  static constexpr std::array<std::string_view, 24> months{
      "jan",   "feb",  "mar",  "apr",    "may",       "jun",     "jul",      "aug",
      "sep",   "sept", "oct",  "nov",    "dec",       "january", "february", "march",
      "april", "june", "july", "august", "september", "october", "november", "december"};
  for (auto m : months)
    if (iequals(w, m)) return true;
  return false;
}

// A source location (train.py:123, trainer.cc:45), never a key.
bool source_file_word(std::string_view w) {
  static constexpr std::array<std::string_view, 8> ext{".py", ".cc", ".cpp", ".h",
                                                       ".c",  ".rs", ".go",  ".js"};
  for (auto e : ext)
    if (w.size() > e.size() && w.substr(w.size() - e.size()) == e) return true;
  return false;
}

uint64_t fnv(uint64_t h, char c) {
  return (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
}

// Walks left over blanks from j; returns the index of the first token that is not one (or -1).
long skip_space(const std::vector<Token>& t, long j) {
  while (j >= 0 && t[static_cast<size_t>(j)].kind == TokKind::Space) --j;
  return j;
}

// The key of the number at tokens[i] (see line_fields.hpp); the words it used are marked in
// used. key_unit gets a unit the key names ("(ms)").
std::string find_key(const std::vector<Token>& t, size_t i, std::string_view& key_unit,
                     std::vector<uint8_t>& used) {
  long j = skip_space(t, static_cast<long>(i) - 1);
  bool connector = false;
  // An opening bracket between key and value: `Epoch: [0]`, `Epoch [1][50/100]`.
  // `Epoch #1`, `Iteration #5`: the number sign between key and value.
  if (j >= 1 && is_punct(t[static_cast<size_t>(j)], '#') &&
      t[static_cast<size_t>(j)].start + 1 == t[i].start)
    j = skip_space(t, j - 1);
  // A bracket alone between them says as much as a colon: "Pseudo dice [0.4852]" (nnU-Net).
  bool bracket = false;
  if (j >= 0 && is_punct(t[static_cast<size_t>(j)], '[')) {
    j = skip_space(t, j - 1);
    bracket = true;
  }
  if (j >= 0 &&
      (is_punct(t[static_cast<size_t>(j)], ':') || is_punct(t[static_cast<size_t>(j)], '='))) {
    connector = true;
    --j;
    if (j >= 0 && is_punct(t[static_cast<size_t>(j)], ':')) --j;  // :=
    j = skip_space(t, j);
  } else if (j >= 0 && t[static_cast<size_t>(j)].kind == TokKind::Word &&
             (t[static_cast<size_t>(j)].text == "is" || t[static_cast<size_t>(j)].text == "of")) {
    connector = true;  // "loss is 2.3" (MindSpore)
    j = skip_space(t, j - 1);
  } else if (bracket && j >= 0 && t[static_cast<size_t>(j)].kind == TokKind::Word) {
    connector = true;
  }
  // A unit in brackets after the key: `(ms)`, `(%)`, `[s]`, `(TFLOP/s/GPU)`.
  std::string paren;
  if (j >= 2 &&
      (is_punct(t[static_cast<size_t>(j)], ')') || is_punct(t[static_cast<size_t>(j)], ']'))) {
    const char open = t[static_cast<size_t>(j)].punct == ')' ? '(' : '[';
    long k = j - 1;
    std::string inner;
    while (k >= 0 && !is_punct(t[static_cast<size_t>(k)], open) &&
           t[static_cast<size_t>(k)].kind != TokKind::Space && j - k <= 4) {
      inner.insert(0, std::string(t[static_cast<size_t>(k)].text));
      --k;
    }
    if (k >= 0 && is_punct(t[static_cast<size_t>(k)], open) && !inner.empty() &&
        (k == 0 || t[static_cast<size_t>(k - 1)].kind == TokKind::Word ||
         t[static_cast<size_t>(k - 1)].kind == TokKind::Space)) {
      if (const auto u = unit_word(inner); !u.empty()) {
        key_unit = u;
      } else if (inner.find_first_of("0123456789") == std::string::npos) {
        paren = "(" + inner + ")";
      } else {
        return "";
      }
      j = k - 1;
      if (j >= 0 && t[static_cast<size_t>(j)].kind == TokKind::Space &&
          !t[static_cast<size_t>(j)].wide)
        --j;
    }
  }
  // An abbreviation's dot after the key: Marian's "Ep. 1 : Up. 500 : Sen. 768,000".
  bool dot = false;
  if (j >= 1 && is_punct(t[static_cast<size_t>(j)], '.') &&
      t[static_cast<size_t>(j - 1)].kind == TokKind::Word) {
    --j;
    dot = true;
  }
  // `key value` items of a list, each a phrase after the comma or semicolon before it
  // (`Sample 100000, up 4550, avg cur reward -0.021, pi loss -3.413`: `avg cur reward`,
  // `pi loss`): the phrase of two or three words back to that delimiter is the key.
  bool phrase = false;
  if (!connector && !dot && j >= 0 && t[static_cast<size_t>(j)].kind == TokKind::Word) {
    long k = j;
    size_t n = 0;
    while (k >= 0 && t[static_cast<size_t>(k)].kind == TokKind::Word && n < 4) {
      ++n;
      if (k >= 2 && t[static_cast<size_t>(k - 1)].kind == TokKind::Space &&
          !t[static_cast<size_t>(k - 1)].wide &&
          t[static_cast<size_t>(k - 2)].kind == TokKind::Word)
        k -= 2;
      else
        break;
    }
    // A sentence's words are no key: `, decreased lg_loss_scale to -16203.354`.
    const std::string_view last = t[static_cast<size_t>(j)].text;
    const bool sentence = last == "to" || last == "from" || last == "by" || last == "at" ||
                          last == "in" || last == "for" || last == "with" || last == "was" ||
                          last == "are" || last == "than" || last == "and" || last == "or";
    const long before = skip_space(t, k - 1);
    phrase = !sentence && n >= 2 && n <= 3 && before >= 0 && before < k - 1 &&
             (is_punct(t[static_cast<size_t>(before)], ',') ||
              is_punct(t[static_cast<size_t>(before)], ';'));
  }
  // The key's words, back to a delimiter.
  std::string key;
  size_t words = 0;
  while (j >= 0 && t[static_cast<size_t>(j)].kind == TokKind::Word && words < kMaxKeyWords) {
    const std::string_view w = t[static_cast<size_t>(j)].text;
    if (source_file_word(w)) return "";
    // A logger's level before the message (`): INFO Train: [0/300]`, Swin) is no part of a key.
    if (words > 0 && (w == "INFO" || w == "WARNING" || w == "WARN" || w == "DEBUG" ||
                      w == "ERROR" || w == "CRITICAL" || w == "NOTICE"))
      break;
    key.insert(0, words == 0 ? std::string(w) : std::string(w) + " ");
    used[static_cast<size_t>(j)] = 1;
    ++words;
    if (j >= 1 && t[static_cast<size_t>(j - 1)].kind == TokKind::Space &&
        !t[static_cast<size_t>(j - 1)].wide && j >= 2 &&
        t[static_cast<size_t>(j - 2)].kind == TokKind::Word && (connector || phrase))
      j -= 2;
    else
      break;
  }
  if (words > 0) {
    if (dot) key += '.';
    return paren.empty() ? key : key + " " + paren;
  }
  // `| key | value |`: the cell before, when the value's cell holds nothing else.
  if (!connector && j >= 0 && is_punct(t[static_cast<size_t>(j)], '|')) {
    size_t after = i + 1;
    while (after < t.size() && t[after].kind == TokKind::Space) ++after;
    if (after < t.size() && !is_punct(t[after], '|')) return "";
    long k = skip_space(t, j - 1);
    std::string cell;
    size_t n = 0;
    while (k >= 0 && t[static_cast<size_t>(k)].kind == TokKind::Word && n < kMaxKeyWords) {
      cell.insert(0, n == 0 ? std::string(t[static_cast<size_t>(k)].text)
                            : std::string(t[static_cast<size_t>(k)].text) + " ");
      used[static_cast<size_t>(k)] = 1;
      ++n;
      if (k >= 2 && t[static_cast<size_t>(k - 1)].kind == TokKind::Space &&
          t[static_cast<size_t>(k - 2)].kind == TokKind::Word)
        k -= 2;
      else
        --k;
    }
    k = skip_space(t, k);
    if (n > 0 && (k < 0 || is_punct(t[static_cast<size_t>(k)], '|') ||
                  is_punct(t[static_cast<size_t>(k)], ':')))
      return cell;
  }
  return "";
}

// A number's unit that names it when no key does: time per step, rates.
bool naming_unit(std::string_view u) {
  static constexpr std::array<std::string_view, 10> units{
      "ms/step", "s/step",  "us/step",   "s/it",     "ms/it",
      "it/s",    "steps/s", "samples/s", "tokens/s", "TFLOP/s"};
  for (auto x : units)
    if (u == x) return true;
  return false;
}

// Blanks beside a bar are part of it (tqdm pads `|████▌     |`).
bool next_to_bar(const std::vector<Token>& tokens, const Token* t) {
  const size_t i = static_cast<size_t>(t - tokens.data());
  return (i > 0 && tokens[i - 1].kind == TokKind::Bar) ||
         (i + 1 < tokens.size() && tokens[i + 1].kind == TokKind::Bar);
}

}  // namespace

namespace {

// Calls put(c) for each character of the line's template (template_of), and put for the
// characters of each value's unit too when with_units (the hash tells a value in ms from one in s).
template <class Put>
void each_template_char(std::string_view line, const std::vector<Token>& tokens, bool with_units,
                        Put&& put) {
  for (const Token& t : tokens) {
    switch (t.kind) {
      case TokKind::Number:
      case TokKind::Fraction:
      case TokKind::Duration:
      case TokKind::Stamp:
        put('#');
        if (with_units)
          for (char c : t.unit) put(c);
        break;
      case TokKind::Bar:
        put('~');
        break;
      case TokKind::Space:
        if (!next_to_bar(tokens, &t)) put(' ');
        break;
      default:  // a word's digits are its own (pal1, pal2; loss_0, loss_1: other keys)
        for (char c : line.substr(t.start, t.len)) put(c);
    }
  }
}

}  // namespace

std::string template_of(std::string_view line, const std::vector<Token>& tokens) {
  std::string out;
  each_template_char(line, tokens, false, [&](char c) { out += c; });
  return out;
}

namespace {

// The cells of a line: runs of tokens between wide blanks, as [first, last] token indexes.
std::vector<std::pair<size_t, size_t>> cells_of(const std::vector<Token>& t) {
  std::vector<std::pair<size_t, size_t>> cells;
  size_t i = 0;
  while (i < t.size()) {
    while (i < t.size() && t[i].kind == TokKind::Space) ++i;
    if (i == t.size()) break;
    size_t j = i;
    while (j + 1 < t.size() && !(t[j + 1].kind == TokKind::Space && t[j + 1].wide)) ++j;
    size_t last = j;
    while (last > i && t[last].kind == TokKind::Space) --last;
    cells.emplace_back(i, last);
    i = j + 1;
  }
  return cells;
}

bool is_value(const Token& t) {
  return t.kind == TokKind::Number || t.kind == TokKind::Fraction || t.kind == TokKind::Duration;
}

// A header: three or more cells, each words (and / @ . : ( ) %), no value anywhere.
bool read_header(std::string_view line, const std::vector<Token>& t, TableHeader& header) {
  const auto cells = cells_of(t);
  if (cells.size() < 3) return false;
  std::vector<std::string> names, words;
  for (auto [a, b] : cells) {
    // pandas wraps a wide table's lines with a last `\` (ParlAI's reports): no column.
    if (a == b && is_punct(t[a], '\\') && b + 1 >= t.size()) break;
    if (a == b && is_punct(t[a], '\\')) {
      size_t n = b + 1;
      while (n < t.size() && t[n].kind == TokKind::Space) ++n;
      if (n == t.size()) break;
    }
    // A header a progress bar follows (YOLOv5's validation `Class  Images ... mAP@.5:.95:
    // 100%|███| 4/4 [...]`): the header is what comes before the bar's percentage.
    bool bar = false;
    for (size_t k = a; k <= b; ++k)
      if (t[k].kind == TokKind::Number && t[k].unit == "%" && k > a) {
        size_t n = k + 1;
        while (n < t.size() && t[n].kind == TokKind::Space) ++n;
        if (n < t.size() && (t[n].kind == TokKind::Bar || is_punct(t[n], '|'))) {
          bar = true;
          b = k - 1;
          while (b > a && t[b].kind == TokKind::Space) --b;
          break;
        }
      }
    bool word = false;
    size_t part = a;  // where the cell's current single-blank part starts
    for (size_t k = a; k <= b + 1; ++k) {
      if (k == b + 1 || t[k].kind == TokKind::Space) {
        if (k > part) {
          if (k - part > 6) return false;
          words.emplace_back(
              line.substr(t[part].start, t[k - 1].start + t[k - 1].len - t[part].start));
          while (!words.back().empty() && words.back().back() == ':') words.back().pop_back();
        }
        part = k + 1;
        continue;
      }
      // A number glued to a name by @ or : is part of it (`mAP@.5`, `mAP@.5:.95`).
      const bool name_part = t[k].kind == TokKind::Number && t[k].unit.empty() && k > a + 1 &&
                             t[k - 1].kind == TokKind::Punct &&
                             (t[k - 1].punct == '@' || t[k - 1].punct == ':') &&
                             t[k - 1].start + t[k - 1].len == t[k].start;
      if (name_part) continue;
      if (is_value(t[k]) || t[k].kind == TokKind::Bar || t[k].kind == TokKind::Stamp) return false;
      word |= t[k].kind == TokKind::Word;
      if (t[k].kind == TokKind::Punct &&
          std::string_view("/@.:()%_-#").find(t[k].punct) == std::string_view::npos)
        return false;
    }
    if (!word || b - a > 12) return false;
    std::string name(line.substr(t[a].start, t[b].start + t[b].len - t[a].start));
    while (!name.empty() && name.back() == ':') name.pop_back();
    names.push_back(std::move(name));
    if (bar) break;
  }
  if (names.size() < 3) return false;
  header.cells = std::move(names);
  header.bordered = false;
  header.words.clear();
  if (words.size() > header.cells.size()) header.words = std::move(words);
  ++header.generation;
  return true;
}

// The cells of a bordered line (`|  1 |  50 |`, `│ TrainingPhase │ 10.0 │`): the byte ranges
// between its borders, or none when the line is not one (it must start and end with a border).
std::vector<std::pair<size_t, size_t>> bordered_cells(std::string_view line) {
  std::vector<std::pair<size_t, size_t>> cells;
  const auto border_at = [&](size_t i) -> size_t {  // the border's length at i, or 0
    if (line[i] == '|') return 1;
    if (i + 2 < line.size() && static_cast<unsigned char>(line[i]) == 0xE2 &&
        static_cast<unsigned char>(line[i + 1]) == 0x94 &&
        static_cast<unsigned char>(line[i + 2]) == 0x82)  // U+2502 │
      return 3;
    return 0;
  };
  size_t a = 0, b = line.size();
  while (a < b && (line[a] == ' ' || line[a] == '\t')) ++a;
  while (b > a && (line[b - 1] == ' ' || line[b - 1] == '\t' || line[b - 1] == '\r')) --b;
  if (a >= b || border_at(a) == 0) return cells;
  const size_t last = line[b - 1] == '|' ? b - 1 : b >= 3 ? b - 3 : b;
  if (last <= a || border_at(last) == 0) return cells;
  size_t start = a + border_at(a);
  for (size_t i = start; i <= last;) {
    if (const size_t n = border_at(i); n > 0) {
      cells.emplace_back(start, i);
      i += n;
      start = i;
    } else {
      ++i;
    }
  }
  return cells.size() >= 2 ? cells : decltype(cells){};
}

// A cell's text without ANSI escapes (`\x1b[1m Phase \x1b[0m`) and outer blanks.
std::string cell_text(std::string_view c) {
  std::string out;
  for (size_t i = 0; i < c.size(); ++i) {
    if (c[i] == '\x1b' && i + 1 < c.size() && c[i + 1] == '[') {
      i += 2;
      while (i < c.size() && !((c[i] >= 'a' && c[i] <= 'z') || (c[i] >= 'A' && c[i] <= 'Z'))) ++i;
      continue;
    }
    out += c[i];
  }
  const size_t a = out.find_first_not_of(" \t");
  if (a == std::string::npos) return {};
  return out.substr(a, out.find_last_not_of(" \t") - a + 1);
}

// A bordered header line: every cell names (no digit outside a name), one at least. The line
// under a header and before any row continues it: its names join the column's (MATLAB's
// `Mini-batch` over `Accuracy`).
bool read_bordered_header(std::string_view line, TableHeader& header) {
  const auto cells = bordered_cells(line);
  if (cells.size() < 3) return false;
  std::vector<std::string> names;
  bool any = false;
  for (const auto& [a, b] : cells) {
    std::string t = cell_text(line.substr(a, b - a));
    for (char c : t)
      if ((c >= '0' && c <= '9') &&
          t.find_first_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") ==
              std::string::npos)
        return false;
    any |= !t.empty();
    names.push_back(std::move(t));
  }
  if (!any) return false;
  for (const auto& n : names)
    if (!n.empty() && n.find_first_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") ==
                          std::string::npos)
      return false;  // |====|, ├───┼───┤: a rule
  if (header.bordered && !header.rows_seen && header.cells.size() == names.size()) {
    for (size_t c = 0; c < names.size(); ++c)
      if (!names[c].empty() && names[c].front() != '(')
        header.cells[c] += header.cells[c].empty() ? names[c] : " " + names[c];
    ++header.generation;
    return true;
  }
  header.cells = std::move(names);
  header.words.clear();
  header.bordered = true;
  header.rows_seen = false;
  ++header.generation;
  return true;
}

// A table's names as they read in context: after a column of the validation set (fastai's
// `epoch  train_loss  valid_loss  accuracy  time`), a metric named by itself alone is the
// validation set's too (fastai computes its metrics there): `valid accuracy`.
std::vector<std::string> names_in_context(const std::vector<std::string>& names) {
  std::vector<std::string> out = names;
  bool after_eval = false;
  // Only where no evaluation's column comes later (Chainer's `main/loss  validation/main/loss
  // main/accuracy  validation/main/accuracy` names each).
  size_t last_eval = names.size();
  for (size_t c = 0; c < names.size(); ++c) {
    const std::string norm = normalise_key(names[c]);
    for (size_t a = 0; a <= norm.size();) {
      const size_t b = std::min(norm.find('_', a), norm.size());
      if (eval_word(std::string_view(norm).substr(a, b - a))) last_eval = c;
      a = b + 1;
    }
  }
  for (size_t c = 0; c < out.size(); ++c) {
    std::string& n = out[c];
    if (c < last_eval && after_eval) break;  // an evaluation's column after this one
    const std::string norm = normalise_key(n);
    bool eval = false, phase = false;
    for (size_t a = 0; a <= norm.size();) {
      const size_t b = std::min(norm.find('_', a), norm.size());
      const std::string_view w = std::string_view(norm).substr(a, b - a);
      eval |= eval_word(w);
      phase |= w == "train" || w == "training" || w == "trn" || w == "mini" || w == "batch";
      a = b + 1;
    }
    if (eval) {
      after_eval = true;
    } else if (after_eval && !phase) {
      const Canonical canon = canonical(n, "", false, false, 0);
      if (canon.role == Role::Training && canon.unit.empty() && canon.name != "lr")
        n = "valid " + n;
    }
  }
  return out;
}

}  // namespace

bool heads_evaluation(std::string_view line) {
  if (line.size() > 160) return false;
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
    line.remove_suffix(1);
  const auto rule = [](std::string_view s) {
    return s.find("===") != std::string_view::npos || s.find("---") != std::string_view::npos ||
           s.find("***") != std::string_view::npos || s.find("###") != std::string_view::npos;
  };
  // The message: after the last " - " of a logger's prefix (`o.d.o.l.EvaluativeListener - `).
  std::string_view m = line;
  if (const size_t p = m.rfind(" - "); p != std::string_view::npos && !rule(m.substr(p + 3)))
    m = m.substr(p + 3);
  // Its words: runs of letters.
  std::vector<std::string_view> words;
  for (size_t i = 0; i < m.size() && words.size() <= 8;) {
    while (i < m.size() && !std::isalpha(static_cast<unsigned char>(m[i]))) ++i;
    size_t j = i;
    while (j < m.size() && std::isalpha(static_cast<unsigned char>(m[j]))) ++j;
    if (j > i) words.emplace_back(m.substr(i, j - i));
    i = j;
  }
  if (words.empty() || words.size() > 8) return false;
  // A rule around it, or a short title ending with a colon: an evaluation word anywhere in it; a
  // sentence ending with "..." says what it starts doing: its first word.
  if (rule(m) || m.ends_with(":"))
    return std::any_of(words.begin(), words.end(), [](std::string_view w) { return eval_word(w); });
  return m.ends_with("...") && eval_word(words.front());
}

void read_fields(std::string_view line, std::vector<Token>& tokens, LineFields& out,
                 bool with_template_text, TableHeader& header) {
  if (read_shape(line, tokens, out, header))
    read_keys(line, tokens, out, with_template_text, header);
}

bool read_shape(std::string_view line, std::vector<Token>& tokens, LineFields& out,
                TableHeader& header) {
  out.fields.clear();
  out.template_text.clear();
  out.eval_context = false;
  out.test_context = false;
  out.shape = 0;
  const std::string_view head = line.substr(0, kMaxTokenBytes);
  out.has_digits = head.find_first_of("0123456789") != std::string_view::npos;
  if (!out.has_digits) {
    if (read_bordered_header(head, header)) return false;
    // A table's header has no digits, and its cells are apart by two blanks or a tab.
    if (head.find("  ") != std::string_view::npos || head.find('\t') != std::string_view::npos) {
      tokenize(line, tokens);
      read_header(line, tokens, header);
    }
    return false;
  }
  if (read_bordered_header(head, header)) return false;
  if (header.bordered && !header.rows_seen && bordered_cells(head).size() == header.cells.size())
    header.rows_seen = true;
  tokenize(line, tokens);
  if (read_header(line, tokens, header)) return false;
  // The template's hash: the template text, hashed as it would be written, and each value's unit
  // (a value in ms and one in s are not of one template).
  uint64_t h = 1469598103934665603ull;
  each_template_char(line, tokens, true, [&](char c) { h = fnv(h, c); });
  out.shape = h;
  return true;
}

void read_keys(std::string_view line, const std::vector<Token>& tokens, LineFields& out,
               bool with_template_text, const TableHeader& header) {
  if (with_template_text) out.template_text = template_of(line, tokens);
  // `| key | value |` (OpenAI baselines' and Stable-Baselines3's logger tables): the whole first
  // cell is the key, whatever it holds (`| mean 100 episode reward | 198 |`, `| % time spent
  // exploring | 2 |`).
  if (const auto bc = bordered_cells(line.substr(0, kMaxTokenBytes)); bc.size() == 2) {
    long value = -1;
    bool one = true;
    for (size_t k = 0; k < tokens.size(); ++k) {
      if (tokens[k].start < bc[1].first || tokens[k].start >= bc[1].second ||
          tokens[k].kind == TokKind::Space)
        continue;
      if (value >= 0 || tokens[k].kind != TokKind::Number) one = false;
      value = static_cast<long>(k);
    }
    std::string key = cell_text(line.substr(bc[0].first, bc[0].second - bc[0].first));
    while (!key.empty() && (key.back() == ':' || key.back() == ' ')) key.pop_back();
    if (one && value >= 0 &&
        key.find_first_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") !=
            std::string::npos &&
        key.size() <= 64) {
      const Token& tok = tokens[static_cast<size_t>(value)];
      Field f;
      f.value = tok.value;
      f.unit = tok.unit;
      f.column = tok.start;
      f.token = static_cast<uint32_t>(value);
      f.key = std::move(key);
      out.fields.push_back(std::move(f));
      return;
    }
  }

  static thread_local std::vector<uint8_t> used;
  used.assign(tokens.size(), 0);
  // Index in out.fields of the field each token gave (for averages), or -1.
  static thread_local std::vector<int> field_of;
  field_of.assign(tokens.size(), -1);
  std::string bar_key;  // the words before a bar's percentage
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& tok = tokens[i];
    if (tok.kind != TokKind::Number && tok.kind != TokKind::Fraction &&
        tok.kind != TokKind::Duration)
      continue;
    if (tok.kind == TokKind::Duration && i < 3) continue;  // a time of day heading the line
    // `(trainer:636)`, `[train.py:120]`: where a logger was called (Python logging's
    // %(module)s:%(lineno)d), no value.
    if (tok.kind == TokKind::Number && tok.unit.empty() && i >= 3 && i + 1 < tokens.size() &&
        is_punct(tokens[i - 1], ':') && tokens[i - 2].kind == TokKind::Word &&
        (is_punct(tokens[i - 3], '(') || is_punct(tokens[i - 3], '[')) &&
        (is_punct(tokens[i + 1], ')') || is_punct(tokens[i + 1], ']')) &&
        tokens[i - 1].start == tokens[i - 2].start + tokens[i - 2].len &&
        tok.start == tokens[i - 1].start + 1 && is_whole(tok.value) &&
        canonical(tokens[i - 2].text, "", false, false, 0).role == Role::Other)  // not [epoch:3]
      continue;
    // loguru's `name:function:line` (YOLOX's "yolox.core.trainer:after_iter:246 - epoch: 10"):
    // a line number glued to a function glued to a module.
    if (tok.kind == TokKind::Number && tok.unit.empty() && i >= 4 && is_punct(tokens[i - 1], ':') &&
        tokens[i - 2].kind == TokKind::Word && is_punct(tokens[i - 3], ':') &&
        tokens[i - 4].kind == TokKind::Word && tok.start == tokens[i - 1].start + 1 &&
        tokens[i - 1].start == tokens[i - 2].start + tokens[i - 2].len &&
        tokens[i - 2].start == tokens[i - 3].start + 1 &&
        tokens[i - 3].start == tokens[i - 4].start + tokens[i - 4].len && is_whole(tok.value))
      continue;
    Field f;
    f.value = tok.value;
    f.unit = tok.unit;
    f.column = tok.start;
    f.token = static_cast<uint32_t>(i);
    if (tok.kind == TokKind::Fraction) {
      f.counter = true;
      f.total = tok.total;
    }
    if (tok.kind == TokKind::Duration) f.unit = "s";
    // `value (average)`: a number alone in parentheses right after a keyed value.
    long j = skip_space(tokens, static_cast<long>(i) - 1);
    if (j >= 1 && is_punct(tokens[static_cast<size_t>(j)], '(') && i + 1 < tokens.size() &&
        is_punct(tokens[i + 1], ')')) {
      const long k = skip_space(tokens, j - 1);
      if (k >= 0 && field_of[static_cast<size_t>(k)] >= 0) {
        const Field& before = out.fields[static_cast<size_t>(field_of[static_cast<size_t>(k)])];
        if (!before.counter && !before.average && before.unit == f.unit) {
          f.key = before.key;
          f.average = true;
          field_of[i] = static_cast<int>(out.fields.size());
          out.fields.push_back(std::move(f));
          continue;
        }
        // `Accuracy: 9741/10000 (97%)` (pytorch/examples' MNIST test line and the scripts made
        // from it): a training quantity counted as done/total, then its percentage: the value.
        if (before.counter && f.unit == "%" && !before.key.empty() &&
            canonical(before.key, "", false, true, 0).role == Role::Training) {
          Field& b = out.fields[static_cast<size_t>(field_of[static_cast<size_t>(k)])];
          b.value = f.value;
          b.unit = f.unit;
          b.token = f.token;
          b.total_token = -1;
          b.counter = false;
          b.total = 0;
          continue;
        }
      }
    }
    std::string_view key_unit;
    // `2epoch`, `12640batch`: the word glued after the number names it (line_tokens.cpp).
    if (tok.kind == TokKind::Number && i + 1 < tokens.size() &&
        tokens[i + 1].kind == TokKind::Word && tokens[i + 1].start == tok.start + tok.len &&
        tok.unit.empty()) {
      f.key = std::string(tokens[i + 1].text);
      used[i + 1] = 1;
    } else {
      f.key = find_key(tokens, i, key_unit, used);
    }
    // tqdm's [elapsed<remaining]: the remaining time.
    if (tok.kind == TokKind::Duration && i >= 1 && is_punct(tokens[i - 1], '<')) f.key = "eta";
    if (tok.kind == TokKind::Duration && month_name(f.key)) continue;  // "08 Jun 17:18": a date
    // A bar's percentage (`Steps:  45%|████▌ | 450/1000`): its words name the bar's counter.
    if (tok.kind == TokKind::Number && tok.unit == "%") {
      size_t k = i + 1;
      while (k < tokens.size() && tokens[k].kind == TokKind::Space) ++k;
      if (k < tokens.size() && (tokens[k].kind == TokKind::Bar || is_punct(tokens[k], '|'))) {
        bar_key = f.key;
        continue;
      }
    }
    if (f.key.empty() && f.counter && !bar_key.empty()) {
      f.key = bar_key;
      bar_key.clear();
    }
    if (f.unit.empty()) f.unit = key_unit;
    // "step 120 of 1000": the total of the value before.
    if (f.key == "of" && !out.fields.empty() && !out.fields.back().counter) {
      Field& before = out.fields.back();
      before.counter = true;
      before.total = f.value;
      before.total_token = static_cast<int32_t>(i);
      continue;
    }
    // `value key,` (darknet's "1.207728 avg loss, 0.001000 rate, 4.776061 seconds"): the words
    // right after a value that nothing before names, up to a delimiter.
    if (f.key.empty() && !f.counter && f.unit.empty() && i + 2 < tokens.size() &&
        tokens[i + 1].kind == TokKind::Space && !tokens[i + 1].wide &&
        tokens[i + 2].kind == TokKind::Word) {
      size_t k = i + 2;
      std::string words(tokens[k].text);
      while (k + 2 < tokens.size() && tokens[k + 1].kind == TokKind::Space && !tokens[k + 1].wide &&
             tokens[k + 2].kind == TokKind::Word && k - i < 6) {
        k += 2;
        words += " " + std::string(tokens[k].text);
      }
      const bool delimited = k + 1 == tokens.size() || is_punct(tokens[k + 1], ',') ||
                             is_punct(tokens[k + 1], ';') || is_punct(tokens[k + 1], '|');
      if (delimited && k - i <= 6) {
        f.key = words;
        for (size_t w = i + 2; w <= k; w += 2) used[w] = 1;
      }
    }
    // The line's own count, unnamed, first on the line: CatBoost's `999:\tlearn: ...`,
    // XGBoost's `[5]\ttrain-auc:...`, darknet's `10090: 1.26, ...`, `10000 train loss: ...`
    // (a script's print('%d train loss: ...' % step)): the step.
    if (f.key.empty() && !f.counter && f.unit.empty() && tok.kind == TokKind::Number &&
        tok.value >= 0 && is_whole(tok.value) && out.fields.empty()) {
      size_t first = 0;
      while (first < tokens.size() && tokens[first].kind == TokKind::Space) ++first;
      const bool bracketed = first < i && is_punct(tokens[first], '[') && first + 1 == i &&
                             i + 1 < tokens.size() && is_punct(tokens[i + 1], ']');
      // Not a day of the month (RecBole's "08 Jun 17:18    INFO  epoch 0 training ...").
      const bool month = i + 2 < tokens.size() && tokens[i + 1].kind == TokKind::Space &&
                         tokens[i + 2].kind == TokKind::Word && month_name(tokens[i + 2].text);
      const bool next_ok = i + 1 < tokens.size() && !month &&
                           (is_punct(tokens[i + 1], ':') || tokens[i + 1].kind == TokKind::Space);
      if ((first == i && next_ok) || bracketed) f.key = "step";
    }
    if (f.key.empty()) {
      if (!f.counter && naming_unit(f.unit)) {
        f.key = std::string(f.unit);
        f.from_unit = true;
      } else if (!f.counter) {
        continue;  // a number nothing names
      }
    }
    field_of[i] = static_cast<int>(out.fields.size());
    out.fields.push_back(std::move(f));
  }
  // `Train: 2 [  50/5004 ( 1%)]` (timm), `Train: [0/300][150/195]` (Swin): a number or counter
  // keyed by the phase alone, then a counter of batches: the first counts the epochs.
  for (size_t k = 0; k + 1 < out.fields.size(); ++k) {
    Field& a = out.fields[k];
    Field& b = out.fields[k + 1];
    const std::string n = normalise_key(a.key);
    if ((n == "train" || n == "training") && b.counter && (b.key.empty() || b.key == a.key) &&
        is_whole(a.value) && !a.average) {
      a.key = "epoch";
      b.key.clear();
    }
  }
  // `Test: [ 195/195]` (timm, torchvision's MetricLogger): the evaluation's own count, named by
  // its phase, is no metric (unnamed, it counts only on a progress line).
  for (Field& f : out.fields)
    if (f.counter && eval_word(std::string_view(f.key).substr(0, f.key.find(' '))))
      f.key.clear();  // also "Test (EMA): [ 195/195]"
  // The value at token ti keyed by a table's column: a field already read from it takes the
  // column's name when rekey (or when it had none), else a field is made.
  const auto key_by_column = [&](size_t ti, const std::string& name, bool rekey) {
    if (field_of[ti] >= 0) {
      Field& f = out.fields[static_cast<size_t>(field_of[ti])];
      if (rekey || f.key.empty() || f.from_unit) {
        f.key = name;
        f.from_unit = false;
        f.from_header = true;
      }
      return;
    }
    Field f;
    f.value = tokens[ti].value;
    f.unit = tokens[ti].kind == TokKind::Duration ? "s" : tokens[ti].unit;
    f.column = tokens[ti].start;
    f.token = static_cast<uint32_t>(ti);
    f.from_header = true;
    f.key = name;
    if (tokens[ti].kind == TokKind::Fraction) {
      f.counter = true;
      f.total = tokens[ti].total;
    }
    out.fields.push_back(std::move(f));
  };
  // A row of a bordered table: each value its column's (a column left empty on this row is
  // skipped); a label cell that says the row is an evaluation's (`ValidationPhase`) says so.
  if (header.bordered && !header.cells.empty()) {
    const auto cells = bordered_cells(line.substr(0, kMaxTokenBytes));
    if (cells.size() == header.cells.size()) {
      for (size_t ti = 0; ti < tokens.size(); ++ti) {
        if (!is_value(tokens[ti])) continue;
        size_t c = 0;
        while (c < cells.size() && cells[c].second <= tokens[ti].start) ++c;
        if (c == cells.size() || tokens[ti].start < cells[c].first || header.cells[c].empty())
          continue;
        key_by_column(ti, header.cells[c], true);
      }
      for (const auto& [a, b] : cells) {
        const std::string label = cell_text(line.substr(a, b - a));
        for (std::string_view w : {"validation", "valid", "eval", "test"})
          if (label.size() >= w.size() && iequals(std::string_view(label).substr(0, w.size()), w))
            out.eval_context = true;
      }
    }
  }
  // A row under a header: its leading cells are values, keyed by the header's cells.
  if (!header.cells.empty() && !header.bordered) {
    const auto cells = cells_of(tokens);
    // A fixed-width table whose names fill their columns (YOLOv5's `mAP@.5 mAP@.5:.95`) is apart
    // by one blank there: its words are its columns when a row has as many cells as it has words.
    const std::vector<std::string> names = names_in_context(
        !header.words.empty() && cells.size() == header.words.size() ? header.words : header.cells);
    // A row of numbers only, as many as the header has names (pandas aligns them right, some
    // one blank apart: `   0    74 217.5 2.934    1`): each its column's.
    std::vector<size_t> row;
    bool numbers_only = true;
    for (size_t k = 0; k < tokens.size() && numbers_only; ++k) {
      if (tokens[k].kind == TokKind::Space) continue;
      if (is_value(tokens[k]) && tokens[k].kind != TokKind::Fraction)
        row.push_back(k);
      else if (!(is_punct(tokens[k], '\\') && k + 2 >= tokens.size()))
        numbers_only = false;
    }
    if (numbers_only && row.size() >= 3 &&
        (row.size() == header.cells.size() || row.size() == header.words.size())) {
      const auto cols =
          names_in_context(row.size() == header.cells.size() ? header.cells : header.words);
      for (size_t c = 0; c < row.size(); ++c) key_by_column(row[c], cols[c], true);
      if (eval_word(cols.front())) out.eval_context = true;
      return;  // no word: nothing else to read
    }
    const auto value_cell = [&](size_t c) {
      const auto [a, b] = cells[c];
      return is_value(tokens[a]) && (b == a || (b == a + 1 && is_punct(tokens[b], ':')));
    };
    // A row led by its label (YOLO's `all  677  2449  0.87 ...` under `Class  Images ...`): the
    // label is the first column's, the values the others'; the row must fill the header.
    const size_t first = !cells.empty() && cells.size() == names.size() &&
                                 cells[0].first == cells[0].second &&
                                 tokens[cells[0].first].kind == TokKind::Word
                             ? 1
                             : 0;
    size_t values = first;
    while (values < cells.size() && values < names.size() && value_cell(values)) ++values;
    if (first == 1 && values != cells.size()) values = 0;
    if (values >= first + 2 && values + 2 >= std::min(cells.size(), names.size())) {
      for (size_t c = first; c < values; ++c)
        key_by_column(cells[c].first, names[c], first == 1 && c == 1);  // not `all 677`
      if (eval_word(names.front())) out.eval_context = true;
    }
  }
  // `val: n/a` (LitGPT's progress line before its first evaluation): the key of a value not
  // there yet, no word saying the line is an evaluation's.
  const auto key_of_missing = [&](size_t i) {
    size_t k = i + 1;
    if (k >= tokens.size() || !(is_punct(tokens[k], ':') || is_punct(tokens[k], '='))) return false;
    ++k;
    while (k < tokens.size() && tokens[k].kind == TokKind::Space) ++k;
    if (k >= tokens.size()) return false;
    const std::string_view w = tokens[k].text;
    return (tokens[k].kind == TokKind::Word &&
            (iequals(w, "n/a") || iequals(w, "na") || iequals(w, "none") || iequals(w, "null"))) ||
           is_punct(tokens[k], '-') || is_punct(tokens[k], '?');
  };
  for (size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i].kind == TokKind::Word && !used[i] && eval_word(tokens[i].text) &&
        !key_of_missing(i)) {
      out.eval_context = true;
      out.test_context |= tokens[i].text.starts_with("test") || tokens[i].text.starts_with("Test");
    }
  // A line that starts with an evaluation word ("test Loss: ... Top-1 Acc: ...") is an
  // evaluation's, whichever key that word begins.
  for (const Token& t : tokens)
    if (t.kind == TokKind::Word) {
      const size_t sp = t.text.find_first_of(" _/");
      if (eval_word(t.text.substr(0, sp))) out.eval_context = true;
      break;
    } else if (t.kind != TokKind::Space && t.kind != TokKind::Stamp && t.kind != TokKind::Punct) {
      break;
    }
}

}  // namespace aerun::logread
