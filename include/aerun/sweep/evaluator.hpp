// The muparserx side of a sweep: derive formulas and exclude conditions, parsed once and bound
// to variables that are updated in place for each point.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "aerun/util/error.hpp"
#include "aerun/util/value.hpp"

namespace mup {
class ParserX;
class Value;
}  // namespace mup

namespace aerun::sweep_detail {

// How an input parameter is seen by formulas.
enum class VarKind { Number, Bool, String };

// A formula as written: a derive (slot = the derived parameter) or an exclude condition.
struct Formula {
  std::string text;
  std::string key;  // "derive.gbs", "exclude[1]"
  SourceLoc loc;
  size_t slot = 0;  // derive only
};

// Evaluates the formulas of a sweep on one point at a time. Every parser is bound once to one
// mup::Value per parameter; load() copies only the changed, used parameters into them.
// Not copyable (the parsers hold pointers to its variables).
class Evaluator {
 public:
  // names: every slot of a point; slots [0, kinds.size()) are inputs of the given kinds, the
  // others are derived. Derive formula k sees the inputs and the derived slots before it;
  // conditions see every slot.
  Evaluator(const std::vector<std::string>& names, const std::vector<VarKind>& kinds,
            const std::vector<Formula>& derive, const std::vector<Formula>& conditions);
  ~Evaluator();
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;

  // Parses and evaluates every formula on `point` (inputs set, derived slots written), turning
  // a syntax error, an unknown variable or a result of the wrong type into an InputError.
  void validate(ParamList& point);
  // Copies input slots flagged in `dirty` that formulas use into their variables; clears them.
  void load(const ParamList& point, std::vector<char>& dirty);
  // Evaluates the derive formulas in order into the point's derived slots.
  void derive(ParamList& point);
  // Evaluates exclude condition k (a boolean, or a number: non-zero is true).
  bool condition(size_t k, const ParamList& point);

 private:
  struct Compiled;
  void set_input(size_t slot, const Value& v);
  void apply_derive(const Compiled& c, ParamList& point, bool validating);
  std::vector<std::string> names_;
  std::vector<VarKind> kinds_;
  std::vector<std::unique_ptr<mup::Value>> vars_;  // one per slot, bound to every parser
  std::vector<Compiled> derive_;
  std::vector<Compiled> conditions_;
  std::vector<size_t> used_inputs_;
};

}  // namespace aerun::sweep_detail
