#include "aerun/report/env_record_diff.hpp"

#include <fmt/format.h>

#include <map>
#include <sstream>
#include <vector>

#include "aerun/util/secret_text.hpp"
#include "aerun/util/shell_quote.hpp"

namespace aerun {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// What a line is about: the text before its first '=' or ':' (NAME=value, torch==2.1, key: v),
// or the whole line.
std::string subject(const std::string& line) {
  const size_t at = line.find_first_of("=:");
  return at == std::string::npos || at == 0 ? line : line.substr(0, at);
}

// The lines of a part only in A and only in B (as multisets, each in its own order), B's line
// printed right after A's line of the same subject.
std::vector<std::string> changed_lines(const std::string& a, const std::string& b) {
  const auto la = lines_of(a), lb = lines_of(b);
  std::map<std::string, int> count_b;
  for (const auto& l : lb) ++count_b[l];
  std::vector<std::string> only_a;
  for (const auto& l : la) {
    auto it = count_b.find(l);
    if (it != count_b.end() && it->second > 0)
      --it->second;
    else
      only_a.push_back(l);
  }
  std::map<std::string, int> count_a;
  for (const auto& l : la) ++count_a[l];
  std::vector<std::string> only_b;
  for (const auto& l : lb) {
    auto it = count_a.find(l);
    if (it != count_a.end() && it->second > 0)
      --it->second;
    else
      only_b.push_back(l);
  }
  std::multimap<std::string, size_t> b_by_subject;
  for (size_t i = 0; i < only_b.size(); ++i) b_by_subject.emplace(subject(only_b[i]), i);
  std::vector<bool> shown(only_b.size(), false);
  std::vector<std::string> out;
  for (const auto& l : only_a) {
    out.push_back("- " + printable(l));
    auto it = b_by_subject.find(subject(l));
    if (it != b_by_subject.end()) {
      out.push_back("+ " + printable(only_b[it->second]));
      shown[it->second] = true;
      b_by_subject.erase(it);
    }
  }
  for (size_t i = 0; i < only_b.size(); ++i)
    if (!shown[i]) out.push_back("+ " + printable(only_b[i]));
  return out;
}

std::string status_text(const EnvItem& i) {
  return i.status.empty() ? "ok" : i.status;
}

}  // namespace

EnvRecordDiff diff_env_records(const EnvRecord* a, const EnvRecord* b, bool all, size_t max_lines) {
  EnvRecordDiff d;
  if (!a && !b) return d;
  if (!a || !b) {
    d.different = 1;
    d.text = fmt::format(
        "environment record (only {} has one: {} was ingested or stored before aerun kept "
        "records)\n",
        a ? "A" : "B", a ? "B" : "A");
    return d;
  }
  std::vector<std::string> names;
  for (const auto& i : a->items) names.push_back(i.name);
  for (const auto& i : b->items)
    if (!a->find(i.name)) names.push_back(i.name);
  std::string body;
  std::vector<std::string> same;
  for (const auto& name : names) {
    const EnvItem* ia = a->find(name);
    const EnvItem* ib = b->find(name);
    if (ia && ib && *ia == *ib) {
      same.push_back(name);
      continue;
    }
    ++d.different;
    if (!ia || !ib) {
      body += fmt::format("  {}  only in {}\n", name, ia ? "A" : "B");
      continue;
    }
    body += fmt::format("  {}\n", name);
    if (ia->status != ib->status)
      body += fmt::format("    status  A {}  B {}\n", status_text(*ia), status_text(*ib));
    // A record kept before secrets in free text were redacted at capture is redacted here.
    const auto changes =
        changed_lines(redacted_text(ia->text), redacted_text(ib->text));
    for (size_t k = 0; k < changes.size() && k < max_lines; ++k) body += "    " + changes[k] + "\n";
    if (changes.size() > max_lines)
      body += fmt::format("    ... {} more changed lines (aerun show RUN --env)\n",
                          changes.size() - max_lines);
  }
  d.text = fmt::format("environment record ({} part{} differ{}{})\n", d.different,
                       d.different == 1 ? "" : "s", d.different == 1 ? "s" : "",
                       same.empty() ? "" : fmt::format(", {} the same", same.size()));
  d.text += body;
  if (all && !same.empty()) {
    std::string list;
    for (const auto& n : same) list += (list.empty() ? "" : ", ") + n;
    d.text += "  the same: " + list + "\n";
  }
  return d;
}

}  // namespace aerun
