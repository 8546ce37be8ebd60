// Quoting for POSIX shells: a quoted value is always one word and never runs code.
#pragma once

#include <string>
#include <string_view>

namespace aerun {

// Returns s unchanged when it is made only of safe characters ([A-Za-z0-9_./:=@%+,-]),
// otherwise wrapped in single quotes with embedded quotes written as '\''.
std::string shell_quote(std::string_view s);

// s for a line of text a shell or a terminal will read as text only (a comment in a script, a
// message): control characters (newline, carriage return, escape, ...) and DEL become \xNN, so
// the line stays one line and no terminal escape sequence gets through.
std::string printable(std::string_view s);

}  // namespace aerun
