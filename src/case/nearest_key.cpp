// "Did you mean" suggestions: the closest valid key by edit distance.
#include <algorithm>
#include <cctype>

#include "aerun/case/case_loader.hpp"

namespace aerun {

namespace {

std::string lower(const std::string& s) {
  std::string r = s;
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
// neighbouring characters each cost 1 ("metircs" is one step from "metrics").
size_t edit_distance(const std::string& a, const std::string& b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

}  // namespace

std::string nearest_key(const std::string& key, const std::vector<std::string>& valid) {
  const std::string k = lower(key);
  std::string best;
  size_t best_d = 0;
  for (const auto& v : valid) {
    const size_t d = edit_distance(k, lower(v));
    // Close means at most a third of the longer word changed (and always one typo allowed).
    const size_t limit = std::max<size_t>(1, std::max(k.size(), v.size()) / 3);
    if (d <= limit && (best.empty() || d < best_d)) {
      best = v;
      best_d = d;
    }
  }
  return best;
}

}  // namespace aerun
