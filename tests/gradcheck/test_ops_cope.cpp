// tests/gradcheck/test_ops_cope.cpp: gradients of CoPE's attention, the kernel
// (core/ops/cope_attention.cpp) and the reference composed from tape ops
// (core/ops/cope_reference.cpp), w.r.t. q, k, v and e against finite differences in float64,
// with key padding, a window and the positions clamped or not; and the two equal to 1e-12.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "tests/gradcheck/test_ops_helpers.h"

using namespace ordo;
using namespace ordo::test;

TEST_CASE("cope attention gradients", "[ops][cope]") {
  const int64_t B = 2, L = 7, H = 2, d = 3;
  const std::vector<int32_t> lengths{7, 4};
  for (bool reference : {false, true})
    for (int64_t window : {0, 3})
      for (int64_t P : {3, 9}) {  // 3: positions past 2 clamp; 9: above every sum
        INFO("reference " << reference << " window " << window << " P " << P);
        const Shape s{B, L, H, d};
        REQUIRE_GRADS_OK(check_gradients(
            [&](Tape& t, const std::vector<Var>& v) {
              return (reference ? cope_attention_reference : cope_attention)(
                  t, v[0], v[1], v[2], v[3], lengths, AttentionMask(true, window),
                  static_cast<Real>(1 / std::sqrt(double(d))));
            },
            {random_tensor(s, 1, -1.5, 1.5), random_tensor(s, 2, -1.5, 1.5), random_tensor(s, 3),
             random_tensor(Shape{P, d}, 4)}));
      }
}

TEST_CASE("cope: the kernel equals the reference in float64", "[ops][cope]") {
  // Past one tile of queries (L > 64), a head width past a vector; float64 keeps libm's exp,
  // so only the order of the sums and the sigmoid's form differ.
  for (const auto& [L, d] : {std::pair<int64_t, int64_t>{97, 9}, {150, 4}})
  for (int64_t P : {int64_t(40), L + 1})
    for (int64_t window : {0, 20}) {
      const int64_t B = 2, H = 2;
      const Shape s{B, L, H, d};
      const std::vector<int32_t> lengths{int32_t(L), int32_t(L * 2 / 3)};
      const Tensor R = random_tensor(s, 14);
      std::vector<Tensor> got[2];
      for (int reference = 0; reference < 2; ++reference) {
        std::vector<Parameter> p{{"q", random_tensor(s, 11)}, {"k", random_tensor(s, 12)}, {"v", random_tensor(s, 13)},
                                 {"e", random_tensor(Shape{P, d}, 15)}};
        for (Parameter& x : p) x.grad = Tensor::zeros(x.value.shape());
        Tape t;
        Var out = (reference ? cope_attention_reference : cope_attention)(t, t.param(p[0]), t.param(p[1]),
                                                                          t.param(p[2]), t.param(p[3]), lengths,
                                                                          AttentionMask(true, window), Real(0.4));
        got[reference].push_back(t.value(out).clone());
        t.backward(sum(t, mul(t, out, t.input(R))));
        for (Parameter& x : p) got[reference].push_back(x.grad);
      }
      for (size_t i = 0; i < got[0].size(); ++i) {
        INFO("L " << L << " P " << P << " window " << window << " tensor " << i << " (out, dq, dk, dv, de)");
        CHECK(max_abs_diff(got[0][i], got[1][i]) <= 1e-12);
      }
    }
}
