// tests/gradcheck/test_ops_helpers.h: random inputs and a REQUIRE wrapper for gradient checks.
#pragma once

#include <catch2/catch.hpp>

#include "core/gradcheck.h"
#include "core/ops.h"
#include "core/rng.h"
#include "tests/test_tensors.h"

namespace ordo::test {

// Uniform values in [lo, hi), a pure function of (shape, stream).
inline Tensor random_tensor(const Shape& shape, uint64_t stream, double lo = -1, double hi = 1) {
  return uniform_tensor(shape, 42, stream, lo, hi);
}

// Values with |x| in [0.5, 1.5) and a random sign: safe divisors.
inline Tensor away_from_zero(const Shape& shape, uint64_t stream) { return away_from_zero_tensor(shape, 42, stream); }

#define REQUIRE_GRADS_OK(result)                                              \
  do {                                                                        \
    const ::ordo::GradCheckResult r_ = (result);                              \
    INFO("worst: " << r_.worst << "  max abs error " << r_.max_abs_error);    \
    REQUIRE(r_.ok);                                                           \
    REQUIRE(r_.checked > 0);                                                  \
  } while (0)

}  // namespace ordo::test
