// A sum of doubles that does not depend on the order the values came in.
#pragma once

#include <vector>

namespace aerun {

// The exact sum of the values added, kept as non-overlapping partials (Shewchuk's algorithm, as
// Python's math.fsum), and rounded once, correctly, when read. Because the kept sum is exact, any
// order of add() and merge() gives the same value(): a log read in parts on several threads
// reduces to the bytes a single pass gives. A sum past double's range reads as +-inf.
class ExactSum {
 public:
  void add(double x);
  void merge(const ExactSum& other);
  // The exact sum rounded to the nearest double (ties to even).
  double value() const;

 private:
  std::vector<double> partials_;  // increasing magnitude, non-overlapping
  double overflow_ = 0;           // +-inf once a partial sum left double's range
};

}  // namespace aerun
