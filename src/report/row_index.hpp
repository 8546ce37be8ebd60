// Rows of a table by their key (parameter values), compared as values: numbers by value ("64"
// equals "64.0", also when a quoted string holds the number), everything else by text.
#pragma once

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "aerun/util/value.hpp"

namespace aerun {

// Numbers compare by value ("64" equals "64.0"), everything else by text.
inline bool values_equal(const Value& a, const Value& b) {
  const auto na = a.number(), nb = b.number();
  if (na && nb && a.kind() != Value::Kind::Bool && b.kind() != Value::Kind::Bool) return *na == *nb;
  return a.text() == b.text();
}

inline bool key_less(const std::vector<Value>& a, const std::vector<Value>& b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

inline bool key_equal(const std::vector<Value>& a, const std::vector<Value>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), values_equal);
}

// Rows by key in constant time, so that a table of a million runs is built in linear time. Keys
// compare as values_equal does: numbers by value ("64" equals "64.0", also when a quoted string
// holds the number), everything else by text.
class RowIndex {
 public:
  static constexpr size_t npos = static_cast<size_t>(-1);

  size_t find(const std::vector<Value>& key) const {
    const auto it = map_.find(canonical(key));
    return it == map_.end() ? npos : it->second;
  }
  void add(const std::vector<Value>& key, size_t row) { map_.emplace(canonical(key), row); }

 private:
  static std::string canonical(const std::vector<Value>& key) {
    std::string out;
    for (const Value& v : key) {
      std::optional<double> n = v.kind() == Value::Kind::Bool ? std::nullopt : v.number();
      if (!n && v.kind() == Value::Kind::String) {
        const Value parsed = Value::parse(v.text());
        if (parsed.kind() == Value::Kind::Int || parsed.kind() == Value::Kind::Float)
          n = parsed.number();
      }
      // Numbers by their shortest round-trip text (to_chars: this runs for every run of a table).
      char number[32];
      std::string_view text = v.text();
      if (n) {
        const auto [end, ec] = std::to_chars(number, number + sizeof number, *n == 0 ? 0.0 : *n);
        text = std::string_view(number, static_cast<size_t>(end - number));
      }
      char size[24];
      const auto [size_end, size_ec] = std::to_chars(size, size + sizeof size, text.size());
      out += n ? 'n' : 's';
      out.append(size, size_end);
      out += ':';
      out += text;
    }
    return out;
  }

  std::unordered_map<std::string, size_t> map_;
};

}  // namespace aerun
