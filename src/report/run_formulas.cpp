#include "report/run_formulas.hpp"

#include <muparserx/mpParser.h>

#include <algorithm>

#include "aerun/record/run_times.hpp"
#include "aerun/util/error.hpp"
#include "aerun/util/formula_names.hpp"

namespace aerun::report_detail {

namespace {

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

}  // namespace

// One formula: its parser and one variable per name it uses.
struct RunFormulas::Compiled {
  TableDerive spec;
  std::unique_ptr<mup::ParserX> parser;
  std::vector<std::string> used;
  std::vector<std::unique_ptr<mup::Value>> vars;  // parallel to used
};

RunFormulas::RunFormulas(const TableSpec& t, std::vector<std::string> known) : table_(t.name) {
  for (const TableDerive& d : t.derive) {
    const std::string key = "tables." + t.name + ".derive." + d.name;
    Compiled c{d, std::make_unique<mup::ParserX>(mup::pckALL_NON_COMPLEX), {}, {}};
    // Names that are also muparserx built-ins (size, sum, pi...) are renamed where they are not
    // called (formula_names.hpp): the formula sees the run's value.
    if (auto problem = bare_function_problem(d.formula, known))
      throw InputError(d.loc, key, "bad formula \"" + d.formula + "\": " + *problem);
    try {
      c.parser->SetExpr(shield_formula(d.formula, known));
      for (const auto& [name, var] : c.parser->GetExprVar()) c.used.push_back(case_name_of(name));
    } catch (const mup::ParserError& e) {
      throw InputError(d.loc, key, "bad formula \"" + d.formula + "\": " + e.GetMsg());
    }
    for (const auto& name : c.used) {
      if (std::find(known.begin(), known.end(), name) == known.end())
        throw InputError(d.loc, key,
                         "unknown variable \"" + name + "\" in \"" + d.formula +
                             "\" (known: " + joined(known) + ")");
      c.vars.push_back(std::make_unique<mup::Value>(0.0));
      c.parser->DefineVar(formula_variable(name), mup::Variable(c.vars.back().get()));
    }
    known.push_back(d.name);
    formulas_.push_back(std::move(c));
  }
}

RunFormulas::~RunFormulas() = default;

std::vector<std::string> RunFormulas::parameter_only(
    const std::function<bool(const std::string&)>& is_param) const {
  std::vector<std::string> names;
  for (const Compiled& c : formulas_) {
    const bool only = std::all_of(c.used.begin(), c.used.end(), [&](const std::string& u) {
      return is_param(u) || std::find(names.begin(), names.end(), u) != names.end();
    });
    if (only) names.push_back(c.spec.name);
  }
  return names;
}

void RunFormulas::apply(RunRecord& run) const {
  for (const Compiled& c : formulas_) {
    bool complete = true;
    for (size_t i = 0; i < c.used.size() && complete; ++i) {
      const std::string& name = c.used[i];
      mup::Value& var = *c.vars[i];
      const RunTime* time = find_run_time(name);
      if (const MetricValue* m = run.metric(name)) {
        var = m->value;
      } else if (const Value* p = find_param(run.params, name)) {
        if (p->kind() == Value::Kind::Bool)
          var = p->number().value_or(0) != 0;
        else if (p->is_number())
          var = *p->number();
        else
          var = p->text();
      } else if (time && run.*(time->field)) {
        var = *(run.*(time->field));  // an instant as epoch seconds
      } else {
        complete = false;
      }
    }
    if (!complete) continue;
    const std::string key = "tables." + table_ + ".derive." + c.spec.name;
    try {
      const mup::IValue& r = c.parser->Eval();
      const char type = r.GetType();
      if (type != 'f' && type != 'i' && type != 'b')
        throw InputError(c.spec.loc, key,
                         "formula \"" + c.spec.formula + "\" does not give a number");
      MetricValue m;
      m.name = c.spec.name;
      m.value = type == 'b' ? (r.GetBool() ? 1.0 : 0.0) : r.GetFloat();
      m.unit = c.spec.unit;
      m.count = 1;
      run.metrics.push_back(std::move(m));
    } catch (const mup::ParserError& e) {
      throw InputError(c.spec.loc, key,
                       "formula \"" + c.spec.formula + "\" failed on run " + run.key.substr(0, 12) +
                           ": " + e.GetMsg());
    }
  }
}

}  // namespace aerun::report_detail
