// tests/gradcheck/test_ops_stickbreaking.cpp: gradients of stick-breaking attention, the fast
// kernel (core/ops/stickbreaking_attention.cpp) and the reference kernel
// (core/ops/stickbreaking_reference.cpp), w.r.t. q, k and v against finite differences in
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
  for (bool reference : {false, true})
  for (int64_t window : {0, 3})
    for (bool current : {false, true})
      for (bool remainder : {true, false}) {
      INFO("reference " << reference << " window " << window << " attend_current " << current << " remainder "
                        << remainder);
      const Shape s{B, L, H, d};
      REQUIRE_GRADS_OK(check_gradients(
          [&](Tape& t, const std::vector<Var>& v) {
            return (reference ? stickbreaking_attention_reference : stickbreaking_attention)(
                t, v[0], v[1], v[2], lengths, AttentionMask(true, window),
                {.attend_current = current, .remainder = remainder}, static_cast<Real>(1 / std::sqrt(double(d))));
          },
          {random_tensor(s, 1), random_tensor(s, 2), random_tensor(s, 3)}));
    }
}

TEST_CASE("stick-breaking: the fast kernel equals the reference kernel in float64", "[ops][stickbreaking]") {
  // Past one tile of queries (L > 64), a head width past a vector; float64 keeps libm's exp
  // and log, so only the order of the sums differs.
  const int64_t B = 2, L = 97, H = 2, d = 9;
  const Shape s{B, L, H, d};
  const std::vector<int32_t> lengths{97, 60};
  const Tensor R = random_tensor(s, 14);
  for (bool remainder : {true, false}) {
    std::vector<Tensor> got[2];
    for (int reference = 0; reference < 2; ++reference) {
      std::vector<Parameter> p{{"q", random_tensor(s, 11)}, {"k", random_tensor(s, 12)}, {"v", random_tensor(s, 13)}};
      for (Parameter& x : p) x.grad = Tensor::zeros(s);
      Tape t;
      Var out = (reference ? stickbreaking_attention_reference : stickbreaking_attention)(
          t, t.param(p[0]), t.param(p[1]), t.param(p[2]), lengths, AttentionMask(true, 20),
          {.attend_current = false, .remainder = remainder}, Real(0.4));
      got[reference].push_back(t.value(out).clone());
      t.backward(sum(t, mul(t, out, t.input(R))));
      for (Parameter& x : p) got[reference].push_back(x.grad);
    }
    for (size_t i = 0; i < got[0].size(); ++i) {
      INFO("remainder " << remainder << " tensor " << i << " (out, dq, dk, dv)");
      CHECK(max_abs_diff(got[0][i], got[1][i]) <= 1e-12);
    }
  }
}
