#include "aerun/sweep/command_template.hpp"

#include <algorithm>

#include "aerun/util/shell_quote.hpp"
#include "aerun/util/template_text.hpp"

namespace aerun {

namespace {

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
                                 const std::vector<std::string>& known_params,
                                 const std::optional<std::string>& launch)
    : tmpl_(std::move(tmpl)) {
  bool launched = false;
  for (TemplatePiece& p : scan_template(tmpl_)) {
    if (!p.placeholder) {
      literal_size_ += p.text.size();
      segments_.push_back({Kind::Literal, std::move(p.text), 0});
      continue;
    }
    const std::string& name = p.text;
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
    else if (name == "launch" && launch) {
      seg = {Kind::Literal, *launch, 0};  // already shell-ready
      literal_size_ += launch->size();
      launched = true;
    } else
      throw InputError(
          loc, "command",
          "placeholder {" + name + "} has no parameter (known: " + join(known_params) + ")");
    if (std::find(used_.begin(), used_.end(), name) == used_.end()) used_.push_back(name);
    segments_.push_back(std::move(seg));
  }
  if (launch && !launched && !launch->empty()) {
    segments_.insert(segments_.begin(), Segment{Kind::Literal, *launch + " ", 0});
    literal_size_ += launch->size() + 1;
  }
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
