#include "aerun/case/starter_case.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

#include "aerun/case/case_loader.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/shell_quote.hpp"

namespace aerun {

namespace {

bool is_number(const std::string& v) {
  double d = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
  return ec == std::errc() && end == v.data() + v.size();
}

// A value that becomes a parameter: a number, or a word of [A-Za-z0-9_+-] with a letter or a digit
// and no leading dash (file names, paths and anything a shell would need quoted stay text).
bool plain_value(const std::string& v) {
  if (v.empty() || v.size() > 200) return false;
  if (is_number(v)) return true;
  if (v[0] == '-') return false;
  bool alnum = false;
  for (char c : v) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      alnum = true;
      continue;
    }
    if (c != '_' && c != '+' && c != '-') return false;  // a dot: a file name, left as text
  }
  return alnum;
}

// An option token: -x, --name (not a negative number, not "--").
bool option_token(const std::string& a) {
  return a.size() >= 2 && a[0] == '-' && a != "--" && !is_number(a) &&
         std::isalpha(static_cast<unsigned char>(a[a[1] == '-' ? 2 : 1]));
}

// A parameter name from an option name: dashes and dots become '_'; a leading digit gets "p".
std::string param_name(const std::string& option) {
  std::string n;
  for (char c : option) n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (n.empty() || std::isdigit(static_cast<unsigned char>(n[0]))) n = "p" + n;
  return n;
}

// A value in YAML: numbers as they are, anything else single-quoted (so `on`, `no`, `null` stay
// text).
std::string yaml_value(const std::string& v) {
  if (is_number(v)) return v;
  std::string q = "'";
  for (char c : v) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}

// Literal text of the command template: braces doubled (they are the template's own).
std::string template_text(const std::string& s) {
  std::string out;
  for (char c : s) {
    out += c;
    if (c == '{' || c == '}') out += c;
  }
  return out;
}

}  // namespace

std::string starter_case(const StarterRequest& req) {
  const SourceLoc loc{};
  if (!valid_case_name(req.name)) throw InputError(loc, "init", case_name_problem(req.name));
  if (req.argv.empty())
    throw InputError(loc, "init",
                     "no command: write it after --, e.g. aerun init fig7a -- ./run.sh -l 32");
  struct Param {
    std::string name;
    std::vector<std::string> values;
  };
  std::vector<Param> params;
  std::map<std::string, int> used;
  const auto add_param = [&](const std::string& option, const std::string& value) {
    std::string name = param_name(option);
    if (const int n = ++used[name]; n > 1) name += "_" + std::to_string(n);
    params.push_back({name, {value}});
    return "{" + name + "}";
  };
  std::string command;
  for (size_t i = 0; i < req.argv.size(); ++i) {
    const std::string& a = req.argv[i];
    std::string word;
    if (const size_t eq = a.find('='); eq != std::string::npos && eq > 0 && i > 0) {
      // --lr=0.1 or lr=0.1
      const std::string key = a.substr(0, eq), value = a.substr(eq + 1);
      const std::string bare = key.substr(key.find_first_not_of('-'));
      const bool key_ok =
          !bare.empty() && std::isalpha(static_cast<unsigned char>(bare[0])) &&
          bare.find_first_not_of(
              "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.") ==
              std::string::npos;
      if (key_ok && plain_value(value))
        word = template_text(shell_quote(key + "=")) + add_param(bare, value);
    } else if (i > 0 && option_token(req.argv[i - 1]) && plain_value(a)) {
      const std::string& opt = req.argv[i - 1];
      word = add_param(opt.substr(opt.find_first_not_of('-')), a);
    }
    if (word.empty()) word = template_text(shell_quote(a));
    command += (command.empty() ? "" : " ") + word;
  }
  for (const auto& sweep : req.sweeps) {
    const std::string& key = sweep.first;
    const std::vector<std::string>& values = sweep.second;
    auto it =
        std::find_if(params.begin(), params.end(), [&](const Param& p) { return p.name == key; });
    if (it == params.end()) {
      std::vector<std::string> names;
      for (const auto& p : params) names.push_back(p.name);
      const std::string near = nearest_key(key, names);
      std::string all;
      for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
      throw InputError(loc, "--sweep",
                       fmt::format("'{}' is not a parameter of the command{}; its parameters: {}",
                                   key, near.empty() ? "" : " (did you mean '" + near + "'?)",
                                   all.empty() ? "none" : all));
    }
    if (values.empty()) throw InputError(loc, "--sweep", "no values for '" + key + "'");
    it->values = values;
  }
  std::string original;
  for (const auto& a : req.argv) original += (original.empty() ? "" : " ") + shell_quote(a);
  std::string y;
  if (!req.schema.empty()) y += "# yaml-language-server: $schema=" + printable(req.schema) + "\n";
  y += "# Written by `aerun init` from: " + printable(original) + "\n";
  y += "# Check it with `aerun case FILE --dry-run`; docs/case-format.md has every key.\n";
  y += "case: " + req.name + "\n";
  if (!params.empty()) {
    y += "params:\n";
    for (const auto& p : params) {
      y += "  " + p.name + ": ";
      if (p.values.size() == 1) {
        y += yaml_value(p.values[0]);
      } else {
        y += "[";
        for (size_t k = 0; k < p.values.size(); ++k) y += (k ? ", " : "") + yaml_value(p.values[k]);
        y += "]";
      }
      y += "\n";
    }
  }
  y += "command: " + yaml_value(command) + "\n";
  // The table's rows: the first swept parameter, else the first one.
  std::string row = params.empty() ? "" : params.front().name;
  for (const auto& p : params)
    if (p.values.size() > 1) {
      row = p.name;
      break;
    }
  y += "# What to read from the log: a preset for its format (megatron, deepspeed, ezpz,\n"
       "# hf-trainer, stronghold, startup) and/or your own metrics, then a table:\n"
       "# presets: [megatron]\n"
       "# metrics:\n"
       "#   samples_per_s: 'samples per second: ([0-9.]+)'\n"
       "# tables:\n"
       "#   " +
       req.name + ": {rows: [" + row + "], columns: [samples_per_s]}\n";
  // What it wrote must load: a parameter name the loader keeps for itself, say.
  parse_case(y, req.name + ".yaml", ".");
  return y;
}

}  // namespace aerun
