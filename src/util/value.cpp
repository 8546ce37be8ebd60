#include "aerun/util/value.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include "aerun/util/secret_text.hpp"

namespace aerun {

namespace {

bool parse_int(const std::string& s, long long& out) {
  if (s.empty()) return false;
  const char* b = s.data();
  const char* e = b + s.size();
  if (*b == '+') ++b;
  auto [p, ec] = std::from_chars(b, e, out);
  return ec == std::errc() && p == e;
}

bool parse_float(const std::string& s, double& out) {
  if (s.empty()) return false;
  // Only plain decimal/scientific notation; "inf"/"nan" and hex stay strings.
  for (char c : s)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
          c == '+' || c == '-'))
      return false;
  const char* b = s.data();
  const char* e = b + s.size();
  if (*b == '+') ++b;
  auto [p, ec] = std::from_chars(b, e, out);
  return ec == std::errc() && p == e;
}

}  // namespace

Value Value::parse(std::string text) {
  Value v;
  long long i = 0;
  double d = 0;
  if (parse_int(text, i)) {
    v.kind_ = Kind::Int;
    v.num_ = static_cast<double>(i);
  } else if (parse_float(text, d)) {
    v.kind_ = Kind::Float;
    v.num_ = d;
  } else if (text == "true" || text == "false") {
    v.kind_ = Kind::Bool;
    v.num_ = text == "true" ? 1 : 0;
  }
  v.text_ = std::move(text);
  return v;
}

Value Value::of_string(std::string text) {
  Value v;
  v.text_ = std::move(text);
  return v;
}

Value Value::of_int(long long i) {
  Value v;
  v.kind_ = Kind::Int;
  v.num_ = static_cast<double>(i);
  v.text_ = std::to_string(i);
  return v;
}

Value Value::of_double(double d) {
  if (std::isfinite(d) && d == std::trunc(d) && std::fabs(d) < 9.0e15)
    return of_int(static_cast<long long>(d));
  Value v;
  v.kind_ = Kind::Float;
  v.num_ = d;
  v.text_ = fmt::format("{}", d);
  return v;
}

Value Value::of_bool(bool b) {
  Value v;
  v.kind_ = Kind::Bool;
  v.num_ = b ? 1 : 0;
  v.text_ = b ? "true" : "false";
  return v;
}

std::optional<double> Value::number() const {
  if (!is_number()) return std::nullopt;
  return num_;
}

bool Value::operator<(const Value& o) const {
  const bool a_num = kind_ == Kind::Int || kind_ == Kind::Float;
  const bool b_num = o.kind_ == Kind::Int || o.kind_ == Kind::Float;
  if (a_num && b_num) return num_ < o.num_ || (num_ == o.num_ && text_ < o.text_);
  if (a_num != b_num) return a_num;  // numbers first
  return natural_less(text_, o.text_);
}

const Value* find_param(const ParamList& params, const std::string& name) {
  for (const auto& [n, v] : params)
    if (n == name) return &v;
  return nullptr;
}

bool natural_less(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const auto ca = static_cast<unsigned char>(a[i]);
    const auto cb = static_cast<unsigned char>(b[j]);
    if (std::isdigit(ca) && std::isdigit(cb)) {
      size_t i2 = i, j2 = j;
      while (i2 < a.size() && a[i2] == '0') ++i2;
      while (j2 < b.size() && b[j2] == '0') ++j2;
      size_t ie = i2, je = j2;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      if (ie - i2 != je - j2) return ie - i2 < je - j2;
      const int c = a.compare(i2, ie - i2, b, j2, je - j2);
      if (c != 0) return c < 0;
      i = ie;
      j = je;
    } else {
      if (ca != cb) return ca < cb;
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

std::string describe_params(const ParamList& params) {
  std::string s;
  for (const auto& [n, v] : params) {
    if (!s.empty()) s += ' ';
    s += n + "=" + shown_param(n, v.text());  // a secret-named parameter redacted (issue 40)
  }
  return s;
}

}  // namespace aerun
