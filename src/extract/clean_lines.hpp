// What a log line is before patterns see it: terminal escape sequences (colours, cursor moves)
// removed, and a carriage return that is not part of "\r\n" read as a line end (a progress bar
// redrawn in place, as tqdm writes it to a file).
#pragma once

#include <cstddef>
#include <string>

namespace aerun {

// Whether p[0, n) holds an ESC or a CR byte (anything clean_lines would change), 64 bytes at a
// time with SSE2.
bool needs_cleaning(const char* p, size_t n);

// Appends p[0, n) to out without its escape sequences (ECMA-48: CSI "ESC [ params final", OSC
// "ESC ] ... BEL|ESC \", and two-byte "ESC x"; a sequence never runs past a line end) and with
// each lone '\r' turned into '\n' ("\r\n" becomes "\n").
void clean_lines(const char* p, size_t n, std::string& out);

}  // namespace aerun
