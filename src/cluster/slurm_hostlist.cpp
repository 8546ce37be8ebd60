// Slurm host list expansion, matching `scontrol show hostnames` (Slurm 22.05).
#include "cluster/slurm_hostlist.hpp"

#include <fmt/format.h>

#include <algorithm>

#include <cctype>

#include "aerun/util/error.hpp"

namespace aerun {

namespace {

constexpr long long kMaxHostsPerRange = 65536;  // Slurm's MAX_RANGE
constexpr size_t kMaxDigits = 18;               // fits a long long

[[noreturn]] void fail(size_t pos, const std::string& what, std::string_view list) {
  throw InputError(SourceLoc{}, "hostlist",
                   fmt::format("position {}: {} in '{}'", pos + 1, what, list));
}

bool is_separator(char c) {
  return c == ',' || std::isspace(static_cast<unsigned char>(c));
}

// One bracket group's numbers, already formatted with their zero padding.
using Numbers = std::vector<std::string>;

// A number of the bracket starting at `pos`: its digits (at least one).
std::string read_digits(std::string_view list, size_t& pos, size_t end) {
  const size_t start = pos;
  while (pos < end && std::isdigit(static_cast<unsigned char>(list[pos]))) ++pos;
  if (pos == start) {
    if (pos < end && list[pos] != ',' && list[pos] != '-')
      fail(pos, fmt::format("'{}' is not a digit", list[pos]), list);
    fail(pos, "expected a number", list);
  }
  if (pos - start > kMaxDigits) fail(start, "number too large", list);
  return std::string(list.substr(start, pos - start));
}

// The numbers of `[...]` whose content is list[open+1, close).
Numbers expand_bracket(std::string_view list, size_t open, size_t close) {
  Numbers out;
  size_t pos = open + 1;
  if (pos == close) fail(pos, "empty brackets", list);
  while (true) {
    const size_t item = pos;
    const std::string lo_text = read_digits(list, pos, close);
    long long lo = std::stoll(lo_text), hi = lo;
    if (pos < close && list[pos] == '-') {
      ++pos;
      if (pos < close && list[pos] != ',')  // `lo-` alone means lo (Slurm accepts it)
        hi = std::stoll(read_digits(list, pos, close));
    }
    if (pos < close && list[pos] != ',') fail(pos, fmt::format("'{}' in a range", list[pos]), list);
    if (hi < lo) fail(item, fmt::format("range {}-{} goes down", lo, hi), list);
    if (hi - lo + 1 > kMaxHostsPerRange)
      fail(item, fmt::format("more than {} hosts in one range", kMaxHostsPerRange), list);
    const int width = static_cast<int>(lo_text.size());
    for (long long n = lo; n <= hi; ++n) out.push_back(fmt::format("{:0{}d}", n, width));
    if (pos == close) break;
    ++pos;  // ','
    if (pos == close) fail(pos, "expected a number", list);
  }
  return out;
}

// Expands one entry list[begin, end) (no separator outside brackets) and appends its hosts.
// bytes: the names' bytes so far, bounded by kMaxHostBytes; max_hosts: the bound on names.
void expand_entry(std::string_view list, size_t begin, size_t end, std::vector<std::string>& out,
                  size_t& bytes, size_t max_hosts) {
  std::vector<std::string> texts;  // texts[i] comes before groups[i]; texts.back() after the last
  std::vector<Numbers> groups;
  size_t pos = begin, text_start = begin;
  while (pos < end) {
    if (list[pos] == ']') fail(pos, "']' without '['", list);
    if (list[pos] != '[') {
      ++pos;
      continue;
    }
    const size_t close = list.find_first_of("[]", pos + 1);
    if (close == std::string_view::npos || close >= end || list[close] != ']')
      fail(pos, "'[' is not closed", list);
    texts.emplace_back(list.substr(text_start, pos - text_start));
    groups.push_back(expand_bracket(list, pos, close));
    pos = text_start = close + 1;
  }
  texts.emplace_back(list.substr(text_start, end - text_start));
  if (!groups.empty() && !texts.back().empty())
    fail(end - texts.back().size(), "text after the last ']' (Slurm rejects it)", list);
  const auto too_many_bytes = [&] {
    fail(begin,
         fmt::format("the names add up to more than {} MiB (aerun's limit)", kMaxHostBytes >> 20),
         list);
  };
  if (groups.empty()) {
    if (out.size() >= max_hosts)
      fail(begin, fmt::format("more than {} hosts in the list (aerun's limit)", max_hosts), list);
    if ((bytes += texts.front().size()) > kMaxHostBytes) too_many_bytes();
    out.push_back(texts.front());
    return;
  }
  // Bounds before expanding: the product of the groups' sizes, times the longest name.
  size_t total = 1, name_bytes = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    total *= groups[g].size();
    if (total + out.size() > max_hosts)
      fail(begin, fmt::format("more than {} hosts in the list (aerun's limit)", max_hosts), list);
    size_t widest = 0;
    for (const auto& num : groups[g]) widest = std::max(widest, num.size());
    name_bytes += texts[g].size() + widest;
  }
  if (name_bytes > kMaxHostBytes / total || (bytes += total * name_bytes) > kMaxHostBytes)
    too_many_bytes();
  out.reserve(out.size() + total);
  // Slurm's order: the last group varies fastest, then the first, second, ... next-to-last.
  const size_t n = groups.size();
  std::vector<size_t> order{n - 1};
  for (size_t g = 0; g + 1 < n; ++g) order.push_back(g);
  std::vector<size_t> index(n, 0);
  while (true) {
    std::string host;
    for (size_t g = 0; g < n; ++g) host += texts[g] + groups[g][index[g]];
    out.push_back(std::move(host));
    size_t k = 0;
    for (; k < n; ++k) {
      const size_t g = order[k];
      if (++index[g] < groups[g].size()) break;
      index[g] = 0;
    }
    if (k == n) break;
  }
}

}  // namespace

std::vector<std::string> expand_hostlist(std::string_view list, size_t max_hosts) {
  std::vector<std::string> out;
  size_t bytes = 0;
  size_t pos = 0;
  while (pos < list.size()) {
    while (pos < list.size() && is_separator(list[pos])) ++pos;
    if (pos == list.size()) break;
    size_t end = pos;
    int depth = 0;
    while (end < list.size() && (depth > 0 || !is_separator(list[end]))) {
      if (list[end] == '[') ++depth;
      if (list[end] == ']' && depth > 0) --depth;
      ++end;
    }
    expand_entry(list, pos, end, out, bytes, max_hosts);
    pos = end;
  }
  return out;
}

}  // namespace aerun
