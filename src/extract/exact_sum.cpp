#include "extract/exact_sum.hpp"

#include <cmath>

namespace aerun {

void ExactSum::add(double x) {
  if (overflow_ != 0) return;
  size_t i = 0;
  for (double y : partials_) {
    if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
    const double hi = x + y;
    const double lo = y - (hi - x);
    if (lo != 0) partials_[i++] = lo;
    x = hi;
  }
  if (!std::isfinite(x)) {
    overflow_ = x;
    partials_.clear();
    return;
  }
  partials_.resize(i);
  partials_.push_back(x);
}

void ExactSum::merge(const ExactSum& other) {
  if (other.overflow_ != 0 && overflow_ == 0) {
    overflow_ = other.overflow_;
    partials_.clear();
  }
  for (double p : other.partials_) add(p);
}

double ExactSum::value() const {
  if (overflow_ != 0) return overflow_;
  size_t n = partials_.size();
  if (n == 0) return 0.0;
  double hi = partials_[--n];
  double lo = 0;
  while (n > 0) {  // from the largest partial down, until the sum is no longer exact
    const double x = hi;
    const double y = partials_[--n];
    hi = x + y;
    lo = y - (hi - x);
    if (lo != 0) break;
  }
  // Round half to even across the rest: when the rounding error is exactly half an ulp and the
  // next partial pushes the same way, the true sum is past the half-way point.
  if (n > 0 && ((lo < 0 && partials_[n - 1] < 0) || (lo > 0 && partials_[n - 1] > 0))) {
    const double y = lo * 2;
    const double x = hi + y;
    if (y == x - hi) hi = x;
  }
  return hi;
}

}  // namespace aerun
