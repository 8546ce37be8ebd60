#include "aerun/sweep/command_template.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "aerun/util/shell_quote.hpp"
#include "aerun/util/template_text.hpp"
#include "sweep/shell_context.hpp"

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

// A value as one shell word where it lands. Outside quotes: shell-quoted. Inside quotes the
// template wrote: the shell-quoted word, escaped for those quotes ("...": \ $ ` " backslashed;
// '...': each ' written '\'') — the shell reading the command then gets the quoted word as text,
// and nothing of the value runs whether that text is used as it is or handed to another shell
// (`bash -c '... {p} ...'`, srun, ssh). A value of plain characters is the value in every case.
// In a # comment: on one line, control characters shown escaped (a newline would end it).
void append_quoted(std::string& out, std::string_view v, CommandTemplate::Context ctx) {
  switch (ctx) {
    case CommandTemplate::Context::Plain:
      out += shell_quote(v);
      return;
    case CommandTemplate::Context::DoubleQuoted:
      for (const char c : shell_quote(v)) {
        if (c == '\\' || c == '$' || c == '`' || c == '"') out += '\\';
        out += c;
      }
      return;
    case CommandTemplate::Context::SingleQuoted:
      for (const char c : shell_quote(v)) {
        if (c == '\'')
          out += "'\\''";
        else
          out += c;
      }
      return;
    case CommandTemplate::Context::Comment:
      out += printable(v);
      return;
  }
}

CommandTemplate::Context context_of(const ShellContext& sh) {
  if (sh.in_comment()) return CommandTemplate::Context::Comment;
  switch (sh.quote()) {
    case ShellContext::Quote::Single:
      return CommandTemplate::Context::SingleQuoted;
    case ShellContext::Quote::Double:
      return CommandTemplate::Context::DoubleQuoted;
    case ShellContext::Quote::None:
      break;
  }
  return CommandTemplate::Context::Plain;
}

// A variable the shell fills in, as one word wherever it lands: "${V}" outside quotes, ${V}
// inside the double quotes the template wrote, '"${V}"' inside its single quotes.
void append_variable(std::string& out, const char* name, CommandTemplate::Context c) {
  switch (c) {
    case CommandTemplate::Context::SingleQuoted:
      out += fmt::format("'\"${{{}}}\"'", name);
      break;
    case CommandTemplate::Context::DoubleQuoted:
    case CommandTemplate::Context::Comment:
      out += fmt::format("${{{}}}", name);
      break;
    case CommandTemplate::Context::Plain:
      out += fmt::format("\"${{{}}}\"", name);
      break;
  }
}

}  // namespace

CommandTemplate::CommandTemplate(std::string tmpl, SourceLoc loc,
                                 const std::vector<std::string>& known_params,
                                 const std::optional<std::string>& launch)
    : tmpl_(std::move(tmpl)) {
  bool launched = false;
  ShellContext sh;
  for (TemplatePiece& p : scan_template(tmpl_)) {
    if (!p.placeholder) {
      literal_size_ += p.text.size();
      sh.feed(p.text);
      segments_.push_back({Kind::Literal, std::move(p.text), 0});
      continue;
    }
    const std::string& name = p.text;
    Segment seg{Kind::Param, name, 0, context_of(sh)};
    const auto it = std::find(known_params.begin(), known_params.end(), name);
    if (it != known_params.end())
      seg.index = static_cast<size_t>(it - known_params.begin());
    else if (name == "case")
      seg.kind = Kind::Case;
    else if (name == "repeat")
      seg.kind = Kind::Repeat;
    else if (name == "attempt")
      seg.kind = Kind::Attempt;
    else if (name == "rundir")
      seg.kind = Kind::Rundir;
    else if (name == "launch" && launch) {
      seg = {Kind::Literal, *launch, 0};  // already shell-ready
      sh.feed(*launch);
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
        append_quoted(out, case_name, seg.context);
        break;
      case Kind::Repeat:
        out += std::to_string(repeat_index);
        break;
      case Kind::Attempt:
        // The shell fills it in: the command (and so the run's key) is the same for every attempt.
        // (As written since {attempt} exists: run keys of stored runs depend on this text.)
        out += seg.context == Context::SingleQuoted ? "'\"$AERUN_ATTEMPT\"'"
               : seg.context == Context::Comment    ? "$AERUN_ATTEMPT"
                                                    : "\"$AERUN_ATTEMPT\"";
        break;
      case Kind::Rundir:
        // The run's own directory, known once it runs (its key names it): the shell fills it in.
        append_variable(out, "AERUN_RUNDIR", seg.context);
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
        append_quoted(out, v->text(), seg.context);
        break;
      }
    }
  }
  return out;
}

}  // namespace aerun
