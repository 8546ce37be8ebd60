#include "logread/line_fields.hpp"

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
  if (j >= 0 && is_punct(t[static_cast<size_t>(j)], '[')) j = skip_space(t, j - 1);
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
  // The key's words, back to a delimiter.
  std::string key;
  size_t words = 0;
  while (j >= 0 && t[static_cast<size_t>(j)].kind == TokKind::Word && words < kMaxKeyWords) {
    const std::string_view w = t[static_cast<size_t>(j)].text;
    if (source_file_word(w)) return "";
    key.insert(0, words == 0 ? std::string(w) : std::string(w) + " ");
    used[static_cast<size_t>(j)] = 1;
    ++words;
    if (j >= 1 && t[static_cast<size_t>(j - 1)].kind == TokKind::Space &&
        !t[static_cast<size_t>(j - 1)].wide && j >= 2 &&
        t[static_cast<size_t>(j - 2)].kind == TokKind::Word && connector)
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
  std::vector<std::string> names;
  for (const auto& [a, b] : cells) {
    bool word = false;
    for (size_t k = a; k <= b; ++k) {
      if (is_value(t[k]) || t[k].kind == TokKind::Bar || t[k].kind == TokKind::Stamp) return false;
      word |= t[k].kind == TokKind::Word;
      if (t[k].kind == TokKind::Punct &&
          std::string_view("/@.:()%_-#").find(t[k].punct) == std::string_view::npos)
        return false;
    }
    if (!word || b - a > 6) return false;
    std::string name(line.substr(t[a].start, t[b].start + t[b].len - t[a].start));
    while (!name.empty() && name.back() == ':') name.pop_back();
    names.push_back(std::move(name));
  }
  header.cells = std::move(names);
  ++header.generation;
  return true;
}

}  // namespace

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
    // A table's header has no digits, and its cells are apart by two blanks or a tab.
    if (head.find("  ") != std::string_view::npos || head.find('\t') != std::string_view::npos) {
      tokenize(line, tokens);
      read_header(line, tokens, header);
    }
    return false;
  }
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
      }
    }
    std::string_view key_unit;
    f.key = find_key(tokens, i, key_unit, used);
    // tqdm's [elapsed<remaining]: the remaining time.
    if (tok.kind == TokKind::Duration && i >= 1 && is_punct(tokens[i - 1], '<')) f.key = "eta";
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
  // A row under a header: its leading cells are values, keyed by the header's cells.
  if (!header.cells.empty()) {
    const auto cells = cells_of(tokens);
    size_t values = 0;
    while (values < cells.size() && values < header.cells.size()) {
      const auto [a, b] = cells[values];
      if (!is_value(tokens[a]) || (b != a && !(b == a + 1 && is_punct(tokens[b], ':')))) break;
      ++values;
    }
    if (values >= 2 && values + 2 >= std::min(cells.size(), header.cells.size())) {
      for (size_t c = 0; c < values; ++c) {
        const size_t ti = cells[c].first;
        if (field_of[ti] >= 0) {
          Field& f = out.fields[static_cast<size_t>(field_of[ti])];
          if (f.key.empty() || f.from_unit) {
            f.key = header.cells[c];
            f.from_unit = false;
            f.from_header = true;
          }
          continue;
        }
        Field f;
        f.value = tokens[ti].value;
        f.unit = tokens[ti].kind == TokKind::Duration ? "s" : tokens[ti].unit;
        f.column = tokens[ti].start;
        f.token = static_cast<uint32_t>(ti);
        f.from_header = true;
        f.key = header.cells[c];
        out.fields.push_back(std::move(f));
      }
      if (eval_word(header.cells.front())) out.eval_context = true;
    }
  }
  for (size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i].kind == TokKind::Word && !used[i] && eval_word(tokens[i].text)) {
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
