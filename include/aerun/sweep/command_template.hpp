// A run's command line with {param} placeholders, compiled once and rendered for each point.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aerun/util/error.hpp"
#include "aerun/util/value.hpp"

namespace aerun {

// A command template compiled once, rendered per point, in the template language of
// template_text.hpp.
//  - `{name}` (name = [A-Za-z_][A-Za-z0-9_]*, not preceded by `$`) is replaced by the value,
//    quoted for where it lands (shell_context.hpp): shell-quoted (aerun::shell_quote) outside
//    quotes, escaped for the quotes the template wrote around it ("{p}", '{p}'), shown on one
//    line in a # comment: a parameter value can never inject shell code.
//  - `$VAR`, `${VAR}`, `$(...)` are left to the shell.
//  - `{{` and `}}` render as `{` and `}`.
//  - A `{` that does not start a valid placeholder (e.g. awk's `{print $1}`) is literal.
//  - Built-ins: {case} (the case name, quoted), {repeat} (the 0-based repeat index) and
//    {attempt} (rendered as "$AERUN_ATTEMPT": the shell gives the attempt number, so the command
//    and the run's key stay the same for every attempt) and {rundir} (rendered as
//    "$AERUN_RUNDIR": the run's own directory, named after its key); a parameter of the same name
//    takes precedence.
//  - {launch}: the launcher's line (launch_setup.hpp), as it is (it is already shell-ready); a
//    command without {launch} gets the line in front of it.
class CommandTemplate {
 public:
  // Where a placeholder lands in the shell text around it.
  enum class Context { Plain, DoubleQuoted, SingleQuoted, Comment };

  // known_params: the names of every point's parameters, in the order render() receives them
  // (Sweep::names()). Throws InputError(loc, "command", "placeholder {x} has no parameter
  // (known: a, b, c)") for a name that is neither a parameter nor a built-in.
  // launch: the launch line, when the case has a launcher (nullopt: `{launch}` is an error, as
  // any unknown name).
  CommandTemplate(std::string tmpl, SourceLoc loc, const std::vector<std::string>& known_params,
                  const std::optional<std::string>& launch = std::nullopt);

  // The shell-ready command for one point. Placeholders were resolved to positions at
  // construction; params in another order still work (found by name, slower).
  std::string render(const ParamList& params, const std::string& case_name, int repeat_index) const;

  const std::string& text() const { return tmpl_; }
  // Names of the placeholders used, in order of first use (built-ins included).
  const std::vector<std::string>& placeholders() const { return used_; }

 private:
  enum class Kind { Literal, Param, Case, Repeat, Attempt, Rundir };  // {launch}: a Literal
  struct Segment {
    Kind kind;
    std::string text;  // the literal, or the parameter's name
    size_t index = 0;  // position of the parameter in known_params
    Context context = Context::Plain;
  };

  std::string tmpl_;
  std::vector<Segment> segments_;
  std::vector<std::string> used_;
  size_t literal_size_ = 0;
};

}  // namespace aerun
