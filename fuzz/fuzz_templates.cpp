// Fuzz target: the template language and shell quoting. Checked: a quoted value reads back as
// itself under POSIX shell word rules; scan_template's pieces, written back escaped, scan to the
// same pieces; CommandTemplate renders what its pieces say (values quoted; templates with quotes
// of their own are rendered, not compared); job-script filling either fills or names the unknown
// placeholder.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "aerun/sweep/command_template.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/shell_quote.hpp"
#include "aerun/util/template_text.hpp"
#include "sched/job_script.hpp"

namespace {

// One shell word as sh reads it: bare characters that need no quoting, '...' and \x; nullopt
// for anything the shell would expand or split on.
std::optional<std::string> unquote_word(std::string_view w) {
  std::string out;
  for (size_t i = 0; i < w.size(); ++i) {
    const char c = w[i];
    if (c == '\'') {
      const size_t end = w.find('\'', i + 1);
      if (end == std::string_view::npos) return std::nullopt;
      out += w.substr(i + 1, end - i - 1);
      i = end;
    } else if (c == '\\') {
      if (++i == w.size()) return std::nullopt;
      out += w[i];
    } else if (std::string_view(" \t\n$`\"|&;<>()*?[]#~{}!").find(c) != std::string_view::npos) {
      return std::nullopt;
    } else {
      out += c;
    }
  }
  return out;
}

std::string escape_literal(std::string_view s) {
  std::string out;
  for (char c : s) {
    out += c;
    if (c == '{' || c == '}') out += c;
  }
  return out;
}

void check_quoting(std::string_view value) {
  if (value.find('\0') != std::string_view::npos) return;  // no shell word holds a NUL
  const auto back = unquote_word(aerun::shell_quote(value));
  if (!back || *back != value) __builtin_trap();
}

void check_scan(std::string_view text) {
  const auto pieces = aerun::scan_template(text);
  std::string again;
  for (const auto& p : pieces) again += p.placeholder ? "{" + p.text + "}" : escape_literal(p.text);
  auto rescanned = aerun::scan_template(again);
  if (rescanned.size() != pieces.size()) __builtin_trap();
  for (size_t i = 0; i < pieces.size(); ++i)
    if (rescanned[i].placeholder != pieces[i].placeholder || rescanned[i].text != pieces[i].text)
      __builtin_trap();
}

void check_command(std::string_view tmpl, const std::vector<std::string>& values) {
  std::vector<std::string> names;
  aerun::ParamList params;
  for (size_t i = 0; i < values.size(); ++i) {
    names.push_back("p" + std::to_string(i));
    params.emplace_back(names.back(), aerun::Value::of_string(values[i]));
  }
  try {
    const aerun::CommandTemplate t{std::string(tmpl), aerun::SourceLoc{}, names};
    const std::string got = t.render(params, "case-x", 3);
    // Quotes, escapes, substitutions and comments change how a value is quoted (checked by the
    // tests with a real shell); without them every value is shell_quote'd.
    if (tmpl.find_first_of("'\"`\\#$()") != std::string_view::npos) return;
    std::string want;
    for (const auto& p : aerun::scan_template(tmpl)) {
      if (!p.placeholder) {
        want += p.text;
      } else if (p.text.size() > 1 && p.text[0] == 'p' &&
                 p.text.find_first_not_of("0123456789", 1) == std::string::npos &&
                 std::stoul(p.text.substr(1)) < values.size() &&
                 p.text == names[std::stoul(p.text.substr(1))]) {
        want += aerun::shell_quote(values[std::stoul(p.text.substr(1))]);
      } else if (p.text == "case") {
        want += aerun::shell_quote("case-x");
      } else if (p.text == "repeat") {
        want += "3";
      } else if (p.text == "attempt") {
        want += "\"$AERUN_ATTEMPT\"";
      } else if (p.text == "rundir") {  // the run's own directory, the shell fills it in
        want += "\"${AERUN_RUNDIR}\"";
      } else {
        __builtin_trap();  // an unknown name must have been refused
      }
    }
    if (got != want) __builtin_trap();
  } catch (const aerun::InputError&) {
  }
}

void check_fill(std::string_view text, const std::vector<std::string>& values) {
  std::map<std::string, std::string> vars;
  for (size_t i = 0; i < values.size(); ++i) vars["v" + std::to_string(i)] = values[i];
  try {
    (void)aerun::fill_template(text, vars, "fuzz.sh");
  } catch (const aerun::InputError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  // The first line is the template; the following lines (at most 8) are values.
  const size_t nl = in.find('\n');
  const std::string_view tmpl = in.substr(0, nl);
  std::vector<std::string> values;
  for (size_t at = nl; at != std::string_view::npos && values.size() < 8;) {
    const size_t next = in.find('\n', at + 1);
    values.emplace_back(in.substr(at + 1, next == std::string_view::npos ? next : next - at - 1));
    at = next;
  }
  check_quoting(in);
  for (const auto& v : values) check_quoting(v);
  check_scan(in);
  check_command(tmpl, values);
  check_fill(in, values);
  return 0;
}
