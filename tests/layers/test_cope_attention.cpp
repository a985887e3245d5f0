// tests/layers/test_cope_attention.cpp: CoPE's kernel (core/ops/cope_attention.cpp, docs/spec.md
// §2.12) against its definition written out here, against the reference composed from tape
// ops (core/ops/cope_reference.cpp) forward and backward, packed against padded and one
// thread against two; gradients against finite differences are in
// tests/gradcheck/test_ops_cope.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/ops.h"
#include "layers/posenc/encoding.h"
#include "tests/layers/model_fixtures.h"
#include "tests/test_tensors.h"

using namespace ordo;
using Catch::Matchers::Contains;

namespace {

Tensor random_tensor(const Shape& shape, uint64_t stream) { return test::uniform_tensor(shape, 41, stream, -1.5, 1.5); }

struct Outputs {
  Tensor out, dq, dk, dv, de;
};

Outputs run(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& e, const Tensor& R,
            const std::vector<int32_t>& lengths, const AttentionMask& mask, bool reference = false) {
  Parameter pq("q", q.clone()), pk("k", k.clone()), pv("v", v.clone()), pe("e", e.clone());
  for (Parameter* p : {&pq, &pk, &pv, &pe}) p->grad = Tensor::zeros(p->value.shape());
  Tape t;
  const Real scale = static_cast<Real>(1 / std::sqrt(double(q.dim(3))));
  Var out = (reference ? cope_attention_reference : cope_attention)(t, t.param(pq), t.param(pk), t.param(pv),
                                                                    t.param(pe), lengths, mask, scale);
  Outputs o{t.value(out).clone(), {}, {}, {}, {}};
  t.backward(sum(t, mul(t, out, t.input(R))));
  o.dq = pq.grad, o.dk = pk.grad, o.dv = pv.grad, o.de = pe.grad;
  return o;
}

}  // namespace

TEST_CASE("cope attention computes its definition", "[ops][cope]") {
  // The formulas of docs/spec.md §2.12 in double, row by row: gates over the visible keys,
  // their sums from each key to the query, clamped at P - 1, e interpolated between rows.
  const int64_t B = 2, L = 70, H = 2, d = 4;
  const Shape s{B, L, H, d};
  const Tensor q = random_tensor(s, 1), k = random_tensor(s, 2), v = random_tensor(s, 3);
  const std::vector<int32_t> lengths{70, 33};
  for (int64_t P : {6, 71})
    for (int64_t window : {0, 5}) {
      INFO("P " << P << " window " << window);
      const Tensor e = random_tensor(Shape{P, d}, 4);
      const AttentionMask mask(true, window);
      const Tensor got = run(q, k, v, e, Tensor::zeros(s), lengths, mask).out;
      auto at = [&](const Tensor& x, int64_t b, int64_t t, int64_t h, int64_t c) {
        return double(x[((b * L + t) * H + h) * d + c]);
      };
      for (int64_t b = 0; b < B; ++b)
        for (int64_t h = 0; h < H; ++h)
          for (int64_t i = 0; i < lengths[size_t(b)]; ++i) {
            const int64_t j0 = mask.key_begin(i), j1 = mask.key_end(i, lengths[size_t(b)]);
            std::vector<double> z(size_t(L), 0), x(size_t(L), 0);
            for (int64_t j = j0; j < j1; ++j) {
              for (int64_t c = 0; c < d; ++c) z[size_t(j)] += at(q, b, i, h, c) * at(k, b, j, h, c);
              z[size_t(j)] /= std::sqrt(double(d));
            }
            double C = 0, top = -1e300;
            for (int64_t j = j1 - 1; j >= j0; --j) {
              C += 1 / (1 + std::exp(-z[size_t(j)]));
              const double p = std::min(C, double(P - 1)), lo = std::floor(p), w = p - lo;
              double term = 0;
              for (int64_t c = 0; c < d; ++c) {
                const double el = e[int64_t(lo) * d + c], eh = e[int64_t(std::ceil(p)) * d + c];
                term += at(q, b, i, h, c) * ((1 - w) * el + w * eh);
              }
              x[size_t(j)] = z[size_t(j)] + term;
              top = std::max(top, x[size_t(j)]);
            }
            double total = 0;
            for (int64_t j = j0; j < j1; ++j) total += std::exp(x[size_t(j)] - top);
            for (int64_t c = 0; c < d; ++c) {
              double o = 0;
              for (int64_t j = j0; j < j1; ++j) o += std::exp(x[size_t(j)] - top) / total * at(v, b, j, h, c);
              INFO("b " << b << " h " << h << " i " << i << " c " << c);
              REQUIRE(std::fabs(at(got, b, i, h, c) - o) <= 1e-5);
            }
          }
    }
}

TEST_CASE("cope: the kernel agrees with the reference forward and backward", "[ops][cope]") {
  // Several tiles of queries (L > 64), head widths below, at and past a vector (4, 16, 20),
  // key padding, a window, and P small (the positions clamp) and large. The two differ in the
  // last bits only (docs/spec.md §2.12: the order of the logit's sum, the sigmoid's form,
  // core/fastmath.h's exponentials). The term is piecewise linear in p, so its gradient jumps
  // where p crosses an integer (and is 0 at an integer p, where ceil p = floor p, as in the
  // authors' code): when a float32 rounding puts the two on either side of one, a query's
  // gradients differ by that jump, through the sums of dp, at every key nearer the query (at
  // L = 150 and P = 151 with a random table, one such crossing moved dq by 0.05). With P
  // large the table is therefore linear in n here (e[n] = e[0] + n slope: no jump but at an
  // integer p exactly). An exact integer is likely too once p passes 64 over many keys (its
  // float32 spacing 2^-17, some 10^4 sums a pair of heads): in float32, L > 100 with P > L is
  // compared only with a window (p <= 9). The float64 test (tests/gradcheck/test_ops_cope.cpp)
  // holds the two to 1e-12 with random tables at every size here.
  for (const auto& [L, d] : {std::pair<int64_t, int64_t>{150, 4}, {70, 16}, {131, 20}}) {
    const int64_t B = 2, H = 2;
    const Shape s{B, L, H, d};
    const Tensor q = random_tensor(s, 31), k = random_tensor(s, 32), v = random_tensor(s, 33), R = random_tensor(s, 34);
    const std::vector<int32_t> lengths{int32_t(L), int32_t(L / 2 + 3)};
    for (int64_t P : {int64_t(5), L + 1})
      for (int64_t window : {0, 9}) {
        const bool f32 = sizeof(Real) == sizeof(float);
        if (f32 && P > 5 && window == 0 && L > 100) continue;  // an integer p is likely (above)
        INFO("L " << L << " d " << d << " P " << P << " window " << window);
        Tensor e = random_tensor(Shape{P, d}, 35);
        if (P > 5) {  // e[n] = e[0] + n slope
          const Tensor slope = test::uniform_tensor(Shape{d}, 41, 36, -0.02, 0.02);
          for (int64_t n = 1; n < P; ++n)
            for (int64_t c = 0; c < d; ++c) e[n * d + c] = e[c] + static_cast<Real>(n) * slope[c];
        }
        const AttentionMask mask(true, window);
        const Outputs fast = run(q, k, v, e, R, lengths, mask), ref = run(q, k, v, e, R, lengths, mask, true);
        CHECK(max_abs_diff(fast.out, ref.out) <= (f32 ? 2e-5 : 1e-12));
        CHECK(max_abs_diff(fast.dq, ref.dq) <= (f32 ? 1e-4 : 1e-11));
        CHECK(max_abs_diff(fast.dk, ref.dk) <= (f32 ? 1e-4 : 1e-11));
        CHECK(max_abs_diff(fast.dv, ref.dv) <= (f32 ? 2e-5 : 1e-12));
        CHECK(max_abs_diff(fast.de, ref.de) <= (f32 ? 3e-4 : 1e-11));  // e: a sum over every query and head
      }
  }
}

TEST_CASE("cope attention: packed rows and thread counts give the same bits", "[ops][cope][pack]") {
  // Two tiles of queries in the longest sequence, an empty one, a window and none.
  const int64_t B = 4, L = 70, H = 2, d = 8, P = 12;
  const std::vector<int32_t> lengths{70, 17, 0, 1};
  for (int64_t window : {0, 9}) {
  INFO("window " << window);
  const Shape s{B, L, H, d};
  const Tensor q = random_tensor(s, 11), k = random_tensor(s, 12), v = random_tensor(s, 13);
  const Tensor e = random_tensor(Shape{P, d}, 15);
  Tensor R = random_tensor(s, 14);
  for (int64_t b = 0; b < B; ++b)  // the padding's output gradient is 0, as the model's output mask makes it
    for (int64_t i = lengths[size_t(b)] * H * d; i < L * H * d; ++i) R[b * L * H * d + i] = 0;
  const AttentionMask mask(true, window);
  const Outputs padded = run(q, k, v, e, R, lengths, mask);
  auto pack = [&](const Tensor& x) { return test::pack_real_rows(x, lengths); };
  Parameter pq("q", pack(q)), pk("k", pack(k)), pv("v", pack(v)), pe("e", e.clone());
  for (Parameter* p : {&pq, &pk, &pv, &pe}) p->grad = Tensor::zeros(p->value.shape());
  Tape t;
  Var out = cope_attention_packed(t, t.param(pq), t.param(pk), t.param(pv), t.param(pe), lengths, L, mask,
                                  static_cast<Real>(1 / std::sqrt(double(d))));
  CHECK(test::bit_equal(t.value(out), pack(padded.out)));
  t.backward(sum(t, mul(t, out, t.input(pack(R)))));
  CHECK(test::bit_equal(pq.grad, pack(padded.dq)));
  CHECK(test::bit_equal(pk.grad, pack(padded.dk)));
  CHECK(test::bit_equal(pv.grad, pack(padded.dv)));
  // The padding rows' queries attend (as the fused attention's do), but their output
  // gradient is 0, so they add exact zeros to e's gradient.
  CHECK(test::bit_equal(pe.grad, padded.de));
  Outputs one, two;
  test::with_threads(1, [&] { one = run(q, k, v, e, R, lengths, mask); });
  test::with_threads(2, [&] { two = run(q, k, v, e, R, lengths, mask); });
  CHECK(test::bit_equal(one.out, two.out));
  CHECK(test::bit_equal(one.dq, two.dq));
  CHECK(test::bit_equal(one.dk, two.dk));
  CHECK(test::bit_equal(one.dv, two.dv));
  CHECK(test::bit_equal(one.de, two.de));
  }
}

TEST_CASE("cope: a position that rounding moves two floors in one key keeps its gradient", "[ops][cope]") {
  // The backward sums dQ per lane as runs of one floor (core/ops/cope_attention.cpp,
  // cope_logit_grads), and the floor mostly steps down by 0 or 1 a key; but in float32 the
  // forward's suffix sum of the gates 1, 1 - 2^-23, 1 (logits 30, 16, 30 at s = q = 1) is
  // 2 - 2^-23 + 1, a tie that rounds to 3: query 2's floor goes 3, 1, 1 walking its keys up.
  // Key 0's term belongs to position 3 as the reference puts it, not to position 2.
  if (sizeof(Real) == sizeof(float)) {
    volatile Real almost = Real(1) - std::ldexp(Real(1), -23);
    REQUIRE(Real(Real(1) + almost) + Real(1) == Real(3));
  }
  const Shape s{1, 3, 1, 1};
  Tensor q = Tensor::empty(s), k = Tensor::empty(s);
  for (int64_t t = 0; t < 3; ++t) q[t] = 1;
  k[0] = 30, k[1] = 16, k[2] = 30;
  const Tensor v = random_tensor(s, 61), e = random_tensor(Shape{6, 1}, 62), R = random_tensor(s, 63);
  const Outputs fast = run(q, k, v, e, R, {3}, AttentionMask(true)), ref = run(q, k, v, e, R, {3}, AttentionMask(true), true);
  CHECK(max_abs_diff(fast.out, ref.out) <= 1e-5);
  CHECK(max_abs_diff(fast.dq, ref.dq) <= 1e-5);
  CHECK(max_abs_diff(fast.dk, ref.dk) <= 1e-5);
  CHECK(max_abs_diff(fast.de, ref.de) <= 1e-5);
}

TEST_CASE("cope attention: a query that sees no key outputs zeros", "[ops][cope]") {
  const Shape s{2, 5, 1, 4};
  const Tensor q = random_tensor(s, 51), k = random_tensor(s, 52), v = random_tensor(s, 53);
  const Tensor e = random_tensor(Shape{6, 4}, 54), R = random_tensor(s, 55);
  const Outputs o = run(q, k, v, e, R, {5, 0}, AttentionMask(true));
  for (int64_t i = 5 * 4; i < 10 * 4; ++i) REQUIRE(o.out[i] == 0);  // sequence 1 has no key
  for (int64_t i = 0; i < 5 * 4; ++i) REQUIRE(o.out[i] != 0);
  const Outputs r = run(q, k, v, e, R, {5, 0}, AttentionMask(true), true);  // the reference zeroes them too
  CHECK(max_abs_diff(o.out, r.out) <= 1e-5);
  CHECK(max_abs_diff(o.dq, r.dq) <= 1e-5);
  CHECK(max_abs_diff(o.dk, r.dk) <= 1e-5);
  CHECK(max_abs_diff(o.dv, r.dv) <= 1e-5);
  CHECK(max_abs_diff(o.de, r.de) <= 1e-5);
}

TEST_CASE("cope attention: a previous call's scratch reaches no result where lanes do not see keys", "[ops][cope]") {
  // The key-major products compute, per block of 4 keys, only the lanes that see one of them
  // (KeyBands), and the sums over lanes and over keys take only those; the pair scratch is
  // reused across calls unwritten, and the gradients' buffers are not zeroed first. A call
  // with nothing but the causal mask (the widest band: every lane at or after a key is
  // computed) on keys of 1e4 (logits of some 10^4: large, yet inside what the kernel's
  // exponentials take; 1e30 put a rounding error of 10^22 into 2^x, an integer overflow
  // under UBSan) and NaN values and output gradients fills the scratch, and the pool's
  // buffers, before the call under a window or with short sequences; one on keys of -1e4 and
  // values and output gradients of +-1e20 (other scores, values of 1e20) before the same call
  // again: the two must give the same bits, every value finite.
  auto finite = [](const Tensor& x) {
    for (int64_t i = 0; i < x.numel(); ++i)
      if (!std::isfinite(static_cast<double>(x[i]))) return false;
    return true;
  };
  for (const auto& [L, d] : {std::pair<int64_t, int64_t>{70, 16}, {131, 20}, {40, 8}}) {
    const int64_t B = 2, H = 2, P = 12;
    const Shape s{B, L, H, d};
    const Tensor q = random_tensor(s, 61), k = random_tensor(s, 62), v = random_tensor(s, 63), R = random_tensor(s, 64);
    const Tensor e = random_tensor(Shape{P, d}, 65);
    Tensor big = Tensor::empty(s), nan = Tensor::empty(s), low = Tensor::empty(s), v2 = Tensor::empty(s), r2 = Tensor::empty(s);
    big.fill(Real(1e4)), nan.fill(Real(NAN)), low.fill(Real(-1e4)), v2.fill(Real(1e20)), r2.fill(Real(-1e20));
    for (const auto& [window, short_len] : {std::pair<int64_t, int32_t>{9, int32_t(L / 2 + 3)}, {3, 5}, {0, 1}}) {
      INFO("L " << L << " d " << d << " window " << window << " second length " << short_len);
      const std::vector<int32_t> lengths{int32_t(L), short_len};
      const AttentionMask mask(true, window);
      const Outputs poison = run(q, big, nan, e, nan, {int32_t(L), int32_t(L)}, AttentionMask(true));
      REQUIRE_FALSE(finite(poison.dv));  // the scratch did see NaN
      const Outputs before = run(q, k, v, e, R, lengths, mask);
      const Outputs other = run(q, low, v2, e, r2, {int32_t(L), int32_t(L)}, AttentionMask(true));
      REQUIRE(std::fabs(static_cast<double>(other.out[0])) > 1e19);  // its values did reach the scratch
      const Outputs after = run(q, k, v, e, R, lengths, mask);
      REQUIRE(finite(before.out));
      for (const auto& [name, x, y] : {std::tuple{"out", &before.out, &after.out}, std::tuple{"dq", &before.dq, &after.dq},
                                       std::tuple{"dk", &before.dk, &after.dk}, std::tuple{"dv", &before.dv, &after.dv},
                                       std::tuple{"de", &before.de, &after.de}}) {
        INFO(name);
        REQUIRE(finite(*y));
        REQUIRE(test::bit_equal(*x, *y));
      }
    }
  }
}

TEST_CASE("cope attention refuses a mask that is not causal and a table of the wrong width", "[ops][cope]") {
  Tape t;
  Var x = t.input(random_tensor(Shape{1, 4, 1, 2}, 21));
  REQUIRE_THROWS_WITH(cope_attention(t, x, x, x, t.input(random_tensor(Shape{5, 2}, 22)), {4}, AttentionMask(false), 1),
                      Contains("needs a causal mask"));
  REQUIRE_THROWS_WITH(cope_attention(t, x, x, x, t.input(random_tensor(Shape{5, 3}, 22)), {4}, AttentionMask(true), 1),
                      Contains("e must be (P, 2)"));
  REQUIRE_THROWS_WITH(cope_attention(t, x, x, x, t.input(Tensor::zeros(Shape{0, 2})), {4}, AttentionMask(true), 1),
                      Contains("P >= 1"));
}



TEST_CASE("cope in the model: the fused path runs its kernel and agrees with the unfused composition", "[layers][cope]") {
  // Spread weights (the table e is zero at init, which would hide the term), with and without
  // a window, against the same model unfused; with SSMax the fused model takes the
  // composition (its kernel takes no SSMax).
  const TensorI32 x = testing::random_tokens(4, 11, 12, 61);
  const std::vector<int32_t> lengths{11, 6, 1, 9};
  auto ops_of = [&](EncoderModel& m) {
    Tape t;
    t.set_profiling(true);
    t.backward(sum(t, m.forward(t, x, lengths).logits));
    std::set<std::string> names;
    for (const auto& [name, time] : t.profile()) names.insert(name);
    return names;
  };
  for (int64_t window : {0, 3})
    for (bool ssmax : {false, true}) {
      INFO("window " << window << " ssmax " << ssmax);
      ModelConfig c = testing::small_model("cope", HeadType::Token, true);
      c.window = window;
      c.log_length_scale = ssmax;
      auto fused = testing::spread_model(c);
      const std::set<std::string> ops = ops_of(*fused);
      CHECK(ops.count("cope_attention") == (ssmax ? 0u : 1u));
      CHECK(ops.count("gather_last") == (ssmax ? 1u : 0u));
      c.fused_attention = false;
      auto unfused = testing::spread_model(c);
      CHECK(ops_of(*unfused).count("cope_attention") == 0);
      auto [out_f, grad_f] = testing::outputs_and_grads(*fused, x, lengths);
      auto [out_u, grad_u] = testing::outputs_and_grads(*unfused, x, lengths);
      if (!ssmax) CHECK(testing::max_diff(out_f, out_u) > 0);  // two paths, not one
      CHECK(testing::relative_diff(out_f, out_u) <= 1e-5);
      CHECK(testing::relative_diff(grad_f, grad_u) <= 1e-5);
    }
}
