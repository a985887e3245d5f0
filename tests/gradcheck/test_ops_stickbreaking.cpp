// tests/gradcheck/test_ops_stickbreaking.cpp: gradients of stick-breaking attention
// (core/ops/stickbreaking_attention.cpp) w.r.t. q, k and v against finite differences in
// float64, with key padding, a window, attend_current and the remainder on and off.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "tests/gradcheck/test_ops_helpers.h"

using namespace ordo;
using namespace ordo::test;

TEST_CASE("stick-breaking attention gradients", "[ops][stickbreaking]") {
  const int64_t B = 2, L = 7, H = 2, d = 3;
  const std::vector<int32_t> lengths{7, 4};
  for (int64_t window : {0, 3})
    for (bool current : {false, true})
      for (bool remainder : {true, false}) {
      INFO("window " << window << " attend_current " << current << " remainder " << remainder);
      const Shape s{B, L, H, d};
      REQUIRE_GRADS_OK(check_gradients(
          [&](Tape& t, const std::vector<Var>& v) {
            return stickbreaking_attention(t, v[0], v[1], v[2], lengths, AttentionMask(true, window),
                                           {.attend_current = current, .remainder = remainder},
                                           static_cast<Real>(1 / std::sqrt(double(d))));
          },
          {random_tensor(s, 1), random_tensor(s, 2), random_tensor(s, 3)}));
    }
}
