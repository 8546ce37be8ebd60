#include "report/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace aerun {

double mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  double u = 0;
  for (double x : a)
    for (double y : b) u += x > y ? 1.0 : x == y ? 0.5 : 0.0;
  return u;
}

namespace {

// How many arrangements of m a's and n b's give each U = 0..m·n: the coefficients of the
// Gaussian binomial [m+n choose m](q) = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i).
std::vector<double> u_counts(size_t m, size_t n) {
  const size_t top = m * n;
  std::vector<double> c(top + 1, 0.0);
  c[0] = 1;
  for (size_t i = 1; i <= m; ++i) {
    for (size_t k = top; k >= n + i && k <= top; --k) c[k] -= c[k - n - i];  // × (1 - q^(n+i))
    for (size_t k = i; k <= top; ++k) c[k] += c[k - i];                      // ÷ (1 - q^i)
  }
  return c;
}

bool has_ties(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> all(a);
  all.insert(all.end(), b.begin(), b.end());
  std::sort(all.begin(), all.end());
  return std::adjacent_find(all.begin(), all.end()) != all.end();
}

}  // namespace

double mann_whitney_greater(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty()) return 1;
  const size_t m = a.size(), n = b.size();
  const double u = mann_whitney_u(a, b);
  if (!has_ties(a, b) && m * n <= 10000) {
    const std::vector<double> c = u_counts(m, n);
    double total = 0, tail = 0;
    for (size_t k = 0; k < c.size(); ++k) {
      total += c[k];
      if (static_cast<double>(k) >= u - 1e-9) tail += c[k];
    }
    return std::clamp(tail / total, 0.0, 1.0);
  }
  // Normal approximation, with the variance reduced by the ties.
  std::map<double, int> groups;
  for (double x : a) ++groups[x];
  for (double y : b) ++groups[y];
  const double N = static_cast<double>(m + n);
  double ties = 0;
  for (const auto& [v, t] : groups) ties += std::pow(t, 3) - t;
  const double mu = static_cast<double>(m * n) / 2;
  const double var = static_cast<double>(m * n) / 12 * ((N + 1) - ties / (N * (N - 1)));
  if (var <= 0) return 1;
  const double z = (u - mu - 0.5) / std::sqrt(var);
  return std::clamp(0.5 * std::erfc(z / std::sqrt(2.0)), 0.0, 1.0);
}

}  // namespace aerun
