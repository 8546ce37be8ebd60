// fill_template: the `{{name}}` / `{{name|q}}` substitution of job-script templates.
#include <fmt/format.h>

#include "aerun/util/shell_quote.hpp"
#include "sched/job_script.hpp"

namespace aerun {

std::string fill_template(std::string_view text, const std::map<std::string, std::string>& vars,
                          const std::string& template_name) {
  std::string out;
  out.reserve(text.size() * 2);
  int line_no = 1;
  size_t line_start = 0;
  while (line_start < text.size()) {
    size_t nl = text.find('\n', line_start);
    const bool last = nl == std::string_view::npos;
    if (last) nl = text.size();
    const std::string_view line = text.substr(line_start, nl - line_start);
    std::string filled;
    bool only_empty_placeholders = true, any_placeholder = false;
    size_t pos = 0;
    while (pos < line.size()) {
      const size_t open = line.find("{{", pos);
      if (open == std::string_view::npos) {
        filled.append(line.substr(pos));
        if (line.substr(pos).find_first_not_of(" \t") != std::string_view::npos)
          only_empty_placeholders = false;
        break;
      }
      if (line.substr(pos, open - pos).find_first_not_of(" \t") != std::string_view::npos)
        only_empty_placeholders = false;
      filled.append(line.substr(pos, open - pos));
      const size_t close = line.find("}}", open + 2);
      if (close == std::string_view::npos)
        throw InputError(SourceLoc{template_name, line_no, static_cast<int>(open) + 1}, "template",
                         "'{{' without '}}'");
      std::string name(line.substr(open + 2, close - open - 2));
      bool quote = false;
      if (name.size() > 2 && name.compare(name.size() - 2, 2, "|q") == 0) {
        quote = true;
        name.resize(name.size() - 2);
      }
      const auto it = vars.find(name);
      if (it == vars.end()) {
        std::string known;
        for (const auto& [k, v] : vars) known += (known.empty() ? "" : ", ") + k;
        throw InputError(SourceLoc{template_name, line_no, static_cast<int>(open) + 1}, "template",
                         fmt::format("unknown placeholder {{{{{}}}}} (known: {})", name, known));
      }
      any_placeholder = true;
      if (!it->second.empty() || quote) only_empty_placeholders = false;
      filled += quote ? shell_quote(it->second) : it->second;
      pos = close + 2;
    }
    if (!(any_placeholder && only_empty_placeholders)) {
      out += filled;
      if (!last) out += '\n';
    }
    line_start = nl + 1;
    ++line_no;
  }
  return out;
}

}  // namespace aerun
