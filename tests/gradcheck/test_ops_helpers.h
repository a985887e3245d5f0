// tests/gradcheck/test_ops_helpers.h: random inputs and a REQUIRE wrapper for gradient checks.
#pragma once

#include <catch2/catch.hpp>

#include "core/gradcheck.h"
#include "core/ops.h"
#include "core/rng.h"

namespace ordo::test {

// Uniform values in [lo, hi), a pure function of (shape, stream).
inline Tensor random_tensor(const Shape& shape, uint64_t stream, double lo = -1, double hi = 1) {
  Tensor x = Tensor::empty(shape);
  CounterRng rng(42, stream);
  for (int64_t i = 0; i < x.numel(); ++i) x[i] = static_cast<Real>(lo + (hi - lo) * rng.uniform());
  return x;
}

// Values with |x| in [0.5, 1.5) and a random sign: safe divisors.
inline Tensor away_from_zero(const Shape& shape, uint64_t stream) {
  Tensor x = random_tensor(shape, stream, 0.5, 1.5);
  CounterRng rng(43, stream);
  for (int64_t i = 0; i < x.numel(); ++i)
    if (rng.uniform() < 0.5) x[i] = -x[i];
  return x;
}

#define REQUIRE_GRADS_OK(result)                                              \
  do {                                                                        \
    const ::ordo::GradCheckResult r_ = (result);                              \
    INFO("worst: " << r_.worst << "  max abs error " << r_.max_abs_error);    \
    REQUIRE(r_.ok);                                                           \
    REQUIRE(r_.checked > 0);                                                  \
  } while (0)

}  // namespace ordo::test
