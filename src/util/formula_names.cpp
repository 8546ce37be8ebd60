#include "aerun/util/formula_names.hpp"

#include <muparserx/mpParser.h>

#include <algorithm>
#include <functional>

namespace aerun {

namespace {

constexpr const char* kPrefix = "_aerun_";

bool ident_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool ident_char(char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}
bool digit(char c) {
  return c >= '0' && c <= '9';
}

struct Builtins {
  std::vector<std::string> all, functions;
};

const Builtins& builtins() {
  static const Builtins b = [] {
    Builtins out;
    const mup::ParserX p(mup::pckALL_NON_COMPLEX);
    for (const auto& [name, fn] : p.GetFunDef()) out.functions.push_back(name);
    for (const auto& [name, value] : p.GetConst()) out.all.push_back(name);
    out.all.insert(out.all.end(), out.functions.begin(), out.functions.end());
    std::sort(out.all.begin(), out.all.end());
    out.all.erase(std::unique(out.all.begin(), out.all.end()), out.all.end());
    std::sort(out.functions.begin(), out.functions.end());
    return out;
  }();
  return b;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Calls f(start, length, called) for every identifier of a formula outside string literals,
// numbers (1e3, 0x1f) and unit postfixes ({m}); `called` when a '(' follows it.
void for_each_identifier(const std::string& s, const std::function<void(size_t, size_t, bool)>& f) {
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '"') {  // a string literal, with \" escapes
      for (++i; i < s.size() && s[i] != '"'; ++i)
        if (s[i] == '\\') ++i;
      ++i;
    } else if (c == '{') {  // a unit postfix operator such as {m}
      while (i < s.size() && s[i] != '}') ++i;
      ++i;
    } else if (digit(c) || (c == '.' && i + 1 < s.size() && digit(s[i + 1]))) {
      while (i < s.size() && (digit(s[i]) || s[i] == '.')) ++i;
      if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
        if (j < s.size() && digit(s[j])) i = j;
      }
      while (i < s.size() && ident_char(s[i])) ++i;  // exponent digits, 0x1f, suffixes
    } else if (ident_start(c)) {
      const size_t start = i;
      while (i < s.size() && ident_char(s[i])) ++i;
      size_t j = i;
      while (j < s.size() && (s[j] == ' ' || s[j] == '\t')) ++j;
      f(start, i - start, j < s.size() && s[j] == '(');
    } else {
      ++i;
    }
  }
}

}  // namespace

const std::vector<std::string>& muparserx_builtins() {
  return builtins().all;
}

bool is_muparserx_builtin(const std::string& name) {
  // Operators are names too: the unit postfixes (n, m, k, M, G) refuse a variable of their name
  // (muparserx throws "Variable "m" is already defined"), so parameters called n or k are renamed.
  static const mup::ParserX parser(mup::pckALL_NON_COMPLEX);
  return std::binary_search(builtins().all.begin(), builtins().all.end(), name) ||
         parser.IsPostfixOprtDefined(name) || parser.IsInfixOprtDefined(name) ||
         parser.IsOprtDefined(name);
}

std::string formula_variable(const std::string& name) {
  return is_muparserx_builtin(name) ? kPrefix + name : name;
}

std::string case_name_of(const std::string& variable) {
  const std::string prefix = kPrefix;
  if (variable.compare(0, prefix.size(), prefix) == 0) {
    const std::string name = variable.substr(prefix.size());
    if (is_muparserx_builtin(name)) return name;
  }
  return variable;
}

std::string shield_formula(const std::string& formula, const std::vector<std::string>& names) {
  std::string out;
  size_t copied = 0;
  for_each_identifier(formula, [&](size_t start, size_t len, bool called) {
    const std::string id = formula.substr(start, len);
    if (called || !is_muparserx_builtin(id) || !contains(names, id)) return;
    out.append(formula, copied, start - copied);
    out += formula_variable(id);
    copied = start + len;
  });
  return out + formula.substr(copied);
}

std::optional<std::string> bare_function_problem(const std::string& formula,
                                                 const std::vector<std::string>& names) {
  std::optional<std::string> problem;
  for_each_identifier(formula, [&](size_t start, size_t len, bool called) {
    const std::string id = formula.substr(start, len);
    if (problem || called || contains(names, id) ||
        !std::binary_search(builtins().functions.begin(), builtins().functions.end(), id))
      return;
    problem = "'" + id + "' is a muparserx function, written here as a value: call it (" + id +
              "(...)) or give the case a parameter or metric called '" + id +
              "' (case names may be those of built-ins)";
  });
  return problem;
}

}  // namespace aerun
