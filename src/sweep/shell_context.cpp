#include "sweep/shell_context.hpp"

namespace aerun {

namespace {
bool word_start(char prev) {
  return prev == ' ' || prev == '\t' || prev == '\n' || prev == ';' || prev == '&' || prev == '|' ||
         prev == '(' || prev == ')';
}
}  // namespace

void ShellContext::feed(std::string_view text) {
  for (const char c : text) {
    const char top = stack_.empty() ? 0 : stack_.back();
    if (comment_) {
      if (c == '\n') comment_ = false;
    } else if (escaped_) {
      escaped_ = false;
    } else if (top == '\'') {
      if (c == '\'') stack_.pop_back();
    } else if (top == '"') {
      if (c == '\\')
        escaped_ = true;
      else if (c == '"')
        stack_.pop_back();
      else if (c == '`')
        stack_ += '`';
      else if (c == '(' && prev_ == '$')
        stack_ += '(';
    } else {  // plain: the top level, a $( ) or ( ) group, or a backquote substitution
      if (c == '\\')
        escaped_ = true;
      else if (c == '\'')
        stack_ += '\'';
      else if (c == '"')
        stack_ += '"';
      else if (c == '`') {
        if (top == '`')
          stack_.pop_back();
        else
          stack_ += '`';
      } else if (c == '(')
        stack_ += '(';
      else if (c == ')' && top == '(')
        stack_.pop_back();
      else if (c == '#' && word_start(prev_) && prev_ != '$')
        comment_ = true;
    }
    prev_ = c;
  }
}

ShellContext::Quote ShellContext::quote() const {
  if (comment_ || stack_.empty()) return Quote::None;
  return stack_.back() == '\'' ? Quote::Single : stack_.back() == '"' ? Quote::Double : Quote::None;
}

}  // namespace aerun
