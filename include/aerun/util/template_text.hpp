// The one template language of a case's texts: the command, per-point resources and launcher
// counts, per-point stall / first_step durations, and `aerun ingest --pattern` file names.
//  - `{name}` (name = [A-Za-z_][A-Za-z0-9_]*, not preceded by `$`) is a placeholder;
//  - `{{` and `}}` are a literal `{` and `}`;
//  - any other brace is literal (`${VAR}`, `$(...)`, awk's `{print $1}`, `f() { :; }`).
// Job-script templates are whole shell scripts and use `{{name}}` instead (docs/schedulers.md,
// docs/architecture.md).
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace aerun {

// A run of literal text (braces unescaped) or a placeholder (its name).
struct TemplatePiece {
  bool placeholder = false;
  std::string text;   // the literal, or the placeholder's name
  size_t offset = 0;  // where the piece starts in the template text
  bool operator==(const TemplatePiece&) const = default;
};
// For test messages: {x} or "literal"@offset.
std::ostream& operator<<(std::ostream& os, const TemplatePiece& p);

// The template cut into pieces, in order; adjacent literals are one piece.
std::vector<TemplatePiece> scan_template(std::string_view text);

// One `{name}` of a template and the byte offset of its `{`.
struct Placeholder {
  std::string name;
  size_t offset;
};

// The placeholders of a template, in order of appearance.
std::vector<Placeholder> placeholders(std::string_view text);

}  // namespace aerun
