#include "aerun/sweep/evaluator.hpp"

#include <muparserx/mpParser.h>

#include "aerun/util/formula_names.hpp"

namespace aerun::sweep_detail {

namespace {

bool is_identifier(const std::string& s) {
  if (s.empty()) return false;
  auto start = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (!start(s[0])) return false;
  for (char c : s)
    if (!start(c) && !(c >= '0' && c <= '9')) return false;
  return true;
}

std::string describe(const ParamList& point) {
  std::string s;
  for (const auto& [n, v] : point) {
    if (!s.empty()) s += ", ";
    s += n + "=" + v.text();
  }
  return s;
}

std::string type_name(char t) {
  switch (t) {
    case 'b':
      return "boolean";
    case 'i':
    case 'f':
      return "number";
    case 's':
      return "string";
    case 'c':
      return "complex number";
    case 'm':
      return "array";
    default:
      return std::string("value of type '") + t + "'";
  }
}

}  // namespace

struct Evaluator::Compiled {
  Formula formula;
  std::unique_ptr<mup::ParserX> parser;
  std::vector<std::string> visible;  // variable names defined in this parser
};

Evaluator::Evaluator(const std::vector<std::string>& names, const std::vector<VarKind>& kinds,
                     const std::vector<Formula>& derive, const std::vector<Formula>& conditions)
    : names_(names), kinds_(kinds) {
  vars_.reserve(names_.size());
  for (size_t i = 0; i < names_.size(); ++i) vars_.push_back(std::make_unique<mup::Value>(0.0));
  // Derive k sees the inputs and derived slots before its own; conditions see every slot.
  // A name that is also a muparserx built-in (size, sum, pi...) is renamed where it is not
  // called (formula_names.hpp): formulas see the case's value.
  auto compile = [&](const Formula& f, size_t visible_slots) {
    Compiled c{f, std::make_unique<mup::ParserX>(mup::pckALL_NON_COMPLEX), {}};
    for (size_t s = 0; s < visible_slots; ++s) {
      if (!is_identifier(names_[s])) continue;  // cannot be written in a formula anyway
      try {
        c.parser->DefineVar(formula_variable(names_[s]), mup::Variable(vars_[s].get()));
      } catch (const mup::ParserError& e) {  // a name the library keeps for itself
        throw InputError(
            f.loc, f.key,
            "parameter \"" + names_[s] + "\" cannot be used in formulas: " + e.GetMsg());
      }
      c.visible.push_back(names_[s]);
    }
    if (auto problem = bare_function_problem(f.text, c.visible))
      throw InputError(f.loc, f.key, "bad formula \"" + f.text + "\": " + *problem);
    try {
      c.parser->SetExpr(shield_formula(f.text, c.visible));
    } catch (const mup::ParserError& e) {
      throw InputError(f.loc, f.key, "bad formula \"" + f.text + "\": " + e.GetMsg());
    }
    return c;
  };
  for (const Formula& f : derive) derive_.push_back(compile(f, f.slot));
  for (const Formula& f : conditions) conditions_.push_back(compile(f, names_.size()));
}

Evaluator::~Evaluator() = default;

namespace {

const mup::IValue& evaluate(const mup::ParserX& p, const Formula& f,
                            const std::vector<std::string>& visible, const ParamList& point,
                            bool validating) {
  try {
    return p.Eval();
  } catch (const mup::ParserError& e) {
    std::string msg;
    const std::string tok = case_name_of(e.GetToken());
    if (e.GetCode() == mup::ecUNASSIGNABLE_TOKEN && is_identifier(tok)) {
      std::string known;
      for (const auto& n : visible) known += (known.empty() ? "" : ", ") + n;
      msg = "unknown variable \"" + tok + "\" in \"" + f.text + "\" (known: " + known + ")";
    } else {
      msg = "bad formula \"" + f.text + "\": " + e.GetMsg();
    }
    if (!validating) msg += " (at " + describe(point) + ")";
    throw InputError(f.loc, f.key, msg);
  }
}

}  // namespace

void Evaluator::set_input(size_t slot, const Value& v) {
  mup::Value& var = *vars_[slot];
  switch (kinds_[slot]) {
    case VarKind::Number:
      var = *v.number();
      break;
    case VarKind::Bool:
      var = v.number().value_or(0) != 0;
      break;
    case VarKind::String:
      var = v.text();
      break;
  }
}

void Evaluator::validate(ParamList& point) {
  for (size_t s = 0; s < kinds_.size(); ++s) set_input(s, point[s].second);
  // Which inputs any formula reads: only those are copied per point.
  std::vector<char> used(kinds_.size(), 0);
  auto note_used = [&](const Compiled& c) {
    for (const auto& [name, var] : c.parser->GetExprVar())
      for (size_t s = 0; s < kinds_.size(); ++s)
        if (names_[s] == case_name_of(name)) used[s] = 1;
  };
  for (const Compiled& c : derive_) {
    apply_derive(c, point, true);
    note_used(c);
  }
  for (const Compiled& c : conditions_) {
    const char t = evaluate(*c.parser, c.formula, c.visible, point, true).GetType();
    if (t != 'b' && t != 'i' && t != 'f')
      throw InputError(c.formula.loc, c.formula.key,
                       "condition \"" + c.formula.text + "\" gives a " + type_name(t) +
                           "; expected a boolean (or a number)");
    note_used(c);
  }
  used_inputs_.clear();
  for (size_t s = 0; s < used.size(); ++s)
    if (used[s]) used_inputs_.push_back(s);
}

void Evaluator::load(const ParamList& point, std::vector<char>& dirty) {
  for (size_t s : used_inputs_)
    if (dirty[s]) {
      set_input(s, point[s].second);
      dirty[s] = 0;
    }
}

void Evaluator::apply_derive(const Compiled& c, ParamList& point, bool validating) {
  const mup::IValue& r = evaluate(*c.parser, c.formula, c.visible, point, validating);
  Value& out = point[c.formula.slot].second;
  switch (r.GetType()) {
    case 'b':
      out = Value::of_bool(r.GetBool());
      break;
    case 'i':
    case 'f':
      out = Value::of_double(r.GetFloat());
      break;
    case 's':
      out = Value::of_string(r.GetString());
      break;
    default:
      throw InputError(c.formula.loc, c.formula.key,
                       "formula \"" + c.formula.text + "\" gives a " + type_name(r.GetType()) +
                           "; expected a number, a string or a boolean" +
                           (validating ? "" : " (at " + describe(point) + ")"));
  }
  *vars_[c.formula.slot] = mup::Value(r);
}

void Evaluator::derive(ParamList& point) {
  for (const Compiled& c : derive_) apply_derive(c, point, false);
}

bool Evaluator::condition(size_t k, const ParamList& point) {
  const Compiled& c = conditions_[k];
  const mup::IValue& r = evaluate(*c.parser, c.formula, c.visible, point, false);
  switch (r.GetType()) {
    case 'b':
      return r.GetBool();
    case 'i':
    case 'f':
      return r.GetFloat() != 0;
    default:
      throw InputError(c.formula.loc, c.formula.key,
                       "condition \"" + c.formula.text + "\" gives a " + type_name(r.GetType()) +
                           " (at " + describe(point) + ")");
  }
}

}  // namespace aerun::sweep_detail
