// A parameter or metric value as written by the user: its text, and its number when it is one.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace aerun {

class Value {
 public:
  enum class Kind { String, Int, Float, Bool };

  Value() = default;
  // Types a YAML scalar's text: "32" -> Int, "1e-3" -> Float, "true" -> Bool, else String.
  static Value parse(std::string text);
  static Value of_string(std::string text);
  static Value of_int(long long v);
  // Shortest text that reads back as the same double; integral values print without ".0".
  static Value of_double(double v);
  static Value of_bool(bool v);

  Kind kind() const { return kind_; }
  const std::string& text() const { return text_; }
  bool is_number() const {
    return kind_ == Kind::Int || kind_ == Kind::Float || kind_ == Kind::Bool;
  }
  // The number (Bool: 1/0); nullopt for strings.
  std::optional<double> number() const;

  bool operator==(const Value& o) const { return text_ == o.text_; }
  bool operator!=(const Value& o) const { return text_ != o.text_; }
  // Numbers by value, then strings by natural order ("ws-2" before "ws-10").
  bool operator<(const Value& o) const;

 private:
  Kind kind_ = Kind::String;
  std::string text_;
  double num_ = 0;
};

// Ordered name -> value pairs (parameters of one run, environment of a case).
using ParamList = std::vector<std::pair<std::string, Value>>;

// Looks a name up in an ordered list; nullptr when absent.
const Value* find_param(const ParamList& params, const std::string& name);
// "hidden=64 layers=2" for a run's parameters.
std::string describe_params(const ParamList& params);

// Natural order of two strings: digit runs compare as numbers.
bool natural_less(const std::string& a, const std::string& b);

}  // namespace aerun
