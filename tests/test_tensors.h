// tests/test_tensors.h: tensor helpers shared by the test files of both test programs
// (float32 ordo_tests and the float64 gradient checks).
#pragma once

#include <cstdint>
#include <cstring>
#include <omp.h>
#include <algorithm>
#include <vector>

#include "core/rng.h"
#include "core/tensor.h"

namespace ordo::test {

// Values uniform in [lo, hi) from the counter-based RNG keyed by (key, stream). Each test
// file passes its own key, so the files draw independent data.
inline Tensor uniform_tensor(const Shape& shape, uint64_t key, uint64_t stream, double lo = -1,
                             double hi = 1) {
  Tensor x = Tensor::empty(shape);
  CounterRng rng(key, stream);
  for (int64_t i = 0; i < x.numel(); ++i) x[i] = static_cast<Real>(lo + (hi - lo) * rng.uniform());
  return x;
}

// |x| in [0.5, 1.5) with a random sign (safe divisors); the signs are drawn with key + 1.
inline Tensor away_from_zero_tensor(const Shape& shape, uint64_t key, uint64_t stream) {
  Tensor x = uniform_tensor(shape, key, stream, 0.5, 1.5);
  CounterRng rng(key + 1, stream);
  for (int64_t i = 0; i < x.numel(); ++i)
    if (rng.uniform() < 0.5) x[i] = -x[i];
  return x;
}

inline bool bit_equal(const Tensor& a, const Tensor& b) {
  return a.shape() == b.shape() && std::memcmp(a.data(), b.data(), sizeof(Real) * a.numel()) == 0;
}

// The real rows of a padded (B, L, ...) tensor, sequence after sequence: (T, ...) with T the
// sum of lengths, as the packed ops take them.
inline Tensor pack_real_rows(const Tensor& x, const std::vector<int32_t>& lengths) {
  std::vector<int64_t> dims = x.shape().dims();
  const int64_t B = dims[0], L = dims[1], row = x.numel() / (B * L);
  int64_t T = 0;
  for (int32_t n : lengths) T += n;
  dims.erase(dims.begin());
  dims[0] = T;
  Tensor out = Tensor::empty(Shape(dims));
  int64_t r = 0;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t t = 0; t < lengths[size_t(b)]; ++t, ++r)
      std::copy(x.data() + (b * L + t) * row, x.data() + (b * L + t + 1) * row, out.data() + r * row);
  return out;
}

// Runs body() with the given OpenMP thread count, then restores the previous count.
template <class Body>
void with_threads(int n, Body&& body) {
  const int previous = omp_get_max_threads();
  omp_set_num_threads(n);
  body();
  omp_set_num_threads(previous);
}

}  // namespace ordo::test
