// tests/same_bits.h: "the same bits", the comparison of the determinism claims (docs/spec.md
// §9): equal as stored, so -0.0 differs from 0.0 and a NaN equals the same NaN, where ==
// would say otherwise.
#pragma once

#include <cstring>
#include <vector>

namespace ordo::test {

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

inline bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

}  // namespace ordo::test
