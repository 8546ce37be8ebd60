// The key/value grammar people print, read from a line's tokens: `key: value`, `key=value`,
// `key value`, `| key | value |` cells, Python dicts and JSON (quoted keys, quoted values),
// `key (unit): value`, `Epoch 3/10`, `[ 120/1000]`, `step 120 of 1000`, a value followed by its
// running average in parentheses, and a value whose unit names it (`3ms/step`, `4.2it/s`).
// Also the line's template: its text with every number masked, the key the generic reader groups
// lines by (docs/presets.md, "Reading a log it was not taught").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "logread/line_tokens.hpp"

namespace aerun::logread {

// One number of a line with what names it.
struct Field {
  std::string key;        // the key phrase as printed, blanks collapsed ("Tokens per second")
  std::string_view unit;  // from the value ("ms", "%", "it/s") or the key ("(ms)", "_ms", "in s")
  double value = 0;
  double total = 0;          // a counter's planned count (Fraction), else 0
  bool counter = false;      // written as done/total or "done of total"
  bool average = false;      // the running average in parentheses after a keyed value
  bool from_unit = false;    // no key: named by its unit (3ms/step)
  bool from_header = false;  // keyed by a table's header
  uint32_t column = 0;       // where the number starts in the line
  uint32_t token = 0;        // its token
  int32_t total_token = -1;  // the token of its total when another ("120 of 1000")
};

// A line as the generic reader sees it.
struct LineFields {
  uint64_t shape = 0;         // hash of the template
  std::string template_text;  // filled only when asked (new templates, --explain)
  std::vector<Field> fields;
  bool eval_context = false;  // a word of the line outside its keys says eval/valid/test
  bool test_context = false;  // that word is test/testing
  bool has_digits = false;    // any digit at all (a line without one is skipped early)
};

// The column names of a table's header line (`epoch  train_loss  valid_loss  time`): the rows
// of numbers under it take them as keys, cell by cell.
struct TableHeader {
  std::vector<std::string> cells;
  std::vector<std::string> words;  // the names cut at single blanks too, when that gives more
  uint64_t generation = 0;         // counts the headers read
  // A bordered table's (`|  Epoch  |  Iteration  |`, `│ Phase │ Epoch │`): its columns by their
  // place between the borders, a header of several lines joined column by column.
  bool bordered = false;
  bool rows_seen =
      false;  // a row came under it (a bordered line of names after one is a new header)
};

// Reads line into out (cleared first). tokens is scratch space, kept between calls; header is the
// last table header seen (a header line replaces it; a row of numbers under it is keyed by it).
void read_fields(std::string_view line, std::vector<Token>& tokens, LineFields& out,
                 bool with_template_text, TableHeader& header);

// The first half of read_fields: the tokens and the template's hash (out.shape, out.has_digits;
// a header line is read into header). False when the line can have no field (no digit, or a
// header). The second half, read_keys, reads the fields of the tokens read_shape left.
bool read_shape(std::string_view line, std::vector<Token>& tokens, LineFields& out,
                TableHeader& header);
void read_keys(std::string_view line, const std::vector<Token>& tokens, LineFields& out,
               bool with_template_text, const TableHeader& header);

// Whether a line without a value heads an evaluation's section: its message (after a logger's
// prefix) holds an evaluation word (eval, evaluation, validation, test, ...) and is a heading —
// framed by a rule (`=====Evaluation Metrics=====`, `***** eval metrics *****`) or ending with
// `:` or `...` (`Evaluating on test set...`, `Validation results:`).
bool heads_evaluation(std::string_view line);

// The template text of a line: each number, counter, duration and timestamp written as `#`, bar
// glyphs as `~`, blanks collapsed to one (a word keeps its digits: `loss_0` and `loss_1` are
// other keys).
std::string template_of(std::string_view line, const std::vector<Token>& tokens);

}  // namespace aerun::logread
