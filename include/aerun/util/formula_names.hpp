// Case names inside muparserx formulas: a parameter, metric or derived name that is also a
// muparserx function or constant (size, sum, min, max, sin, pi, e, ...) still means the case's
// value. Such names are renamed (`_aerun_size`) in the text given to the library, where they are
// not called; a function name written as a value that the case does not define is an error.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace aerun {

// The functions and constants muparserx defines (package pckALL_NON_COMPLEX), sorted; read from
// the library itself.
const std::vector<std::string>& muparserx_builtins();
bool is_muparserx_builtin(const std::string& name);

// The name muparserx sees for a case name: `_aerun_<name>` for a built-in's name, else the name.
std::string formula_variable(const std::string& name);
// The case name behind a variable muparserx reports (the inverse of formula_variable).
std::string case_name_of(const std::string& variable);

// `formula` with every name of `names` that is a built-in, and is not followed by '(', renamed
// by formula_variable (string literals and numbers such as 1e3 are left alone).
std::string shield_formula(const std::string& formula, const std::vector<std::string>& names);

// Why `formula` cannot be read: a muparserx function written as a value ("size * 2") that is
// none of `names`; nullopt when there is no such use.
std::optional<std::string> bare_function_problem(const std::string& formula,
                                                 const std::vector<std::string>& names);

}  // namespace aerun
