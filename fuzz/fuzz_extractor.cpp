// Fuzz target: the log extractor against RE2 as the oracle. Input: a selector byte, then a
// pattern (or literals, one per line) up to the first NUL, then the log text.
//  - MultiLiteral: the SIMD (Teddy) and portable (Wu-Manber) engines report exactly the
//    occurrences a plain search finds, with their lines, and count the same newlines.
//  - LinearPattern: where it recognises a pattern, it matches at each offset exactly what RE2
//    anchored there matches, capture included.
//  - Extractor: fed in chunks of any size, a metric's count (matching lines) and last value are
//    what RE2's partial match gives line by line (escape sequences removed, a lone '\r' a line
//    end: docs/presets.md, "Lines as patterns see them").
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <re2/re2.h>

#include "aerun/extract/extractor.hpp"
#include "aerun/util/error.hpp"
#include "extract/linear_pattern.hpp"
#include "extract/multi_literal.hpp"
#include "extract/parse_number.hpp"

namespace {

using Hit = std::tuple<size_t, uint32_t, size_t>;  // offset, literal, line

std::vector<Hit> scan_with(aerun::MultiLiteral& ml, std::string_view text, size_t* lines) {
  std::vector<Hit> hits;
  *lines = ml.scan(text.data(), text.size(),
                   [&](uint32_t id, size_t off, size_t line) { hits.emplace_back(off, id, line); });
  std::sort(hits.begin(), hits.end());
  return hits;
}

void check_literals(std::string_view head, std::string_view text) {
  std::vector<std::string> lits;
  for (size_t at = 0; at <= head.size() && lits.size() < 16;) {
    size_t nl = head.find('\n', at);
    if (nl == std::string_view::npos) nl = head.size();
    if (nl - at >= 4) lits.emplace_back(head.substr(at, nl - at));
    at = nl + 1;
  }
  std::sort(lits.begin(), lits.end());
  lits.erase(std::unique(lits.begin(), lits.end()), lits.end());
  if (lits.empty()) return;
  std::vector<Hit> want;
  for (uint32_t id = 0; id < lits.size(); ++id)
    for (size_t p = text.find(lits[id]); p != std::string_view::npos;
         p = text.find(lits[id], p + 1))
      want.emplace_back(p, id, std::count(text.begin(), text.begin() + p, '\n'));
  std::sort(want.begin(), want.end());
  const size_t newlines = std::count(text.begin(), text.end(), '\n');
  for (auto engine : {aerun::MultiLiteral::Engine::Best, aerun::MultiLiteral::Engine::Portable}) {
    aerun::MultiLiteral ml(lits, engine);
    size_t lines = 0;
    if (scan_with(ml, text, &lines) != want || lines != newlines) __builtin_trap();
  }
}

void check_linear(const std::string& pattern, const RE2& re, std::string_view text) {
  const auto lp = aerun::LinearPattern::recognise(pattern);
  if (!lp || lp->groups() != re.NumberOfCapturingGroups()) return;
  const re2::StringPiece t(text.data(), text.size());
  for (size_t pos = 0; pos <= text.size() && pos < 512; ++pos) {
    re2::StringPiece sub[2];
    const int n = lp->groups() ? 2 : 1;
    const bool want = re.Match(t, pos, text.size(), RE2::ANCHOR_START, sub, n);
    std::string_view cap;
    const bool got = lp->match_at(text, pos, &cap);
    if (got != want) __builtin_trap();
    if (got && lp->groups() && (cap.data() != sub[1].data() || cap.size() != sub[1].size()))
      __builtin_trap();
  }
}

void check_extractor(const std::string& pattern, const RE2& re, std::string_view text,
                     size_t chunk) {
  if (re.NumberOfCapturingGroups() != 1) return;
  std::vector<aerun::MetricSpec> metrics(2);
  metrics[0].name = "n";
  metrics[0].pattern = pattern;
  metrics[0].reduce = aerun::Reduction::Count;
  metrics[1].name = "last";
  metrics[1].pattern = pattern;
  metrics[1].reduce = aerun::Reduction::Last;
  std::optional<aerun::Extractor> ex;
  try {
    ex.emplace(metrics, std::vector<aerun::StatusPattern>{}, aerun::StartupSpec{});
  } catch (const aerun::InputError&) {
    return;
  }
  for (size_t at = 0; at < text.size(); at += chunk) ex->feed(text.substr(at, chunk));
  ex->finish();
  // The oracle: lines split at '\n', a trailing '\r' dropped, escape sequences removed (CSI
  // "ESC [ params final", OSC "ESC ] ... BEL|ESC \\", two-byte "ESC x"), the rest split at each
  // '\r', RE2's partial match on each piece.
  static const RE2 escape(
      "\x1b(?:\\[[\x20-\x3f]*[\x40-\x7e]?|\\][^\x07\x1b\n]*(?:\x07|\x1b\\\\)?|[^\n\r])?",
      RE2::Latin1);  // byte by byte, as the extractor removes them
  long long matched = 0, lines = 0;
  std::optional<double> last;
  for (size_t at = 0; at < text.size();) {
    size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view raw = text.substr(at, nl - at);
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    std::string clean(raw);
    RE2::GlobalReplace(&clean, escape, "");
    for (size_t from = 0;;) {
      const size_t cr = std::min(clean.find('\r', from), clean.size());
      const std::string_view line = std::string_view(clean).substr(from, cr - from);
      ++lines;
      re2::StringPiece cap;
      if (RE2::PartialMatch(re2::StringPiece(line.data(), line.size()), re, &cap)) {
        ++matched;  // count: matching lines, whatever they capture
        if (const auto v = aerun::parse_number(std::string_view(cap.data(), cap.size()))) last = v;
      }
      if (cr == clean.size()) break;
      from = cr + 1;
    }
    at = nl + 1;
  }
  if (ex->lines() != lines) __builtin_trap();
  long long got_count = -1;
  std::optional<double> got_last;
  for (const auto& m : ex->metrics()) {
    if (m.name == "n") got_count = static_cast<long long>(m.value);
    if (m.name == "last") got_last = m.value;
  }
  if (got_count != matched || got_last != last) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const uint8_t mode = data[0];
  const std::string_view in(reinterpret_cast<const char*>(data + 1), size - 1);
  const size_t nul = in.find('\0');
  if (nul == std::string_view::npos) return 0;
  const std::string_view head = in.substr(0, nul), text = in.substr(nul + 1);
  if (mode % 2 == 0) {
    check_literals(head, text);
    return 0;
  }
  const std::string pattern(head);
  RE2::Options opts;
  opts.set_log_errors(false);
  const RE2 re(pattern, opts);
  if (!re.ok()) return 0;
  check_linear(pattern, re, text.substr(0, text.find('\n')));
  check_extractor(pattern, re, text, 1 + (mode >> 1) % 64);
  return 0;
}
