// A run's command line with {param} placeholders, compiled once and rendered for each point.
#pragma once

#include <string>
#include <vector>

#include "aerun/error.hpp"
#include "aerun/value.hpp"

namespace aerun {

// A command template compiled once, rendered per point.
//  - `{name}` (name = [A-Za-z_][A-Za-z0-9_]*, not preceded by `$`) is replaced by the value,
//    shell-quoted (aerun::shell_quote): a parameter value can never inject shell code.
//  - `$VAR`, `${VAR}`, `$(...)` are left to the shell.
//  - `{{` and `}}` render as `{` and `}`.
//  - A `{` that does not start a valid placeholder (e.g. awk's `{print $1}`) is literal.
//  - Built-ins: {case} (the case name, quoted), {repeat} (the 0-based repeat index) and
//    {attempt} (rendered as "$AERUN_ATTEMPT": the shell gives the attempt number, so the command
//    and the run's key stay the same for every attempt); a parameter of the same name takes
//    precedence.
class CommandTemplate {
 public:
  // known_params: the names of every point's parameters, in the order render() receives them
  // (Sweep::names()). Throws InputError(loc, "command", "placeholder {x} has no parameter
  // (known: a, b, c)") for a name that is neither a parameter nor a built-in.
  CommandTemplate(std::string tmpl, SourceLoc loc, const std::vector<std::string>& known_params);

  // The shell-ready command for one point. Placeholders were resolved to positions at
  // construction; params in another order still work (found by name, slower).
  std::string render(const ParamList& params, const std::string& case_name, int repeat_index) const;

  const std::string& text() const { return tmpl_; }
  // Names of the placeholders used, in order of first use (built-ins included).
  const std::vector<std::string>& placeholders() const { return used_; }

 private:
  enum class Kind { Literal, Param, Case, Repeat, Attempt };
  struct Segment {
    Kind kind;
    std::string text;  // the literal, or the parameter's name
    size_t index = 0;  // position of the parameter in known_params
  };

  std::string tmpl_;
  std::vector<Segment> segments_;
  std::vector<std::string> used_;
  size_t literal_size_ = 0;
};

}  // namespace aerun
