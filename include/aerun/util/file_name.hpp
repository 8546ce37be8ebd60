// The one way a stored string becomes part of a file's name: one path component, inside its folder.
#pragma once

#include <string>
#include <string_view>

namespace aerun {

// s as one file-name component that stays in the folder it is joined to: kept as it is when made
// of [A-Za-z0-9._+=,@-] only, not empty, not starting with '.' or '-', and at most 120 bytes;
// otherwise every other byte (the slash, control characters, spaces, non-ASCII) becomes '_', a
// leading '.' or '-' too, the result is cut to 100 bytes and "-" and the first 10 hex digits of
// s's SHA-256 are appended, so two different names never share a file ("a/b" and "a_b" differ)
// and "..", "../../x" or a newline can never leave the folder or reach a shell (issue 28).
std::string file_name_part(std::string_view s);

}  // namespace aerun
