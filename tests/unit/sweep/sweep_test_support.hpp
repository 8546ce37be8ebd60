// Helpers to write sweep tests as data: case specs built by hand, points printed as text.
#pragma once

#include <string>
#include <vector>

#include "aerun/case/case_spec.hpp"
#include "aerun/sweep/sweep.hpp"

namespace aerun::testing {

inline SourceLoc at(int line, int col = 3) {
  return SourceLoc{"/cases/fig.yaml", line, col};
}

// A swept parameter (a YAML sequence); values typed like YAML scalars.
inline ParamSpec list(std::string name, std::vector<std::string> values, int line = 1) {
  ParamSpec p{std::move(name), {}, true, at(line)};
  for (auto& v : values) p.values.push_back(Value::parse(std::move(v)));
  return p;
}

// A fixed parameter (a YAML scalar).
inline ParamSpec fixed(std::string name, std::string value, int line = 1) {
  return ParamSpec{std::move(name), {Value::parse(std::move(value))}, false, at(line)};
}

inline CaseSpec make_case(std::vector<ParamSpec> params) {
  CaseSpec c;
  c.file = "/cases/fig.yaml";
  c.name = "fig";
  c.params = std::move(params);
  return c;
}

// "a=1 b=x" per point, in order.
inline std::vector<std::string> points(const Sweep& sweep) {
  std::vector<std::string> out;
  sweep.for_each([&](const ParamList& p) {
    std::string s;
    for (const auto& [n, v] : p) s += (s.empty() ? "" : " ") + n + "=" + v.text();
    out.push_back(s);
    return true;
  });
  return out;
}

inline std::vector<std::string> points(const CaseSpec& spec) {
  return points(Sweep(spec));
}

}  // namespace aerun::testing
