#include "aerun/run/bisection.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace aerun {

Bisection::Bisection(std::vector<long long> candidates) : cand_(std::move(candidates)) {
  if (cand_.empty()) throw std::invalid_argument("a search needs at least one candidate value");
  for (size_t i = 0; i < cand_.size(); ++i)
    if (!index_.emplace(cand_[i], i).second)
      throw std::invalid_argument(fmt::format("candidate {} given twice", cand_[i]));
  at_.assign(cand_.size(), -1);
}

long Bisection::first_fail() const {
  for (size_t i = 0; i < cand_.size(); ++i)
    if (outcome(i) && !outcome(i)->pass) return static_cast<long>(i);
  return static_cast<long>(cand_.size());
}

long Bisection::last_pass_before(long end) const {
  for (long i = end - 1; i >= 0; --i)
    if (outcome(static_cast<size_t>(i))) return i;  // all outcomes before end are passes
  return -1;
}

std::optional<long long> Bisection::next() const {
  const long fail = first_fail();
  const long pass = last_pass_before(fail);
  if (pass < 0) {
    if (fail == 0) return std::nullopt;  // the first candidate failed: nothing further is tried
    return cand_.front();
  }
  if (fail - pass <= 1) return std::nullopt;
  return cand_[static_cast<size_t>(pass + (fail - pass) / 2)];
}

void Bisection::record(const Probe& p) {
  const auto it = index_.find(p.value);
  if (it == index_.end())
    throw std::invalid_argument(fmt::format("{} is not a candidate of this search", p.value));
  const size_t i = it->second;
  if (outcome(i)) return;
  // Monotonicity: nothing passes after a failure, nothing fails before a pass.
  if (p.pass) {
    for (size_t j = i; j-- > 0;)
      if (outcome(j) && !outcome(j)->pass) {
        warnings_.push_back(fmt::format("{} ok but {} {}", p.value, cand_[j], outcome(j)->status));
        break;
      }
  } else {
    for (size_t j = i + 1; j < cand_.size(); ++j)
      if (outcome(j) && outcome(j)->pass) {
        warnings_.push_back(fmt::format("{} ok but {} {}", cand_[j], p.value, p.status));
        break;
      }
  }
  at_[i] = static_cast<long>(probes_.size());
  probes_.push_back(p);
}

bool Bisection::known(long long value) const {
  const auto it = index_.find(value);
  return it != index_.end() && at_[it->second] >= 0;
}

std::optional<long long> Bisection::result() const {
  const long pass = last_pass_before(first_fail());
  if (pass < 0) return std::nullopt;
  return cand_[static_cast<size_t>(pass)];
}

bool Bisection::at_end() const {
  const auto r = result();
  return r && *r == cand_.back();
}

int Bisection::max_probes(size_t n) {
  int probes = 1;
  for (size_t reach = 1; reach < n; reach *= 2) ++probes;
  return probes;
}

}  // namespace aerun
