// tests/layers/test_posenc_ops.cpp: forward values of rotate_pairs, expand_relative and relative_logits,
// their backwards (diagonal sums, a scatter into rows), and bit-identical results for 1 and 2 threads.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <omp.h>

#include "core/ops.h"
#include "core/rng.h"
#include "tests/test_tensors.h"

using namespace ordo;

namespace {

Tensor random_tensor(const Shape& shape, uint64_t stream) { return test::uniform_tensor(shape, 7, stream); }

}  // namespace

TEST_CASE("rotate_pairs rotates each interleaved pair by its position's angle", "[posenc][ops]") {
  // x (1, 2, 4): two positions, two pairs each.
  Tensor x = Tensor::from({1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  const double angles[2][2] = {{0.3, -1.1}, {2.0, 0.7}};
  Tensor c = Tensor::empty({2, 2}), s = Tensor::empty({2, 2});
  for (int l = 0; l < 2; ++l)
    for (int i = 0; i < 2; ++i) {
      c[l * 2 + i] = static_cast<Real>(std::cos(angles[l][i]));
      s[l * 2 + i] = static_cast<Real>(std::sin(angles[l][i]));
    }
  Tape t;
  Tensor y = t.value(rotate_pairs(t, t.input(x), c, s));
  REQUIRE(y.shape() == x.shape());
  for (int l = 0; l < 2; ++l)
    for (int i = 0; i < 2; ++i) {
      const double x0 = x[l * 4 + 2 * i], x1 = x[l * 4 + 2 * i + 1], a = angles[l][i];
      CHECK(y[l * 4 + 2 * i] == Approx(x0 * std::cos(a) - x1 * std::sin(a)).margin(1e-5));
      CHECK(y[l * 4 + 2 * i + 1] == Approx(x0 * std::sin(a) + x1 * std::cos(a)).margin(1e-5));
    }
}

TEST_CASE("rotate_pairs rejects odd widths and mismatched angle tables", "[posenc][ops]") {
  Tape t;
  CHECK_THROWS_AS(rotate_pairs(t, t.input(Tensor::zeros({2, 3})), Tensor::zeros({2, 1}),
                               Tensor::zeros({2, 1})),
                  Error);
  CHECK_THROWS_AS(rotate_pairs(t, t.input(Tensor::zeros({2, 4})), Tensor::zeros({3, 2}),
                               Tensor::zeros({3, 2})),
                  Error);
}

TEST_CASE("expand_relative builds a Toeplitz bias out[h,t,u] = rel[h, u-t+Lq-1]", "[posenc][ops]") {
  const int64_t H = 2, Lq = 3, Lk = 4, W = Lq + Lk - 1;
  Tensor rel = Tensor::empty({H, W});
  for (int64_t i = 0; i < rel.numel(); ++i) rel[i] = static_cast<Real>(10 * (i / W) + i % W);
  Tape t;
  Tensor out = t.value(expand_relative(t, t.input(rel), Lq, Lk));
  REQUIRE(out.shape() == Shape{H, Lq, Lk});
  for (int64_t h = 0; h < H; ++h)
    for (int64_t q = 0; q < Lq; ++q)
      for (int64_t u = 0; u < Lk; ++u) CHECK(out[(h * Lq + q) * Lk + u] == 10 * h + (u - q + Lq - 1));
  CHECK_THROWS_AS(expand_relative(t, t.input(rel), Lq, Lk + 1), Error);
}

TEST_CASE("expand_relative's backward sums each diagonal", "[posenc][ops]") {
  const int64_t H = 2, Lq = 4, Lk = 3, W = Lq + Lk - 1;
  Parameter rel("rel", Tensor::zeros({H, W}));
  Tensor R = random_tensor({H, Lq, Lk}, 1);
  Tape t;
  Var out = expand_relative(t, t.param(rel), Lq, Lk);
  t.backward(sum(t, mul(t, out, t.input(R))));  // d loss / d out = R
  for (int64_t h = 0; h < H; ++h)
    for (int64_t j = 0; j < W; ++j) {
      double expected = 0;
      for (int64_t q = 0; q < Lq; ++q)
        for (int64_t u = 0; u < Lk; ++u)
          if (u - q + Lq - 1 == j) expected += R[(h * Lq + q) * Lk + u];
      CHECK(rel.grad[h * W + j] == Approx(expected).margin(1e-5));
    }
}

TEST_CASE("relative_logits takes each pair's row of rel, and its backward scatters into those rows", "[posenc][ops]") {
  const int64_t d = GENERATE(6, 70);  // 70: the gradient of q in two blocks, the second partial
  INFO("d " << d);
  const int64_t B = 2, H = 3, Lq = 4, Lk = 5, N = 7;
  Parameter q("q", random_tensor({B, H, Lq, d}, 2)), rel("rel", random_tensor({N, H, d}, 3));
  TensorI32 idx = TensorI32::empty(Shape{Lq, Lk});
  for (int64_t i = 0; i < Lq * Lk; ++i) idx[i] = static_cast<int32_t>((5 * i + 1) % 6);  // row 6 unused
  const Tensor R = random_tensor({B, H, Lq, Lk}, 4);
  Tape t;
  Var out = relative_logits(t, t.param(q), t.param(rel), idx);
  t.backward(sum(t, mul(t, out, t.input(R))));  // d loss / d out = R
  std::vector<double> dq(size_t(B * H * Lq * d), 0.0), drel(size_t(N * H * d), 0.0);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t i = 0; i < Lq; ++i)
        for (int64_t u = 0; u < Lk; ++u) {
          const int64_t row = (b * H + h) * Lq + i, n = idx[i * Lk + u];
          double want = 0;
          for (int64_t c = 0; c < d; ++c) {
            want += double(q.value[row * d + c]) * rel.value[(n * H + h) * d + c];
            dq[size_t(row * d + c)] += double(R[row * Lk + u]) * rel.value[(n * H + h) * d + c];
            drel[size_t((n * H + h) * d + c)] += double(R[row * Lk + u]) * q.value[row * d + c];
          }
          CHECK(t.value(out)[row * Lk + u] == Approx(want).margin(1e-5));
        }
  for (size_t i = 0; i < dq.size(); ++i) CHECK(q.grad[int64_t(i)] == Approx(dq[i]).margin(1e-5));
  for (size_t i = 0; i < drel.size(); ++i) CHECK(rel.grad[int64_t(i)] == Approx(drel[i]).margin(1e-5));
  for (int64_t i = 6 * H * d; i < N * H * d; ++i) CHECK(rel.grad[i] == 0);
  TensorI32 bad = idx.clone();
  bad[3] = int32_t(N);
  if (d == 6)
    CHECK_THROWS_WITH(relative_logits(t, t.param(q), t.param(rel), bad),
                      Catch::Matchers::Contains("idx entry 7 at (0, 3) is outside the 7 rows of rel"));
}

TEST_CASE("positional ops give bit-identical values and gradients for 1 and 2 threads", "[posenc][ops]") {
  const int64_t B = 4, H = 8, L = 96, D = 64, W = 2 * L - 1;
  Tensor x = random_tensor({B, H, L, D}, 2), dy = random_tensor({B, H, L, D}, 3);
  Tensor c = random_tensor({L, D / 2}, 4), s = random_tensor({L, D / 2}, 5);
  Tensor rel = random_tensor({H, W}, 6), dr = random_tensor({H, L, L}, 7);
  auto run = [&](int threads) {
    const int saved = omp_get_max_threads();
    omp_set_num_threads(threads);
    Parameter px("x", x.clone()), prel("rel", rel.clone());
    Tape t;
    Var y = rotate_pairs(t, t.param(px), c, s);
    Var e = expand_relative(t, t.param(prel), L, L);
    t.backward(add(t, sum(t, mul(t, y, t.input(dy))), sum(t, mul(t, e, t.input(dr)))));
    std::vector<Tensor> result = {t.value(y).clone(), t.value(e).clone(), px.grad.clone(),
                                  prel.grad.clone()};
    omp_set_num_threads(saved);
    return result;
  };
  auto one = run(1), two = run(2);
  for (size_t i = 0; i < one.size(); ++i) {
    INFO("result " << i);
    REQUIRE(one[i].shape() == two[i].shape());
    CHECK(std::memcmp(one[i].data(), two[i].data(), sizeof(Real) * one[i].numel()) == 0);
  }
}
