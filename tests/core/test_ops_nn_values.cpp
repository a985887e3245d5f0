// tests/core/test_ops_nn_values.cpp: float32 values of the softmax family, cross-entropy,
// layernorm, embedding, dropout and FIRE's scalar_mlp: hand-computed numbers, invariants, error messages and
// bit-identical results for 1 and 2 threads.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <omp.h>
#include <utility>

#include "core/ops.h"
#include "core/rng.h"
#include "tests/test_tensors.h"

using namespace ordo;
using Catch::Matchers::Contains;

namespace {

constexpr Real kInf = std::numeric_limits<Real>::infinity();

Tensor random_tensor(const Shape& shape, uint64_t stream, double lo = -1, double hi = 1) {
  return test::uniform_tensor(shape, 11, stream, lo, hi);
}

using test::bit_equal;
using test::with_threads;

// The gradient of loss = sum(f(x) * R) w.r.t. x, with R a fixed random tensor.
template <class F>
std::pair<Tensor, Tensor> value_and_grad(const Tensor& x, F f, uint64_t stream = 99) {
  Parameter p("x", x.clone());
  Tape t;
  Var y = f(t, t.param(p));
  Tensor out = t.value(y).clone();
  Tensor R = random_tensor(out.shape(), stream);
  t.backward(sum(t, mul(t, y, t.input(R))));
  return {out, p.grad.clone()};
}

}  // namespace

// ---- softmax / log_softmax ---------------------------------------------------------------

TEST_CASE("softmax rows sum to 1 and are stable for large logits", "[ops][softmax]") {
  Tape t;
  Tensor x = random_tensor({4, 3, 7}, 1, -5, 5);
  for (int j = 0; j < 7; ++j) x[j] += 1000;  // row 0 shifted far: no overflow
  const Tensor y = t.value(softmax(t, t.input(x)));
  for (int64_t r = 0; r < 12; ++r) {
    double total = 0;
    for (int64_t j = 0; j < 7; ++j) {
      REQUIRE(y[r * 7 + j] > 0);
      total += y[r * 7 + j];
    }
    REQUIRE(total == Approx(1.0).margin(1e-6));
  }
  // Shift invariance: row 0 equals softmax of the unshifted row.
  Tensor x0 = Tensor::from({7}, {x[0] - 1000, x[1] - 1000, x[2] - 1000, x[3] - 1000, x[4] - 1000,
                                 x[5] - 1000, x[6] - 1000});
  const Tensor y0 = t.value(softmax(t, t.input(x0)));
  for (int j = 0; j < 7; ++j) REQUIRE(y0[j] == Approx(y[j]).margin(1e-4));
}

TEST_CASE("softmax of [1, 2, 3] by hand", "[ops][softmax]") {
  Tape t;
  const Tensor y = t.value(softmax(t, t.input(Tensor::from({3}, {1, 2, 3}))));
  // e^1, e^2, e^3 / (e^1 + e^2 + e^3) = 0.0900306, 0.2447285, 0.6652410
  CHECK(y[0] == Approx(0.0900306).margin(1e-6));
  CHECK(y[1] == Approx(0.2447285).margin(1e-6));
  CHECK(y[2] == Approx(0.6652410).margin(1e-6));
}

TEST_CASE("softmax with a broadcast -inf mask: masked entries are exactly 0, a fully masked row "
          "is all zeros (never NaN) with zero gradient",
          "[ops][softmax]") {
  // x (B=2, H=2, Lq=3, Lk=4); key padding mask (B, 1, 1, Lk): batch 1 pads its last 2 keys.
  Tensor x = random_tensor({2, 2, 3, 4}, 2, -3, 3);
  Tensor key_pad = Tensor::zeros({2, 1, 1, 4});
  key_pad[6] = key_pad[7] = -kInf;
  auto [y, dx] = value_and_grad(x, [&](Tape& t, Var v) { return softmax(t, v, key_pad); });
  for (int64_t r = 0; r < 12; ++r) {
    const bool batch1 = r >= 6;
    double total = 0;
    for (int64_t j = 0; j < 4; ++j) {
      total += y[r * 4 + j];
      if (batch1 && j >= 2) {
        REQUIRE(y[r * 4 + j] == 0);
        REQUIRE(dx[r * 4 + j] == 0);
      }
    }
    REQUIRE(total == Approx(1.0).margin(1e-6));
  }

  // (Lq, Lk) mask with query row 1 fully masked: that row is 0 in every (b, h).
  Tensor causal = Tensor::zeros({3, 4});
  for (int j = 0; j < 4; ++j) causal[4 + j] = -kInf;
  causal[3] = -kInf;
  auto [y2, dx2] = value_and_grad(x, [&](Tape& t, Var v) { return softmax(t, v, causal); });
  for (int64_t bh = 0; bh < 4; ++bh)
    for (int64_t j = 0; j < 4; ++j) {
      const int64_t i = (bh * 3 + 1) * 4 + j;
      REQUIRE(y2[i] == 0);
      REQUIRE(dx2[i] == 0);
      REQUIRE(y2[bh * 12 + 3] == 0);  // (q=0, k=3) masked
    }
  for (int64_t i = 0; i < y2.numel(); ++i) {
    REQUIRE(std::isfinite(y2[i]));
    REQUIRE(std::isfinite(dx2[i]));
  }

  // x itself all -inf in a row (e.g. a bias already holding -inf), no mask.
  Tape t;
  const Tensor y3 = t.value(softmax(t, t.input(Tensor::from({2, 2}, {-kInf, -kInf, 0, 0}))));
  CHECK(y3.to_vector() == std::vector<Real>{0, 0, Real(0.5), Real(0.5)});
}

TEST_CASE("softmax rejects a mask that does not broadcast, naming both shapes", "[ops][softmax]") {
  Tape t;
  Var x = t.input(Tensor::zeros({2, 3, 4}));
  CHECK_THROWS_WITH(softmax(t, x, Tensor::zeros({3, 5})), Contains("softmax") && Contains("(3, 5)") &&
                                                              Contains("(2, 3, 4)"));
  CHECK_THROWS_WITH(softmax(t, x, Tensor::zeros({1, 2, 3, 4})), Contains("does not broadcast"));
  CHECK_THROWS_WITH(softmax(t, x, Tensor::full({4}, kInf)), Contains("-inf"));
}

TEST_CASE("log_softmax equals log(softmax) and is stable", "[ops][softmax]") {
  Tape t;
  Tensor x = random_tensor({5, 6}, 3, -8, 8);
  for (int j = 0; j < 6; ++j) x[j] = x[j] * 100;  // a row with huge spread: softmax underflows
  const Tensor ls = t.value(log_softmax(t, t.input(x)));
  const Tensor s = t.value(softmax(t, t.input(x)));
  for (int64_t i = 6; i < 30; ++i) REQUIRE(ls[i] == Approx(std::log(s[i])).margin(1e-5));
  for (int64_t i = 0; i < 30; ++i) REQUIRE(std::isfinite(ls[i]));
  // Row 0 by hand: log_softmax = x - max - log(sum exp(x - max)).
  Real max = x[0];
  for (int j = 1; j < 6; ++j) max = std::max(max, x[j]);
  double total = 0;
  for (int j = 0; j < 6; ++j) total += std::exp(static_cast<double>(x[j] - max));
  for (int j = 0; j < 6; ++j)
    REQUIRE(ls[j] == Approx(x[j] - max - std::log(total)).margin(1e-3));
}

// ---- cross-entropy -------------------------------------------------------------------------

TEST_CASE("cross_entropy on hand-computed numbers", "[ops][loss]") {
  // Row 0: logits [1, 2, 3], target 2: log(e + e^2 + e^3) - 3 = 0.4076059644
  // Row 1: logits [1, 1, 1], target 0: log 3                  = 1.0986122887
  // mean = 0.7531091265
  Parameter logits("logits", Tensor::from({2, 3}, {1, 2, 3, 1, 1, 1}));
  Tape t;
  Var loss = cross_entropy(t, t.param(logits), TensorI32::from({2}, {2, 0}), Tensor::from({2}, {1, 1}));
  CHECK(t.value(loss).item() == Approx(0.7531091265).margin(1e-6));
  t.backward(loss);
  // d logits = (softmax - onehot) / 2
  const std::vector<double> want = {0.0900306 / 2, 0.2447285 / 2, (0.6652410 - 1) / 2,
                                    (1.0 / 3 - 1) / 2, 1.0 / 6, 1.0 / 6};
  for (int i = 0; i < 6; ++i) CHECK(logits.grad[i] == Approx(want[i]).margin(1e-6));
}

TEST_CASE("cross_entropy ignores unscored rows entirely", "[ops][loss]") {
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  auto run = [](const Tensor& x, const std::vector<int32_t>& targets) {
    Parameter p("logits", x.clone());
    Tape t;
    Var loss = cross_entropy(t, t.param(p), TensorI32::from({3}, targets),
                             Tensor::from({3}, {1, 0, 1}));
    const Real value = t.value(loss).item();
    t.backward(loss);
    return std::make_pair(value, p.grad.clone());
  };
  Tensor x = Tensor::from({3, 3}, {1, 2, 3, 5, -4, 0.5, 1, 1, 1});
  auto [l0, g0] = run(x, {2, 1, 0});
  // Same loss as the two scored rows alone: (0.4076059644 + 1.0986122887) / 2.
  CHECK(l0 == Approx(0.7531091265).margin(1e-6));
  // Change the unscored row's logits (even to NaN) and its target (even out of range).
  Tensor x2 = x.clone();
  x2[3] = nan, x2[4] = Real(1e30), x2[5] = -kInf;
  auto [l1, g1] = run(x2, {2, 99, 0});
  auto [l2, g2] = run(x2, {2, -7, 0});
  CHECK(l1 == l0);
  CHECK(l2 == l0);
  CHECK(bit_equal(g1, g0));
  CHECK(bit_equal(g2, g0));
  for (int j = 3; j < 6; ++j) CHECK(g0[j] == 0);
}

TEST_CASE("cross_entropy with no scored row is 0 with zero gradient", "[ops][loss]") {
  Parameter p("logits", random_tensor({4, 5}, 4));
  Tape t;
  Var loss = cross_entropy(t, t.param(p), TensorI32::from({4}, {9, 9, 9, 9}), Tensor::zeros({4}));
  CHECK(t.value(loss).item() == 0);
  t.backward(loss);
  for (int64_t i = 0; i < 20; ++i) CHECK(p.grad[i] == 0);
}

TEST_CASE("cross_entropy errors name the row, the target and C", "[ops][loss]") {
  Tape t;
  Var x = t.input(Tensor::zeros({3, 4}));
  CHECK_THROWS_WITH(cross_entropy(t, x, TensorI32::from({3}, {0, 4, 1}), Tensor::full({3}, 1)),
                    Contains("row 1") && Contains("target 4") && Contains("C = 4"));
  CHECK_THROWS_WITH(cross_entropy(t, x, TensorI32::from({3}, {0, 1, -2}), Tensor::full({3}, 1)),
                    Contains("row 2") && Contains("target -2"));
  CHECK_THROWS_WITH(cross_entropy(t, x, TensorI32::from({2}, {0, 1}), Tensor::full({2}, 1)),
                    Contains("targets must be (N)"));
  CHECK_THROWS_WITH(cross_entropy(t, x, TensorI32::from({3}, {0, 1, 2}), Tensor::full({3}, 0.5)),
                    Contains("0 (unscored) or 1 (scored)"));
}

// ---- layernorm -----------------------------------------------------------------------------

TEST_CASE("layernorm output has mean 0 and variance 1 before the affine part", "[ops][layernorm]") {
  const int64_t rows = 6, d = 32;
  Tensor x = random_tensor({2, 3, d}, 5, -3, 7);
  Tape t;
  Var xv = t.input(x);
  const Tensor y = t.value(layernorm(t, xv, t.input(Tensor::full({d}, 1)), t.input(Tensor::zeros({d}))));
  const Tensor z = t.value(layernorm(t, xv, t.input(Tensor::full({d}, 2)), t.input(Tensor::full({d}, 3))));
  for (int64_t r = 0; r < rows; ++r) {
    double m = 0, v = 0, mz = 0, vz = 0;
    for (int64_t j = 0; j < d; ++j) m += y[r * d + j], mz += z[r * d + j];
    m /= d, mz /= d;
    for (int64_t j = 0; j < d; ++j) {
      v += (y[r * d + j] - m) * (y[r * d + j] - m);
      vz += (z[r * d + j] - mz) * (z[r * d + j] - mz);
    }
    v /= d, vz /= d;
    CHECK(m == Approx(0).margin(1e-6));
    CHECK(v == Approx(1).margin(1e-4));  // var / (var + eps), var ~ 8
    CHECK(mz == Approx(3).margin(1e-5));  // gamma 2, beta 3
    CHECK(vz == Approx(4).margin(4e-4));
  }
  // By hand: x = [1, 2, 3, 4]: mean 2.5, var 1.25, xhat = (x - 2.5) / sqrt(1.25 + 1e-5).
  const Tensor h = t.value(layernorm(t, t.input(Tensor::from({4}, {1, 2, 3, 4})),
                                     t.input(Tensor::full({4}, 1)), t.input(Tensor::zeros({4}))));
  const double s = 1 / std::sqrt(1.25 + 1e-5);
  for (int j = 0; j < 4; ++j) CHECK(h[j] == Approx((j + 1 - 2.5) * s).margin(1e-6));
}

TEST_CASE("layernorm of rows with |mean| >> std matches float64 (corrected two-pass moments)",
          "[ops][layernorm]") {
  // Rows 1000 + 0.01 z (z in [-1, 1], std 0.0058). A float mean near 1000 is a multiple of
  // 6.1e-5, so xhat cannot be closer than ~0.005 to float64's; the first pass's float sum
  // alone was off by more (measured 0.013), the second pass's correction brings it to that
  // limit (0.005). Rows of 64 (the vector path) and of 36 (the scalar path).
  for (const int64_t d : {64, 36}) {
    const int64_t rows = 8;
    Tensor x = random_tensor({rows, d}, 17, -1, 1);
    for (int64_t i = 0; i < x.numel(); ++i) x[i] = 1000.0f + 0.01f * x[i];
    Tape t;
    const Tensor y = t.value(layernorm(t, t.input(x), t.input(Tensor::full({d}, 1)), t.input(Tensor::zeros({d})),
                                       Real(1e-12)));
    double worst = 0;
    for (int64_t r = 0; r < rows; ++r) {
      double m = 0, v = 0;
      for (int64_t j = 0; j < d; ++j) m += x[r * d + j];
      m /= d;
      for (int64_t j = 0; j < d; ++j) v += (x[r * d + j] - m) * (x[r * d + j] - m);
      v /= d;
      for (int64_t j = 0; j < d; ++j)
        worst = std::max(worst, std::abs(y[r * d + j] - (x[r * d + j] - m) / std::sqrt(v + 1e-12)));
    }
    INFO("d = " << d << ": largest |xhat - xhat_f64| " << worst);
    CHECK(worst < 8e-3);
  }
}

TEST_CASE("layernorm shape errors name both shapes", "[ops][layernorm]") {
  Tape t;
  CHECK_THROWS_WITH(layernorm(t, t.input(Tensor::zeros({2, 4})), t.input(Tensor::zeros({3})),
                              t.input(Tensor::zeros({4}))),
                    Contains("gamma") && Contains("(3)") && Contains("(2, 4)"));
}

// ---- embedding -----------------------------------------------------------------------------

TEST_CASE("embedding gathers rows and scatter-adds repeated ids", "[ops][embedding]") {
  Parameter table("table", Tensor::from({3, 2}, {10, 11, 20, 21, 30, 31}));
  Tape t;
  Var out = embedding(t, t.param(table), TensorI32::from({2, 2}, {2, 0, 2, 2}));
  REQUIRE(t.shape(out) == Shape({2, 2, 2}));
  CHECK(t.value(out).to_vector() == std::vector<Real>{30, 31, 10, 11, 30, 31, 30, 31});
  t.backward(sum(t, out));
  CHECK(table.grad.to_vector() == std::vector<Real>{1, 1, 0, 0, 3, 3});
}

TEST_CASE("embedding out-of-range id: the error names the id and V", "[ops][embedding]") {
  Tape t;
  Var table = t.input(Tensor::zeros({5, 3}));
  CHECK_THROWS_WITH(embedding(t, table, TensorI32::from({3}, {0, 7, 1})),
                    Contains("embedding") && Contains("id 7") && Contains("V = 5"));
  CHECK_THROWS_WITH(embedding(t, table, TensorI32::from({2}, {-1, 1})),
                    Contains("id -1") && Contains("V = 5"));
  CHECK_THROWS_WITH(embedding(t, table, TensorI32::from({1}, {5})), Contains("id 5"));
}

// ---- dropout -------------------------------------------------------------------------------

TEST_CASE("dropout keeps ~(1-p) of the elements and scales them by 1/(1-p)", "[ops][dropout]") {
  const int64_t n = 200000;
  for (Real p : {Real(0.1), Real(0.3), Real(0.5), Real(0.9)}) {
    INFO("p = " << p);
    Tape t;
    Tensor x = random_tensor({n}, 6, 1, 2);
    const Tensor y = t.value(dropout(t, t.input(x), p, 42, 0));
    int64_t kept = 0;
    const Real scale = static_cast<Real>(1.0 / (1.0 - p));
    for (int64_t i = 0; i < n; ++i) {
      if (y[i] != 0) {
        ++kept;
        REQUIRE(y[i] == x[i] * scale);
      }
    }
    const double frac = static_cast<double>(kept) / n;
    const double sigma = std::sqrt(p * (1 - p) / n);
    CHECK(std::fabs(frac - (1 - p)) < 6 * sigma);
  }
}

TEST_CASE("dropout mask: element i is Philox(seed, stream, i/4) word i%4, same seed same mask, "
          "another stream or seed another mask",
          "[ops][dropout]") {
  const int64_t n = 40000;
  const Real p = Real(0.3);
  Tensor ones = Tensor::full({n}, 1);
  auto mask = [&](uint64_t seed, uint64_t stream) {
    Tape t;
    return t.value(dropout(t, t.input(ones), p, seed, stream)).clone();
  };
  Tensor a = mask(7, 1), b = mask(7, 1), c = mask(7, 2), d = mask(8, 1);
  CHECK(bit_equal(a, b));
  int64_t differ_stream = 0, differ_seed = 0;
  for (int64_t i = 0; i < n; ++i) {
    differ_stream += (a[i] == 0) != (c[i] == 0);
    differ_seed += (a[i] == 0) != (d[i] == 0);
  }
  // Independent masks disagree with probability 2 p (1 - p) = 0.42.
  CHECK(std::fabs(static_cast<double>(differ_stream) / n - 0.42) < 0.02);
  CHECK(std::fabs(static_cast<double>(differ_seed) / n - 0.42) < 0.02);
  // The documented contract, element by element.
  for (int64_t i : {0, 1, 2, 3, 4, 5, 1001, 39999}) {
    const uint32_t word = philox4x32(7, 1, static_cast<uint64_t>(i / 4))[i % 4];
    const bool keep = static_cast<double>(word) / 4294967296.0 >= p;
    CHECK((a[i] != 0) == keep);
  }
}

TEST_CASE("dropout p = 0 is the identity (no node), p outside 0 to 1 is an error", "[ops][dropout]") {
  Tape t;
  Var x = t.input(Tensor::full({3}, 1));
  const size_t nodes = t.size();
  Var y = dropout(t, x, 0, 1, 2);
  CHECK(y.id == x.id);
  CHECK(t.size() == nodes);
  CHECK_THROWS_WITH(dropout(t, x, 1, 1, 2), Contains("dropout") && Contains("[0, 1)"));
  CHECK_THROWS_WITH(dropout(t, x, Real(-0.1), 1, 2), Contains("[0, 1)"));
  CHECK_THROWS_WITH(dropout(t, x, std::numeric_limits<Real>::quiet_NaN(), 1, 2), Contains("[0, 1)"));
}

TEST_CASE("dropout gradient is the mask scaled by 1/(1-p)", "[ops][dropout]") {
  Tensor x = random_tensor({50, 40}, 8);
  auto [y, dx] = value_and_grad(x, [](Tape& t, Var v) { return dropout(t, v, Real(0.25), 3, 4); });
  Tensor R = random_tensor({50, 40}, 99);
  for (int64_t i = 0; i < x.numel(); ++i)
    REQUIRE(dx[i] == (y[i] != 0 ? R[i] * Real(1 / 0.75) : Real(0)));
}

// ---- thread-count independence ------------------------------------------------------------

TEST_CASE("softmax, log_softmax, cross_entropy, layernorm, embedding and dropout give "
          "bit-identical values and gradients for 1 and 2 threads",
          "[ops][determinism]") {
  // Sizes large enough that parallel_for really splits the work.
  Tensor att = random_tensor({4, 4, 32, 64}, 10, -4, 4);  // (B, H, Lq, Lk)
  Tensor key_pad = Tensor::zeros({4, 1, 1, 64});
  for (int j = 40; j < 64; ++j) key_pad[3 * 64 + j] = -kInf;
  Tensor h = random_tensor({512, 64}, 11, -2, 2);          // (rows, d)
  Tensor gamma = random_tensor({64}, 12, 0.5, 1.5), beta = random_tensor({64}, 13);
  Tensor table = random_tensor({50, 64}, 14);
  TensorI32 ids = TensorI32::empty({4096});
  TensorI32 targets = TensorI32::empty({512});
  Tensor score = Tensor::empty({512});
  CounterRng rng(5, 5);
  for (int64_t i = 0; i < ids.numel(); ++i) ids[i] = static_cast<int32_t>(rng.uniform_int(0, 49));
  for (int64_t i = 0; i < 512; ++i) {
    targets[i] = static_cast<int32_t>(rng.uniform_int(0, 63));
    score[i] = rng.uniform() < 0.7 ? 1 : 0;
  }

  auto run = [&]() {
    std::vector<Tensor> results;
    auto [s, ds] = value_and_grad(att, [&](Tape& t, Var v) { return softmax(t, v, key_pad); });
    auto [ls, dls] = value_and_grad(att, [&](Tape& t, Var v) { return log_softmax(t, v); });
    auto [dr, ddr] = value_and_grad(att, [&](Tape& t, Var v) { return dropout(t, v, Real(0.2), 9, 9); });
    auto [em, dem] = value_and_grad(table, [&](Tape& t, Var v) { return embedding(t, v, ids); });
    results.insert(results.end(), {s, ds, ls, dls, dr, ddr, em, dem});
    Parameter x("x", h.clone()), g("g", gamma.clone()), b("b", beta.clone());
    Tape t;
    Var y = layernorm(t, t.param(x), t.param(g), t.param(b));
    Var ce = cross_entropy(t, y, targets, score);
    results.push_back(t.value(y).clone());
    results.push_back(t.value(ce).clone());
    t.backward(ce);
    results.insert(results.end(), {x.grad.clone(), g.grad.clone(), b.grad.clone()});
    return results;
  };
  std::vector<Tensor> one, two;
  with_threads(1, [&] { one = run(); });
  with_threads(2, [&] { two = run(); });
  REQUIRE(one.size() == two.size());
  for (size_t i = 0; i < one.size(); ++i) {
    INFO("result " << i);
    CHECK(bit_equal(one[i], two[i]));
  }
}

// ---- linear_gelu ---------------------------------------------------------------------------

TEST_CASE("linear_gelu equals gelu(linear) bit for bit, values and all three gradients",
          "[ops][linear][gelu]") {
  // 4096 rows: the GEMM runs in several row blocks, each with its GELU epilogue (and, in the
  // backward, its du prologue); 3 rows: one. x as data: du is formed by a pass of its own.
  for (int64_t rows : {int64_t{4096}, int64_t{3}})
    for (bool x_is_param : {true, false}) {
      INFO("rows " << rows << (x_is_param ? ", x a parameter" : ", x data"));
      const int64_t K = 64, N = 256;
      Parameter x("x", random_tensor(Shape{rows, K}, 11, -2, 2)), w("w", random_tensor(Shape{K, N}, 12));
      Parameter b("b", random_tensor(Shape{N}, 13));
      const Tensor R = random_tensor(Shape{rows, N}, 14);
      auto run = [&](bool fused) {
        for (Parameter* p : {&x, &w, &b}) p->grad = Tensor::zeros(p->value.shape());
        Tape t;
        Var xv = x_is_param ? t.param(x) : t.input(x.value);
        Var y = fused ? linear_gelu(t, xv, t.param(w), t.param(b)) : gelu(t, linear(t, xv, t.param(w), t.param(b)));
        Tensor out = t.value(y).clone();
        t.backward(sum(t, mul(t, y, t.input(R))));
        return std::vector<Tensor>{out, x.grad.clone(), w.grad.clone(), b.grad.clone()};
      };
      const std::vector<Tensor> fused = run(true), composed = run(false);
      for (size_t i = 0; i < fused.size(); ++i) {
        INFO("tensor " << i << " (output, dx, dw, db)");
        REQUIRE(bit_equal(fused[i], composed[i]));
      }
    }
}

TEST_CASE("linear_residual equals add(r, linear) bit for bit, values and all four gradients",
          "[ops][linear]") {
  // 4096 rows: several row blocks, each adding its rows of r in the GEMM's epilogue; 3: one.
  // r a parameter (its gradient added to) or an activation (given dy as it is).
  for (int64_t rows : {int64_t{4096}, int64_t{3}})
    for (bool r_is_param : {true, false}) {
      INFO("rows " << rows << (r_is_param ? ", r a parameter" : ", r an activation"));
      const int64_t K = 256, N = 64;
      Parameter x("x", random_tensor(Shape{rows, K}, 41, -2, 2)), w("w", random_tensor(Shape{K, N}, 42));
      Parameter b("b", random_tensor(Shape{N}, 43)), r("r", random_tensor(Shape{rows, N}, 44, -2, 2));
      const Tensor R = random_tensor(Shape{rows, N}, 45);
      auto run = [&](bool fused) {
        for (Parameter* p : {&x, &w, &b, &r}) p->grad = Tensor::zeros(p->value.shape());
        Tape t;
        // As an activation: r enters through an op, so its gradient is a fresh buffer.
        Var rv = r_is_param ? t.param(r) : scale(t, t.param(r), 1.5f);
        Var y = fused ? linear_residual(t, t.param(x), t.param(w), t.param(b), rv)
                      : add(t, rv, linear(t, t.param(x), t.param(w), t.param(b)));
        Tensor out = t.value(y).clone();
        t.backward(sum(t, mul(t, y, t.input(R))));
        return std::vector<Tensor>{out, x.grad.clone(), w.grad.clone(), b.grad.clone(), r.grad.clone()};
      };
      const std::vector<Tensor> fused = run(true), composed = run(false);
      for (size_t i = 0; i < fused.size(); ++i) {
        INFO("tensor " << i << " (output, dx, dw, db, dr)");
        REQUIRE(bit_equal(fused[i], composed[i]));
      }
    }
}

TEST_CASE("linear_rotate equals rotate_pairs(linear) bit for bit, values and all three gradients",
          "[ops][linear]") {
  // (64, 64, K) x: 4096 rows, several row blocks each rotated in the GEMM's epilogue (and
  // du formed in the dx product's prologue); (1, 3, K): one block. x as data: du in a pass of
  // its own. Without a backward: the same values.
  for (int64_t B : {int64_t{64}, int64_t{1}})
    for (bool x_is_param : {true, false}) {
      const int64_t L = B == 1 ? 3 : 64, K = 64, N = 64;
      INFO("x (" << B << ", " << L << ", " << K << ")" << (x_is_param ? ", x a parameter" : ", x data"));
      Parameter x("x", random_tensor(Shape{B, L, K}, 51, -2, 2)), w("w", random_tensor(Shape{K, N}, 52));
      Parameter b("b", random_tensor(Shape{N}, 53));
      const Tensor cos = random_tensor(Shape{L, N / 2}, 54), sin = random_tensor(Shape{L, N / 2}, 55);
      const Tensor R = random_tensor(Shape{B, L, N}, 56);
      auto run = [&](bool fused) {
        for (Parameter* p : {&x, &w, &b}) p->grad = Tensor::zeros(p->value.shape());
        Tape t;
        Var xv = x_is_param ? t.param(x) : t.input(x.value);
        Var y = fused ? linear_rotate(t, xv, t.param(w), t.param(b), cos, sin)
                      : rotate_pairs(t, linear(t, xv, t.param(w), t.param(b)), cos, sin);
        Tensor out = t.value(y).clone();
        t.backward(sum(t, mul(t, y, t.input(R))));
        Tensor no_grad;
        {
          NoGradGuard guard(t);
          no_grad = t.value(fused ? linear_rotate(t, xv, t.param(w), t.param(b), cos, sin)
                                  : rotate_pairs(t, linear(t, xv, t.param(w), t.param(b)), cos, sin)).clone();
        }
        return std::vector<Tensor>{out, x.grad.clone(), w.grad.clone(), b.grad.clone(), no_grad};
      };
      const std::vector<Tensor> fused = run(true), composed = run(false);
      for (size_t i = 0; i < fused.size(); ++i) {
        INFO("tensor " << i << " (output, dx, dw, db, output without a backward)");
        REQUIRE(bit_equal(fused[i], composed[i]));
      }
    }
}

TEST_CASE("linear_gelu without a backward (no grad, or no input needing one) gives the same values, "
          "bit for bit, and records no backward", "[ops][linear][gelu]") {
  // Evaluation: the product is written into y and the GELU applied there in place, keeping
  // no slope. 4096 rows: several row blocks; 5: one.
  for (int64_t rows : {int64_t{4096}, int64_t{5}}) {
    INFO("rows " << rows);
    const int64_t K = 64, N = 256;
    Parameter w("w", random_tensor(Shape{K, N}, 32)), b("b", random_tensor(Shape{N}, 33));
    const Tensor X = random_tensor(Shape{rows, K}, 31, -3, 3);
    Tape t;
    const Tensor recorded = t.value(linear_gelu(t, t.input(X), t.param(w), t.param(b))).clone();
    Tensor no_grad, data_only;
    {
      NoGradGuard guard(t);
      Var y = linear_gelu(t, t.input(X), t.param(w), t.param(b));
      CHECK_FALSE(t.needs_grad(y));
      no_grad = t.value(y).clone();
    }
    Var y = linear_gelu(t, t.input(X), t.input(w.value), t.input(b.value));  // nothing to differentiate
    CHECK_FALSE(t.needs_grad(y));
    data_only = t.value(y).clone();
    CHECK(bit_equal(no_grad, recorded));
    CHECK(bit_equal(data_only, recorded));
  }
}

TEST_CASE("linear's bias gradient is the column sum of dy, with and without dx, fresh and added to",
          "[ops][linear]") {
  // With dx the sums are taken per row block in the dx product's epilogue (1000 and 4096
  // rows: several blocks, 3: one); without dx (x is data) by a separate pass.
  for (int64_t rows : {int64_t{1000}, int64_t{4096}, int64_t{3}})
    for (bool x_is_param : {true, false}) {
      INFO("rows " << rows << (x_is_param ? ", x a parameter" : ", x data"));
      const int64_t K = 24, N = 40;
      Parameter x("x", random_tensor(Shape{rows, K}, 21)), w("w", random_tensor(Shape{K, N}, 22));
      Parameter b("b", random_tensor(Shape{N}, 23));
      const Tensor R = random_tensor(Shape{rows, N}, 24);  // dy
      std::vector<double> expected(N, 0.0);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < N; ++j) expected[j] += R[r * N + j];
      b.grad = Tensor::zeros(Shape{N});
      for (int pass = 1; pass <= 2; ++pass) {  // the second backward adds to b.grad
        Tape t;
        Var y = linear(t, x_is_param ? t.param(x) : t.input(x.value), t.param(w), t.param(b));
        t.backward(sum(t, mul(t, y, t.input(R))));
        for (int64_t j = 0; j < N; ++j) {
          INFO("pass " << pass << ", column " << j);
          REQUIRE(b.grad[j] == Approx(pass * expected[j]).margin(1e-4 * pass * std::sqrt(double(rows))));
        }
      }
    }
}

TEST_CASE("scalar_mlp (FIRE's MLP) in float32: the composition's values, zeros above the triangle, the same bits on 1 and 2 threads",
          "[ops][fire]") {
  const int64_t R = 96, C = 96, K = 32, H = 4;
  Tensor x = random_tensor(Shape{R, C}, 301, 0, 1), w1 = random_tensor(Shape{1, K}, 302, -1, 1);
  Tensor b1 = random_tensor(Shape{K}, 303), w2 = random_tensor(Shape{K, H}, 304), b2 = random_tensor(Shape{H}, 305);
  Tensor dy = random_tensor(Shape{H, R, C}, 306);
  for (bool lower : {false, true}) {
    INFO("lower triangle " << lower);
    struct Out { Tensor y, dx, dw1, db1, dw2, db2; };
    auto run = [&] {
      Parameter px("x", x.clone()), p1("w1", w1.clone()), q1("b1", b1.clone()), p2("w2", w2.clone()), q2("b2", b2.clone());
      Tape t;
      Var y = scalar_mlp(t, t.param(px), t.param(p1), t.param(q1), t.param(p2), t.param(q2), lower);
      Out o{t.value(y).clone(), {}, {}, {}, {}, {}};
      t.backward(sum(t, mul(t, y, t.input(dy))));
      o.dx = px.grad, o.dw1 = p1.grad, o.db1 = q1.grad, o.dw2 = p2.grad, o.db2 = q2.grad;
      return o;
    };
    Out one, two;
    with_threads(1, [&] { one = run(); });
    with_threads(2, [&] { two = run(); });
    for (auto [a, b] : {std::pair{&one.y, &two.y}, {&one.dx, &two.dx}, {&one.dw1, &two.dw1}, {&one.db1, &two.db1},
                        {&one.dw2, &two.dw2}, {&one.db2, &two.db2}})
      REQUIRE(bit_equal(*a, *b));
    // Each entry as the definition reads, in double.
    for (int64_t h = 0; h < H; ++h)
      for (int64_t r = 0; r < R; ++r)
        for (int64_t c = 0; c < C; ++c) {
          double want = 0;
          if (!lower || c <= r) {
            want = b2[h];
            for (int64_t k = 0; k < K; ++k)
              want += double(w2[k * H + h]) * std::max(0.0, double(w1[k]) * x[r * C + c] + b1[k]);
          }
          REQUIRE(std::fabs(one.y[(h * R + r) * C + c] - want) <= 1e-5 * (1 + std::fabs(want)));
        }
    if (lower)  // no gradient above the triangle
      for (int64_t r = 0; r < R; ++r)
        for (int64_t c = r + 1; c < C; ++c) REQUIRE(one.dx[r * C + c] == 0);
  }
}

TEST_CASE("lookup_ratio over several chunks: values and scatters as the definition reads, the lower triangle alone, "
          "the same bits on 1 and 2 threads",
          "[ops][fire]") {
  // FIRE's grid at L = 200 (40,000 entries: three of the op's chunks of partial sums): entry
  // (i, j) reads num[|i - j|] and den[i], its sign +1 below the diagonal and -1 above.
  const int64_t L = 200, n = L * L;
  TensorI32 a = TensorI32::empty(Shape{L, L}), b = TensorI32::empty(Shape{L, L});
  Tensor sign = Tensor::empty(Shape{L, L});
  for (int64_t i = 0; i < L; ++i)
    for (int64_t j = 0; j < L; ++j) {
      a[i * L + j] = static_cast<int32_t>(std::abs(i - j));
      b[i * L + j] = static_cast<int32_t>(i);
      sign[i * L + j] = j <= i ? Real(1) : Real(-1);
    }
  const Tensor num = random_tensor(Shape{L}, 311, 0, 2), den = random_tensor(Shape{L}, 312, 1, 3);
  const Tensor dx = random_tensor(Shape{L, L}, 313);
  for (bool lower : {false, true}) {
    INFO("lower triangle " << lower);
    struct Out { Tensor x, dnum, dden; };
    auto run = [&] {
      Parameter pn("num", num.clone()), pd("den", den.clone());
      Tape t;
      Var x = lookup_ratio(t, t.param(pn), t.param(pd), a, b, sign, lower);
      Out o{t.value(x).clone(), {}, {}};
      t.backward(sum(t, mul(t, x, t.input(dx))));
      o.dnum = pn.grad, o.dden = pd.grad;
      return o;
    };
    Out one, two;
    with_threads(1, [&] { one = run(); });
    with_threads(2, [&] { two = run(); });
    REQUIRE(bit_equal(one.x, two.x));
    REQUIRE(bit_equal(one.dnum, two.dnum));
    REQUIRE(bit_equal(one.dden, two.dden));
    std::vector<double> dnum(L, 0.0), dden(L, 0.0);
    for (int64_t e = 0; e < n; ++e) {
      if (lower && e % L > e / L) {  // above the diagonal: 0, no gradient
        CHECK(one.x[e] == 0);
        continue;
      }
      const double q = den[b[e]], x = double(sign[e]) * num[a[e]] / q;
      CHECK(std::abs(one.x[e] - x) <= 1e-6 * std::max(1.0, std::abs(x)));
      dnum[a[e]] += double(dx[e]) * sign[e] / q;
      dden[b[e]] -= double(dx[e]) * x / q;
    }
    for (int64_t j = 0; j < L; ++j) {
      INFO("entry " << j);
      CHECK(std::abs(one.dnum[j] - dnum[j]) <= 1e-4 * std::max(1.0, std::abs(dnum[j])));
      CHECK(std::abs(one.dden[j] - dden[j]) <= 1e-4 * std::max(1.0, std::abs(dden[j])));
    }
  }
  // An index out of range, in the third chunk: the error names its entry and the read.
  a[35000] = static_cast<int32_t>(L);
  Tape t;
  CHECK_THROWS_WITH(lookup_ratio(t, t.input(num), t.input(den), a, b, sign),
                    Contains("lookup_ratio: entry 35000 reads num[200] of 200"));
  CHECK_THROWS_WITH(lookup_ratio(t, t.input(num), t.input(den), TensorI32::empty(Shape{4}), TensorI32::empty(Shape{4}),
                                 Tensor::empty(Shape{4}), true),
                    Contains("a lower triangle needs grids (R, C), got (4)"));
}
