// How a table column reduces the values of a row's runs to one cell (`agg:`), with the names
// case files use, in one place.
#pragma once

#include <array>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace aerun {

enum class Aggregation { Median, Mean, Min, Max, First, Last, N, Stdev, Sum, LargestOk };

struct AggregationName {
  Aggregation agg;
  std::string_view name;
  bool instant;  // applies to calendar times too (it picks one run's value, or counts)
};

inline constexpr std::array<AggregationName, 10> kAggregationNames{{
    {Aggregation::Median, "median", false},
    {Aggregation::Mean, "mean", false},
    {Aggregation::First, "first", true},
    {Aggregation::Last, "last", true},
    {Aggregation::Min, "min", true},
    {Aggregation::Max, "max", true},
    {Aggregation::N, "n", true},
    {Aggregation::Stdev, "stdev", false},
    {Aggregation::Sum, "sum", false},
    {Aggregation::LargestOk, "largest_ok", false},
}};

inline std::string_view to_string(Aggregation a) {
  for (const auto& n : kAggregationNames)
    if (n.agg == a) return n.name;
  return "?";
}

inline std::optional<Aggregation> parse_aggregation(std::string_view name) {
  for (const auto& n : kAggregationNames)
    if (n.name == name) return n.agg;
  return std::nullopt;
}

inline bool applies_to_instants(Aggregation a) {
  for (const auto& n : kAggregationNames)
    if (n.agg == a) return n.instant;
  return false;
}

// The names, all or those that apply to calendar times, for messages.
inline std::vector<std::string> aggregation_names(bool instants_only = false) {
  std::vector<std::string> out;
  for (const auto& n : kAggregationNames)
    if (!instants_only || n.instant) out.emplace_back(n.name);
  return out;
}

inline std::ostream& operator<<(std::ostream& os, Aggregation a) {
  return os << to_string(a);
}

}  // namespace aerun
