#include "aerun/command_template.hpp"

#include <algorithm>

#include "aerun/shell_quote.hpp"

namespace aerun {

namespace {

bool ident_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool ident_char(char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}

// Length of a valid `{name}` at s[i] (s[i] == '{'), or 0.
size_t placeholder_length(const std::string& s, size_t i) {
  size_t j = i + 1;
  if (j >= s.size() || !ident_start(s[j])) return 0;
  while (j < s.size() && ident_char(s[j])) ++j;
  return j < s.size() && s[j] == '}' ? j + 1 - i : 0;
}

std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) {
    if (!s.empty()) s += ", ";
    s += n;
  }
  return s;
}

}  // namespace

CommandTemplate::CommandTemplate(std::string tmpl, SourceLoc loc,
                                 const std::vector<std::string>& known_params)
    : tmpl_(std::move(tmpl)) {
  std::string literal;
  auto flush = [&] {
    if (literal.empty()) return;
    literal_size_ += literal.size();
    segments_.push_back({Kind::Literal, std::move(literal), 0});
    literal.clear();
  };
  const std::string& s = tmpl_;
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    if ((c == '{' || c == '}') && i + 1 < s.size() && s[i + 1] == c) {  // {{ or }}
      literal += c;
      i += 2;
      continue;
    }
    const size_t len = c == '{' && (i == 0 || s[i - 1] != '$') ? placeholder_length(s, i) : 0;
    if (len == 0) {
      literal += c;
      ++i;
      continue;
    }
    std::string name = s.substr(i + 1, len - 2);
    i += len;
    flush();
    Segment seg{Kind::Param, name, 0};
    const auto it = std::find(known_params.begin(), known_params.end(), name);
    if (it != known_params.end())
      seg.index = static_cast<size_t>(it - known_params.begin());
    else if (name == "case")
      seg.kind = Kind::Case;
    else if (name == "repeat")
      seg.kind = Kind::Repeat;
    else if (name == "attempt")
      seg.kind = Kind::Attempt;
    else
      throw InputError(
          loc, "command",
          "placeholder {" + name + "} has no parameter (known: " + join(known_params) + ")");
    if (std::find(used_.begin(), used_.end(), name) == used_.end()) used_.push_back(name);
    segments_.push_back(std::move(seg));
  }
  flush();
}

std::string CommandTemplate::render(const ParamList& params, const std::string& case_name,
                                    int repeat_index) const {
  std::string out;
  out.reserve(literal_size_ + 16 * segments_.size());
  for (const auto& seg : segments_) {
    switch (seg.kind) {
      case Kind::Literal:
        out += seg.text;
        break;
      case Kind::Case:
        out += shell_quote(case_name);
        break;
      case Kind::Repeat:
        out += std::to_string(repeat_index);
        break;
      case Kind::Attempt:
        // The shell fills it in: the command (and so the run's key) is the same for every attempt.
        out += "\"$AERUN_ATTEMPT\"";
        break;
      case Kind::Param: {
        const Value* v = nullptr;
        if (seg.index < params.size() && params[seg.index].first == seg.text)
          v = &params[seg.index].second;  // the expected order: no lookup
        else
          v = find_param(params, seg.text);
        if (!v)
          throw InputError("command: placeholder {" + seg.text +
                           "} has no value in this run's parameters");
        out += shell_quote(v->text());
        break;
      }
    }
  }
  return out;
}

}  // namespace aerun
