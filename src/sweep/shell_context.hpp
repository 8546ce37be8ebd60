// Which quotes a shell is inside at a point of a command text: where a placeholder lands decides
// how its value is quoted (command_template.hpp).
#pragma once

#include <string>
#include <string_view>

namespace aerun {

// Reads a command text as sh does, as far as quoting goes: '...', "...", backslash escapes,
// $(...) and `...` (a fresh context inside, even within double quotes), ( ) groups and # comments.
// Heredoc bodies and ${...} words are read as plain text.
class ShellContext {
 public:
  enum class Quote { None, Single, Double };

  void feed(std::string_view text);
  // The quotes the next byte would be inside.
  Quote quote() const;
  // Whether the next byte would be inside a # comment.
  bool in_comment() const { return comment_; }

 private:
  // One open level: ' " (a quote), ( a $( ) or ( ) group, ` a backquote substitution.
  std::string stack_;
  bool escaped_ = false;
  bool comment_ = false;
  char prev_ = '\n';  // the byte before (a # starts a comment only at the start of a word)
};

}  // namespace aerun
