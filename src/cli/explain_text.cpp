#include "cli/explain_text.hpp"

#include <fmt/format.h>

#include "aerun/util/shell_quote.hpp"

namespace aerun::cli {

std::string explained_log_text(const std::string& path, const ExplainedLog& x, bool detect) {
  std::string o = fmt::format("{}\n  status {}{}\n", printable(path), x.run.status,
                              x.run.reason.empty() ? "" : " (" + printable(x.run.reason) + ")");
  if (detect) o += fmt::format("  formats: {}\n", x.presets.empty() ? "none known" : x.presets);
  o += fmt::format("  read by: {}\n", x.generic
                                          ? "the generic reader (no metric of a preset matched)"
                                          : "the case's and its presets' patterns");
  for (const MetricValue& m : x.run.metrics)
    o += fmt::format("  {:<24} {:>14} {:<10} line {}\n", printable(m.name),
                     fmt::format("{:.6g}", m.value), printable(m.unit), m.source_line);
  if (!x.generic) return o;
  o += "  templates (numbers as #):\n";
  for (const TemplateExplained& t : x.templates) {
    if (t.role == "not read" && t.lines < 2) continue;
    o += fmt::format("  [{}] lines {}-{}, {} line{}: {}\n", t.role, t.first_line, t.last_line,
                     t.lines, t.lines == 1 ? "" : "s", t.why);
    o += fmt::format("      {}\n", printable(t.text));
    if (t.role == "not read") continue;
    for (const auto& k : t.keys)
      o += fmt::format("      {:<28} -> {:<20} {:<10} {}\n", printable(k.key), printable(k.name),
                       printable(k.unit), printable(k.why));
  }
  return o;
}

}  // namespace aerun::cli
