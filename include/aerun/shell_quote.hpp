// Quoting for POSIX shells: a quoted value is always one word and never runs code.
#pragma once

#include <string>
#include <string_view>

namespace aerun {

// Returns s unchanged when it is made only of safe characters ([A-Za-z0-9_./:=@%+,-]),
// otherwise wrapped in single quotes with embedded quotes written as '\''.
std::string shell_quote(std::string_view s);

}  // namespace aerun
