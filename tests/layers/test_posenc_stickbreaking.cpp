// tests/layers/test_posenc_stickbreaking.cpp: stick-breaking attention (docs/spec.md §2.18).
// The fast kernel against the reference kernel (plain loops), forward and backward.
// The definition computed literally (products, not logs, in double) against the O(L) kernel,
// with padding, a window, attend_current and the remainder on and off; without the remainder
// the weights sum to at most 1, with it the query's own value takes exactly what is left, and
// for equal logits the weights halve with every step of distance; packed rows give the padded
// bits; 1 and 2 threads give the same bits. Gradients against finite differences are in
// tests/gradcheck/test_ops_stickbreaking.cpp; the whole-model tests cover it by registry.
#include <catch2/catch.hpp>

#include <cmath>
#include <omp.h>

#include "core/ops.h"
#include "core/rng.h"
#include "layers/posenc/encoding.h"
#include "tests/test_tensors.h"

using namespace ordo;
using Catch::Matchers::Contains;

namespace {

Tensor random_tensor(const Shape& shape, uint64_t stream) { return test::uniform_tensor(shape, 37, stream, -1.5, 1.5); }

struct Outputs {
  Tensor out, dq, dk, dv;
};

Outputs run(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& R, const std::vector<int32_t>& lengths,
            const AttentionMask& mask, StickBreakingRule rule, bool reference = false) {
  Parameter pq("q", q.clone()), pk("k", k.clone()), pv("v", v.clone());
  for (Parameter* p : {&pq, &pk, &pv}) p->grad = Tensor::zeros(p->value.shape());
  Tape t;
  const Real scale = static_cast<Real>(1 / std::sqrt(double(q.dim(3))));
  Var out = (reference ? stickbreaking_attention_reference : stickbreaking_attention)(
      t, t.param(pq), t.param(pk), t.param(pv), lengths, mask, rule, scale);
  Outputs o{t.value(out).clone(), {}, {}, {}};
  t.backward(sum(t, mul(t, out, t.input(R))));
  o.dq = pq.grad, o.dk = pk.grad, o.dv = pv.grad;
  return o;
}

}  // namespace

TEST_CASE("stick-breaking attention computes its definition", "[ops][stickbreaking]") {
  const int64_t B = 2, L = 70, H = 2, d = 4;
  const Tensor q = random_tensor(Shape{B, L, H, d}, 1), k = random_tensor(Shape{B, L, H, d}, 2),
               v = random_tensor(Shape{B, L, H, d}, 3);
  const std::vector<int32_t> lengths{70, 33};
  for (int64_t window : {0, 5})
    for (bool current : {false, true})
      for (bool remainder : {true, false}) {
      INFO("window " << window << " attend_current " << current << " remainder " << remainder);
      const AttentionMask mask(true, window);
      const Tensor got =
          run(q, k, v, Tensor::zeros(q.shape()), lengths, mask, {.attend_current = current, .remainder = remainder}).out;
      for (int64_t b = 0; b < B; ++b)
        for (int64_t h = 0; h < H; ++h)
          for (int64_t i = 0; i < lengths[size_t(b)]; ++i) {
            auto at = [&](const Tensor& x, int64_t t, int64_t c) { return double(x[((b * L + t) * H + h) * d + c]); };
            auto z = [&](int64_t j) {
              double s = 0;
              for (int64_t c = 0; c < d; ++c) s += at(q, i, c) * at(k, j, c);
              return s / std::sqrt(double(d));
            };
            auto sees = [&](int64_t j) { return mask.visible(i, j, lengths[size_t(b)]) && (current || j < i); };
            for (int64_t c = 0; c < d; ++c) {
              double o = 0, rem = 1;
              for (int64_t j = 0; j < L; ++j) {
                if (!sees(j)) continue;
                double A = 1 / (1 + std::exp(-z(j)));
                for (int64_t l = j + 1; l < L; ++l)
                  if (sees(l)) A *= 1 - 1 / (1 + std::exp(-z(l)));
                o += A * at(v, j, c);
                rem *= 1 - 1 / (1 + std::exp(-z(j)));
              }
              if (remainder) o += rem * at(v, i, c);
              INFO("b " << b << " h " << h << " i " << i << " c " << c);
              REQUIRE(std::fabs(double(got[((b * L + i) * H + h) * d + c]) - o) <= 1e-5);
            }
          }
    }
}

TEST_CASE("stick-breaking: the fast kernel agrees with the reference kernel forward and backward", "[ops][stickbreaking]") {
  // Several tiles of queries (L > 64), head widths below, at and past a vector (4, 16, 20),
  // key padding, a window, attend_current and the remainder on and off. The two differ in the
  // last bits only (docs/spec.md §2.18: the order of the logit's sum, the stick as a product
  // rather than a sum of logs, core/fastmath.h's exp2).
  for (const auto& [L, d] : {std::pair<int64_t, int64_t>{150, 4}, {70, 16}, {131, 20}}) {
    const int64_t B = 2, H = 2;
    const Shape s{B, L, H, d};
    const Tensor q = random_tensor(s, 31), k = random_tensor(s, 32), v = random_tensor(s, 33), R = random_tensor(s, 34);
    const std::vector<int32_t> lengths{int32_t(L), int32_t(L / 2 + 3)};
    for (int64_t window : {0, 9})
      for (bool current : {false, true})
        for (bool remainder : {true, false}) {
          INFO("L " << L << " d " << d << " window " << window << " attend_current " << current << " remainder "
                    << remainder);
          const AttentionMask mask(true, window);
          const StickBreakingRule rule{.attend_current = current, .remainder = remainder};
          const Outputs fast = run(q, k, v, R, lengths, mask, rule), ref = run(q, k, v, R, lengths, mask, rule, true);
          const double tol = sizeof(Real) == sizeof(float) ? 2e-5 : 1e-12;
          CHECK(max_abs_diff(fast.out, ref.out) <= tol);
          CHECK(max_abs_diff(fast.dq, ref.dq) <= tol);
          CHECK(max_abs_diff(fast.dk, ref.dk) <= tol);
          CHECK(max_abs_diff(fast.dv, ref.dv) <= tol);
        }
  }
}

TEST_CASE("stick-breaking weights halve with distance, and the remainder makes each row sum to 1", "[ops][stickbreaking]") {
  // v_j = e_j (d = L) reads the weights A_ij off the output (with the remainder on the diagonal).
  const int64_t L = 12;
  Tensor v = Tensor::zeros(Shape{1, L, 1, L});
  for (int64_t j = 0; j < L; ++j) v[j * L + j] = 1;
  const Tensor zeros = Tensor::zeros(Shape{1, L, 1, L});  // q = 0: every z = 0, beta = 1/2
  for (bool remainder : {false, true}) {
    INFO("remainder " << remainder);
    const Tensor A = run(zeros, random_tensor(Shape{1, L, 1, L}, 5), v, zeros, {int32_t(L)}, true,
                         {.attend_current = false, .remainder = remainder}).out;
    for (int64_t i = 0; i < L; ++i) {
      double total = 0;
      for (int64_t j = 0; j < L; ++j) {
        double want = j < i ? std::pow(0.5, double(i - j)) : 0.0;
        if (j == i && remainder) want = std::pow(0.5, double(i));  // what the i halvings leave
        INFO("i " << i << " j " << j);
        REQUIRE(std::fabs(double(A[i * L + j]) - want) <= 1e-6);
        total += double(A[i * L + j]);
      }
      if (remainder) CHECK(std::fabs(total - 1) <= 1e-6);
      else CHECK(total <= 1 + 1e-6);
    }
    // Random logits: every weight in [0, 1]; rows sum to at most 1, or to exactly 1 with the remainder.
    const Tensor R = run(random_tensor(Shape{1, L, 1, L}, 6), random_tensor(Shape{1, L, 1, L}, 7), v, zeros,
                         {int32_t(L)}, true, {.attend_current = true, .remainder = remainder}).out;
    for (int64_t i = 0; i < L; ++i) {
      double total = 0;
      for (int64_t j = 0; j < L; ++j) {
        CHECK(R[i * L + j] >= 0);
        total += double(R[i * L + j]);
      }
      if (remainder) CHECK(std::fabs(total - 1) <= 1e-5);
      else CHECK(total <= 1 + 1e-6);
    }
  }
}

TEST_CASE("stick-breaking attention: packed rows and thread counts give the same bits", "[ops][stickbreaking][pack]") {
  const int64_t B = 3, L = 40, H = 2, d = 8;
  const std::vector<int32_t> lengths{40, 17, 1};
  const Tensor q = random_tensor(Shape{B, L, H, d}, 11), k = random_tensor(Shape{B, L, H, d}, 12),
               v = random_tensor(Shape{B, L, H, d}, 13);
  Tensor R = random_tensor(Shape{B, L, H, d}, 14);
  for (int64_t b = 0; b < B; ++b)  // the padding's output gradient is 0, as the model's output mask makes it
    for (int64_t i = lengths[size_t(b)] * H * d; i < L * H * d; ++i) R[b * L * H * d + i] = 0;
  const AttentionMask mask(true, 7);
  const Outputs padded = run(q, k, v, R, lengths, mask, {});
  // The packed op on the real rows.
  auto pack = [&](const Tensor& x) { return test::pack_real_rows(x, lengths); };
  Parameter pq("q", pack(q)), pk("k", pack(k)), pv("v", pack(v));
  for (Parameter* p : {&pq, &pk, &pv}) p->grad = Tensor::zeros(p->value.shape());
  Tape t;
  Var out = stickbreaking_attention_packed(t, t.param(pq), t.param(pk), t.param(pv), lengths, L, mask, {},
                                           static_cast<Real>(1 / std::sqrt(double(d))));
  CHECK(test::bit_equal(t.value(out), pack(padded.out)));
  t.backward(sum(t, mul(t, out, t.input(pack(R)))));
  CHECK(test::bit_equal(pq.grad, pack(padded.dq)));
  CHECK(test::bit_equal(pk.grad, pack(padded.dk)));
  CHECK(test::bit_equal(pv.grad, pack(padded.dv)));
  Outputs one, two;
  test::with_threads(1, [&] { one = run(q, k, v, R, lengths, mask, {}); });
  test::with_threads(2, [&] { two = run(q, k, v, R, lengths, mask, {}); });
  CHECK(test::bit_equal(one.out, two.out));
  CHECK(test::bit_equal(one.dq, two.dq));
  CHECK(test::bit_equal(one.dk, two.dk));
}

TEST_CASE("stick-breaking is refused bidirectionally and without a causal mask", "[ops][stickbreaking]") {
  EncodingConfig cfg;
  cfg.causal = false;
  REQUIRE_THROWS_WITH(make_encoding("stickbreaking", cfg), Contains("causal attention only"));
  Tape t;
  Var x = t.input(random_tensor(Shape{1, 4, 1, 2}, 21));
  REQUIRE_THROWS_WITH(stickbreaking_attention(t, x, x, x, {4}, false, {}, 1), Contains("needs a causal mask"));
  cfg.causal = true;
  const AttentionForm form = make_encoding("stickbreaking", cfg)->form(t, LayerInput{});
  REQUIRE(std::holds_alternative<StickBreakingForm>(form));
  const StickBreakingRule rule = std::get<StickBreakingForm>(form).rule;
  CHECK(rule.remainder);  // the authors' form by default
  CHECK_FALSE(rule.attend_current);
}
