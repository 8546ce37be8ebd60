// SLURM_TASKS_PER_NODE-style counts: "2(x3),1" -> 2, 2, 2, 1.
#include <fmt/format.h>

#include <cctype>

#include "aerun/util/error.hpp"
#include "cluster/slurm_hostlist.hpp"

namespace aerun {

namespace {

[[noreturn]] void fail(size_t pos, const std::string& what, std::string_view s) {
  throw InputError(SourceLoc{}, "tasks per node",
                   fmt::format("position {}: {} in '{}'", pos + 1, what, s));
}

int read_count(std::string_view s, size_t& pos) {
  const size_t start = pos;
  while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) ++pos;
  if (pos == start) fail(pos, "expected a number", s);
  if (pos - start > 6) fail(start, "number too large", s);
  return std::stoi(std::string(s.substr(start, pos - start)));
}

}  // namespace

std::vector<int> expand_tasks_per_node(std::string_view s) {
  std::vector<int> out;
  size_t pos = 0;
  if (s.empty()) fail(0, "expected a number", s);
  while (true) {
    const int count = read_count(s, pos);
    int times = 1;
    if (pos < s.size() && s[pos] == '(') {
      if (pos + 1 >= s.size() || s[pos + 1] != 'x') fail(pos + 1, "expected 'x'", s);
      pos += 2;
      times = read_count(s, pos);
      if (pos >= s.size() || s[pos] != ')') fail(pos, "expected ')'", s);
      ++pos;
      if (times < 1) fail(pos - 2, "a repeat count must be at least 1", s);
    }
    out.insert(out.end(), times, count);
    if (pos == s.size()) break;
    if (s[pos] != ',') fail(pos, fmt::format("unexpected '{}'", s[pos]), s);
    ++pos;
  }
  return out;
}

}  // namespace aerun
