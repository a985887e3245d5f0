// tests/data/data_test_util.h: small helpers shared by the data tests.
#pragma once

#include <cstdint>
#include <vector>

#include "data/task.h"

namespace ordo::test {

// Row b of a (B, L) int tensor, the first `n` entries.
inline std::vector<int32_t> row(const TensorI32& t, int64_t b, int64_t n) {
  const int32_t* p = t.data() + b * t.dim(1);
  return std::vector<int32_t>(p, p + n);
}

inline bool same_batch(const Batch& a, const Batch& b) {
  return a.tokens.shape() == b.tokens.shape() && a.tokens.to_vector() == b.tokens.to_vector() &&
         a.targets.shape() == b.targets.shape() &&
         a.targets.to_vector() == b.targets.to_vector() && a.score.shape() == b.score.shape() &&
         a.score.to_vector() == b.score.to_vector() && a.lengths == b.lengths;
}

// The smallest period q of s: s[i] == s[i - q] for every i >= q.
inline int64_t smallest_period(const std::vector<int32_t>& s) {
  const int64_t n = static_cast<int64_t>(s.size());
  for (int64_t q = 1; q < n; ++q) {
    bool ok = true;
    for (int64_t i = q; i < n && ok; ++i) ok = s[i] == s[i - q];
    if (ok) return q;
  }
  return n;
}

// Pearson's chi-square statistic of counts against a uniform expectation.
inline double chi_square_uniform(const std::vector<int64_t>& counts) {
  double total = 0;
  for (int64_t c : counts) total += static_cast<double>(c);
  const double expected = total / static_cast<double>(counts.size());
  double chi2 = 0;
  for (int64_t c : counts) chi2 += (c - expected) * (c - expected) / expected;
  return chi2;
}

}  // namespace ordo::test
