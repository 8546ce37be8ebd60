// The Mann-Whitney U test (Wilcoxon rank-sum), one-sided, for `aerun regress`: is one sample of a
// metric's values (tonight's repeats) larger than another (the baseline's) beyond chance?
#pragma once

#include <vector>

namespace aerun {

// U: the pairs (a_i, b_j) with a_i > b_j, ties counting one half.
double mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

// The one-sided p-value of "a is larger than b": the probability, were both samples drawn from
// one distribution, of a U at least as large as the one observed. Exact (the U distribution
// counted from the Gaussian binomial coefficients) without ties and for |a|·|b| ≤ 10,000; else
// the normal approximation with the tie correction and a continuity correction. 1 when a sample
// is empty.
double mann_whitney_greater(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace aerun
