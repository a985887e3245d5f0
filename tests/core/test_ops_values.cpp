// tests/core/test_ops_values.cpp: float32 forward (and some backward) values of the
// elementwise, reduction, unary and shape ops against hand-computed numbers, and the errors
// they raise on bad shapes.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "core/fastmath.h"
#include "core/ops.h"
#include "tests/test_tensors.h"

using namespace ordo;
using Catch::Matchers::Contains;

namespace {

Tensor T(const Shape& s, const std::vector<Real>& v) { return Tensor::from(s, v); }

// Exact comparison of values that are exact in float32 (small integers, halves).
void require_values(const Tensor& got, const Shape& shape, const std::vector<Real>& want) {
  REQUIRE(got.shape() == shape);
  REQUIRE(got.to_vector() == want);
}

void require_close(const Tensor& got, const std::vector<double>& want, double tol = 1e-6) {
  REQUIRE(got.numel() == static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    REQUIRE(got[i] == Approx(want[i]).margin(tol));
  }
}

}  // namespace

// ---- elementwise ---------------------------------------------------------------------------

TEST_CASE("add, sub, mul, div forward values with broadcasting", "[ops][elementwise]") {
  Tape t;
  Var m = t.input(T({2, 3}, {1, 2, 3, 4, 5, 6}));
  Var row = t.input(T({3}, {10, 20, 30}));
  Var col = t.input(T({2, 1}, {1, 2}));
  require_values(t.value(add(t, m, row)), {2, 3}, {11, 22, 33, 14, 25, 36});  // bias
  require_values(t.value(add(t, row, m)), {2, 3}, {11, 22, 33, 14, 25, 36});  // reversed
  require_values(t.value(sub(t, col, row)), {2, 3}, {-9, -19, -29, -8, -18, -28});  // outer
  require_values(t.value(mul(t, m, col)), {2, 3}, {1, 2, 3, 8, 10, 12});     // a mask
  require_values(t.value(div(t, m, t.input(T({}, {2})))), {2, 3}, {0.5, 1, 1.5, 2, 2.5, 3});
  require_values(t.value(div(t, t.input(T({1}, {6})), m)), {2, 3}, {6, 3, 2, 1.5, 1.2f, 1});
  require_values(t.value(scale(t, m, -0.5)), {2, 3}, {-0.5, -1, -1.5, -2, -2.5, -3});
  // (B, L, d) + (L, d)
  Var x = t.input(T({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}));
  Var ld = t.input(T({2, 2}, {10, 20, 30, 40}));
  require_values(t.value(add(t, x, ld)), {2, 2, 2}, {11, 22, 33, 44, 15, 26, 37, 48});
  // (B, L, d) * (B, L, 1)
  Var mask = t.input(T({2, 2, 1}, {1, 0, 0, 1}));
  require_values(t.value(mul(t, x, mask)), {2, 2, 2}, {1, 2, 0, 0, 0, 0, 7, 8});
  // a stretched middle axis: (2, 1, 2) - (1, 3, 1)
  Var p = t.input(T({2, 1, 2}, {1, 2, 3, 4}));
  Var q = t.input(T({1, 3, 1}, {0, 10, 100}));
  require_values(t.value(sub(t, p, q)), {2, 3, 2},
                 {1, 2, -9, -8, -99, -98, 3, 4, -7, -6, -97, -96});
}

TEST_CASE("broadcast gradients sum over the stretched axes", "[ops][elementwise]") {
  Parameter a("a", T({2, 3}, {1, 2, 3, 4, 5, 6}));
  Parameter b("b", T({3}, {1, 2, 4}));
  Parameter c("c", T({2, 1}, {2, 3}));
  Tape t;
  Var y = mul(t, add(t, t.param(a), t.param(b)), t.param(c));  // (a + b) * c
  t.backward(sum(t, y));
  require_values(a.grad, {2, 3}, {2, 2, 2, 3, 3, 3});          // c broadcast
  require_values(b.grad, {3}, {5, 5, 5});                      // c0 + c1
  require_values(c.grad, {2, 1}, {2 + 4 + 7, 5 + 7 + 10});     // row sums of a + b
  // div: d(a/b)/db = -a/b^2
  Parameter n("n", T({2}, {1, 4}));
  Parameter d("d", T({}, {2}));
  Tape t2;
  t2.backward(sum(t2, div(t2, t2.param(n), t2.param(d))));
  require_values(n.grad, {2}, {0.5, 0.5});
  require_values(d.grad, {}, {-(1 + 4) / Real(4)});
}

TEST_CASE("broadcast_shape rules", "[ops][elementwise]") {
  REQUIRE(broadcast_shape("add", {2, 3}, {3}) == Shape{2, 3});
  REQUIRE(broadcast_shape("add", {2, 1, 4}, {3, 1}) == Shape{2, 3, 4});
  REQUIRE(broadcast_shape("add", {}, {5}) == Shape{5});
  REQUIRE(broadcast_shape("add", {1}, {}) == Shape{1});
  REQUIRE(broadcast_shape("add", {0, 3}, {1, 3}) == Shape{0, 3});
}

TEST_CASE("elementwise shape errors name the op and both shapes", "[ops][elementwise][errors]") {
  Tape t;
  Var a = t.input(Tensor::zeros({2, 3}));
  Var b = t.input(Tensor::zeros({4}));
  REQUIRE_THROWS_WITH(add(t, a, b), Contains("add") && Contains("(2, 3)") && Contains("(4)"));
  REQUIRE_THROWS_WITH(sub(t, b, a), Contains("sub") && Contains("(4)") && Contains("(2, 3)"));
  REQUIRE_THROWS_WITH(mul(t, a, t.input(Tensor::zeros({3, 3}))),
                      Contains("mul") && Contains("(2, 3)") && Contains("(3, 3)"));
  REQUIRE_THROWS_WITH(div(t, a, t.input(Tensor::zeros({2, 2}))),
                      Contains("div") && Contains("(2, 3)") && Contains("(2, 2)"));
  REQUIRE_THROWS_AS(add(t, a, b), Error);
}

// ---- reductions ----------------------------------------------------------------------------

TEST_CASE("sum, mean, sum_last, mean_last values", "[ops][reduce]") {
  Tape t;
  Var m = t.input(T({2, 3}, {1, 2, 3, 4, 5, 6}));
  require_values(t.value(sum(t, m)), Shape{}, {21});
  require_values(t.value(mean(t, m)), Shape{}, {3.5});
  require_values(t.value(sum_last(t, m)), {2}, {6, 15});
  require_values(t.value(mean_last(t, m)), {2}, {2, 5});
  Var v = t.input(T({4}, {1, 2, 3, 5}));
  require_values(t.value(sum_last(t, v)), Shape{}, {11});
  require_values(t.value(mean_last(t, v)), Shape{}, {2.75});
  Var x = t.input(T({2, 1, 2}, {1, 2, 3, 4}));
  require_values(t.value(mean_last(t, x)), {2, 1}, {1.5, 3.5});
  // A large sum (several chunks) of exactly representable values.
  Tensor big = Tensor::full({10000}, 0.5);
  REQUIRE(t.value(sum(t, t.input(big))).item() == 5000);
  REQUIRE(t.value(mean(t, t.input(big))).item() == 0.5);
}

TEST_CASE("reduction gradients", "[ops][reduce]") {
  Parameter p("p", T({2, 2}, {1, 2, 3, 4}));
  Tape t;
  Var s = sum_last(t, t.param(p));                  // (2)
  Var w = t.input(T({2}, {1, 10}));
  t.backward(add(t, mean(t, t.param(p)), sum(t, mul(t, s, w))));
  require_values(p.grad, {2, 2}, {1.25, 1.25, 10.25, 10.25});
  Parameter q("q", T({3}, {1, 2, 3}));
  Tape t2;
  t2.backward(mean_last(t2, t2.param(q)));
  require_close(q.grad, {1.0 / 3, 1.0 / 3, 1.0 / 3});
}

TEST_CASE("reduction errors name the op and the shape", "[ops][reduce][errors]") {
  Tape t;
  REQUIRE_THROWS_WITH(sum_last(t, t.input(Tensor::scalar(1))), Contains("sum_last") && Contains("()"));
  REQUIRE_THROWS_WITH(mean(t, t.input(Tensor::zeros({0, 3}))), Contains("mean") && Contains("(0, 3)"));
}

// ---- unary ---------------------------------------------------------------------------------

TEST_CASE("exp, log, log1p, sigmoid, tanh, relu, gelu values", "[ops][unary]") {
  Tape t;
  Var x = t.input(T({5}, {-2, -1, 0, 1, 2}));
  require_close(t.value(ordo::exp(t, x)), {0.1353352832, 0.3678794412, 1, 2.7182818285, 7.3890560989}, 1e-6);
  require_close(t.value(ordo::log(t, t.input(T({3}, {1, 2, 0.5})))), {0, 0.6931471806, -0.6931471806});
  // log1p keeps the digits that 1 + x would round away in float32.
  require_close(t.value(ordo::sigmoid(t, t.input(T({4}, {0, 2, -2, -100})))), {0.5, 0.8807970780, 0.1192029220, 0});
  CHECK(std::isfinite(t.value(ordo::sigmoid(t, t.input(T({2}, {-1000, 1000}))))[0]));  // no overflow either side
  const Tensor l1p = t.value(ordo::log1p(t, t.input(T({3}, {0, 1, 1e-7}))));
  require_close(l1p, {0, 0.6931471806, 1e-7});
  CHECK(l1p[2] == Approx(9.999999500e-8).epsilon(1e-6));  // relative: log(1 + 1e-7) in float32 is 1.19e-7
  require_close(t.value(ordo::tanh(t, t.input(T({3}, {0, 0.5, -1})))), {0, 0.4621171573, -0.7615941560});
  require_values(t.value(relu(t, x)), {5}, {0, 0, 0, 1, 2});
  // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
  require_close(t.value(gelu(t, x)),
                {-0.0454023059, -0.1588080094, 0, 0.8411919906, 1.9545976941});
  require_close(t.value(gelu(t, t.input(T({2}, {0.5, 3})))), {0.3457140098, 2.9963626079});
}

TEST_CASE("fast_exp: within 2.5e-7 of exp, exact 0 at -inf, inf on overflow, NaN kept", "[ops][unary][fastmath]") {
  double worst = 0;
  for (int i = 0; i <= 200000; ++i) {
    const float x = -87.0f + 175.0f * static_cast<float>(i) / 200000.0f;  // [-87, 88]
    const double ref = std::exp(static_cast<double>(x));
    worst = std::max(worst, std::fabs(fast_exp(x) - ref) / ref);
  }
  INFO("max relative error: fast_exp " << worst);
  REQUIRE(worst <= 2.5e-7);
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  REQUIRE(fast_exp(-inf) == 0.0f);
  REQUIRE(fast_exp(-100.0f) == 0.0f);
  REQUIRE(fast_exp(100.0f) == inf);
  REQUIRE(std::isnan(fast_exp(nan)));
}

TEST_CASE("exp2_clamped and fast_exp2_nonpositive: within 1e-7 of exp2, exact 0 at -inf, NaN kept",
          "[ops][unary][fastmath]") {
  double worst = 0, worst_np = 0;
  for (int i = 0; i <= 500000; ++i) {
    const float x = -125.0f + 250.0f * static_cast<float>(i) / 500000.0f;  // [-125, 125]
    const double ref = std::exp2(static_cast<double>(x));
    worst = std::max(worst, std::fabs(exp2_clamped(x) - ref) / ref);
    if (x <= 0) worst_np = std::max(worst_np, std::fabs(fast_exp2_nonpositive(x) - ref) / ref);
  }
  // Integers and halves: the rounding of x to n and the edges of f's range.
  for (float x : {-125.0f, -124.5f, -1.5f, -1.0f, -0.5f, 0.0f, 0.5f, 1.0f, 1.5f, 124.5f, 125.0f}) {
    const double ref = std::exp2(static_cast<double>(x));
    worst = std::max(worst, std::fabs(exp2_clamped(x) - ref) / ref);
  }
  INFO("max relative error: exp2_clamped " << worst << ", fast_exp2_nonpositive " << worst_np);
  REQUIRE(worst <= 1e-7);
  REQUIRE(worst_np <= 1e-7);
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  REQUIRE(fast_exp2_nonpositive(-inf) == 0.0f);
  REQUIRE(fast_exp2_nonpositive(-126.0f) == 0.0f);
  REQUIRE(fast_exp2_nonpositive(0.0f) == 1.0f);
  REQUIRE(std::isnan(fast_exp2_nonpositive(nan)));
  REQUIRE(std::isnan(exp2_clamped(nan)));
}

TEST_CASE("fast_log2: within 1.2e-7 of log2 from 2^-100 to 2^100, exact at powers of 2, NaN kept",
          "[ops][unary][fastmath]") {
  double worst = 0;
  for (int i = 0; i <= 400000; ++i) {
    const float x = std::exp2(-100.0f + 200.0f * static_cast<float>(i) / 400000.0f);
    worst = std::max(worst, std::fabs(fast_log2(x) - std::log2(static_cast<double>(x))));
  }
  INFO("max absolute error " << worst);
  REQUIRE(worst <= 1.2e-7);
  for (int e = -100; e <= 100; ++e) REQUIRE(fast_log2(std::exp2(static_cast<float>(e))) == static_cast<float>(e));
  REQUIRE(std::isnan(fast_log2(std::numeric_limits<float>::quiet_NaN())));
}

TEST_CASE("fast_log1p_nonnegative: within 4 ulp of log1p from 2^-126 to 2^20, x itself below 2^-24",
          "[ops][unary][fastmath]") {
  double worst = 0;
  for (int i = 0; i <= 400000; ++i) {
    const float x = std::exp2(-126.0f + 146.0f * static_cast<float>(i) / 400000.0f);
    const double ref = std::log1p(static_cast<double>(x));
    worst = std::max(worst, std::fabs(fast_log1p_nonnegative(x) - ref) / ref);
  }
  INFO("max relative error " << worst);
  REQUIRE(worst <= 4 * 5.96e-8);
  REQUIRE(fast_log1p_nonnegative(0.0f) == 0.0f);
  REQUIRE(fast_log1p_nonnegative(1e-9f) == 1e-9f);
  REQUIRE(std::isnan(fast_log1p_nonnegative(std::numeric_limits<float>::quiet_NaN())));
}

TEST_CASE("sigmoid and log_sigmoid in float32: within a few ulp of float64 libm, no overflow", "[ops][unary]") {
  // The ops use core/fastmath.h's exp and log1p; their float64 build (the gradient checks) libm's.
  std::vector<Real> xs;
  for (int i = -4000; i <= 4000; ++i) xs.push_back(static_cast<Real>(i) / 40);  // [-100, 100]
  for (Real x : {Real(-1e30), Real(-200), Real(200), Real(1e30)}) xs.push_back(x);
  Tensor x = Tensor::empty(Shape{static_cast<int64_t>(xs.size())});
  std::copy(xs.begin(), xs.end(), x.data());
  Parameter p("x", x.clone());
  p.grad = Tensor::zeros(x.shape());
  Tape t;
  const Var xv = t.param(p);
  const Var s = ordo::sigmoid(t, xv), ls = log_sigmoid(t, xv);
  t.backward(sum(t, ls));  // d/dx log sigmoid(x) = sigmoid(-x)
  double worst_s = 0, worst_ls = 0, worst_grad = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double xd = xs[i], sig = 1 / (1 + std::exp(-xd)), rest = 1 / (1 + std::exp(xd));
    const double log_sig = std::min(xd, 0.0) - std::log1p(std::exp(-std::fabs(xd)));
    INFO("x " << xd);
    REQUIRE(std::isfinite(double(t.value(s)[int64_t(i)])));
    REQUIRE(std::isfinite(double(t.value(ls)[int64_t(i)])));
    if (sig > 1e-30) worst_s = std::max(worst_s, std::fabs(t.value(s)[int64_t(i)] - sig) / sig);
    worst_ls = std::max(worst_ls, std::fabs(t.value(ls)[int64_t(i)] - log_sig) / std::max(std::fabs(log_sig), 1e-30));
    if (rest > 1e-30) worst_grad = std::max(worst_grad, std::fabs(p.grad[int64_t(i)] - rest) / rest);
  }
  INFO("max relative errors: sigmoid " << worst_s << " log_sigmoid " << worst_ls << " its gradient " << worst_grad);
  CHECK(worst_s <= 6 * 5.96e-8);
  CHECK(worst_ls <= 6 * 5.96e-8);
  CHECK(worst_grad <= 6 * 5.96e-8);
}

TEST_CASE("unary gradients by hand", "[ops][unary]") {
  Parameter p("p", T({4}, {-1, 0.5, 1, 2}));
  auto grad_of = [&](Var (*op)(Tape&, Var)) {
    p.zero_grad();
    Tape t;
    t.backward(sum(t, op(t, t.param(p))));
    return p.grad.clone();
  };
  require_close(grad_of(ordo::exp), {0.3678794412, 1.6487212707, 2.7182818285, 7.3890560989}, 1e-6);
  require_close(grad_of(relu), {0, 1, 1, 1});
  require_close(grad_of(ordo::tanh), {0.4199743416, 0.7864477329, 0.4199743416, 0.0706508249});
  require_close(grad_of(gelu), {-0.0829640839, 0.8673699035, 1.0829640838, 1.0860992566}, 1e-5);
  Parameter q("q", T({2}, {0.5, 4}));
  Tape t;
  t.backward(sum(t, ordo::log(t, t.param(q))));
  require_close(q.grad, {2, 0.25});
}

// ---- shape ---------------------------------------------------------------------------------

TEST_CASE("reshape, permute, transpose values", "[ops][shape]") {
  Tape t;
  Var m = t.input(T({2, 3}, {1, 2, 3, 4, 5, 6}));
  require_values(t.value(reshape(t, m, {3, 2})), {3, 2}, {1, 2, 3, 4, 5, 6});
  require_values(t.value(transpose(t, m, 0, 1)), {3, 2}, {1, 4, 2, 5, 3, 6});
  require_values(t.value(permute(t, m, {1, 0})), {3, 2}, {1, 4, 2, 5, 3, 6});
  // (2, 2, 3) with axes (2, 0, 1): out[k, i, j] = x[i, j, k]
  std::vector<Real> v(12);
  for (int i = 0; i < 12; ++i) v[i] = static_cast<Real>(i);
  Var x = t.input(T({2, 2, 3}, v));
  require_values(t.value(permute(t, x, {2, 0, 1})), {3, 2, 2}, {0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11});
  // (B, L, H, dh) -> (B, H, L, dh) with B = 1, L = 2, H = 3, dh = 2
  require_values(t.value(permute(t, reshape(t, x, {1, 2, 3, 2}), {0, 2, 1, 3})), {1, 3, 2, 2},
                 {0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11});
  require_values(t.value(transpose(t, x, -1, -2)), {2, 3, 2}, {0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11});
}

TEST_CASE("concat and slice values", "[ops][shape]") {
  Tape t;
  Var a = t.input(T({2, 2}, {1, 2, 3, 4}));
  Var b = t.input(T({2, 1}, {5, 6}));
  Var c = t.input(T({1, 2}, {7, 8}));
  require_values(t.value(concat(t, {a, b}, 1)), {2, 3}, {1, 2, 5, 3, 4, 6});
  require_values(t.value(concat(t, {a, c}, 0)), {3, 2}, {1, 2, 3, 4, 7, 8});
  require_values(t.value(concat(t, {b, a, b}, -1)), {2, 4}, {5, 1, 2, 5, 6, 3, 4, 6});
  Var m = t.input(T({2, 3}, {1, 2, 3, 4, 5, 6}));
  require_values(t.value(slice(t, m, 1, 1, 3)), {2, 2}, {2, 3, 5, 6});
  require_values(t.value(slice(t, m, 0, 1, 2)), {1, 3}, {4, 5, 6});
  require_values(t.value(slice(t, m, -1, 0, 0)), {2, 0}, {});
}

TEST_CASE("shape op gradients by hand", "[ops][shape]") {
  Parameter p("p", T({2, 3}, {1, 2, 3, 4, 5, 6}));
  Tape t;
  Var x = t.param(p);
  Var w = t.input(T({3, 2}, {1, 2, 3, 4, 5, 6}));
  // sum(transpose(x) * w) + sum(slice(x, 1, 0, 1)) * 10 via concat
  Var y = sum(t, mul(t, transpose(t, x, 0, 1), w));
  Var z = sum(t, concat(t, {slice(t, x, 1, 0, 1), t.input(Tensor::zeros({2, 1}))}, 1));
  t.backward(add(t, y, scale(t, z, 10)));
  // transpose(w) = [[1, 3, 5], [2, 4, 6]], plus 10 on column 0
  require_values(p.grad, {2, 3}, {11, 3, 5, 12, 4, 6});
}

TEST_CASE("shape op errors name the op and the shapes", "[ops][shape][errors]") {
  Tape t;
  Var m = t.input(Tensor::zeros({2, 3}));
  REQUIRE_THROWS_WITH(reshape(t, m, {4, 2}), Contains("reshape") && Contains("(2, 3)") && Contains("(4, 2)"));
  REQUIRE_THROWS_WITH(permute(t, m, {0, 0}), Contains("permute") && Contains("(2, 3)"));
  REQUIRE_THROWS_WITH(permute(t, m, {0}), Contains("permute") && Contains("(2, 3)"));
  REQUIRE_THROWS_WITH(transpose(t, m, 0, 2), Contains("transpose") && Contains("(2, 3)"));
  REQUIRE_THROWS_WITH(concat(t, {m, t.input(Tensor::zeros({3, 3}))}, 1),
                      Contains("concat") && Contains("(2, 3)") && Contains("(3, 3)"));
  REQUIRE_THROWS_WITH(concat(t, {m, t.input(Tensor::zeros({2}))}, 0),
                      Contains("concat") && Contains("(2, 3)") && Contains("(2)"));
  REQUIRE_THROWS_WITH(concat(t, {}, 0), Contains("concat"));
  REQUIRE_THROWS_WITH(slice(t, m, 1, 2, 4), Contains("slice") && Contains("(2, 3)"));
  REQUIRE_THROWS_WITH(slice(t, m, 1, 2, 1), Contains("slice") && Contains("(2, 3)"));
  REQUIRE_THROWS_WITH(slice(t, m, 2, 0, 1), Contains("slice") && Contains("(2, 3)"));
}

TEST_CASE("matmul shape errors name the op and both shapes", "[ops][matmul][errors]") {
  Tape t;
  Var a = t.input(Tensor::zeros({2, 3}));
  REQUIRE_THROWS_WITH(matmul(t, a, t.input(Tensor::zeros({4, 5}))),
                      Contains("matmul") && Contains("(2, 3)") && Contains("(4, 5)"));
  require_values(t.value(matmul(t, t.input(T({1, 2}, {1, 2})), t.input(T({2, 1}, {3, 4})))), {1, 1}, {11});
}

TEST_CASE("gather_last picks x[r, idx[r, k]] and scatter-adds its gradient", "[ops][gather]") {
  Tape t;
  Parameter x("x", T({2, 3}, {10, 11, 12, 20, 21, 22}));
  TensorI32 idx = TensorI32::from({2, 4}, {2, 0, 2, 1, 1, 1, 0, 2});
  Var y = gather_last(t, t.param(x), idx);
  require_close(t.value(y), {12, 10, 12, 11, 21, 21, 20, 22});
  t.backward(sum(t, y));
  require_close(x.grad, {1, 1, 2, 1, 2, 1});
  CHECK_THROWS_WITH(gather_last(t, t.param(x), TensorI32::from({2, 1}, {0, 3})), Contains("index 3") && Contains("[0, 3)"));
}

TEST_CASE("softplus in float32: the bits of -log_sigmoid(-x), values and gradients (PoPE's magnitudes)", "[ops][unary]") {
  // PoPE computed its magnitudes as -log_sigmoid(-x) before softplus existed: the same bits
  // keep its runs as they were.
  std::vector<Real> xs;
  for (int i = -4000; i <= 4000; ++i) xs.push_back(static_cast<Real>(i) / 40);
  for (Real x : {Real(-1e30), Real(-200), Real(200), Real(1e30)}) xs.push_back(x);
  Tensor x = Tensor::empty(Shape{static_cast<int64_t>(xs.size())});
  std::copy(xs.begin(), xs.end(), x.data());
  Parameter a("a", x.clone()), b("b", x.clone());
  a.grad = Tensor::zeros(x.shape());
  b.grad = Tensor::zeros(x.shape());
  Tape t;
  const Var sp = softplus(t, t.param(a));
  const Var old = scale(t, log_sigmoid(t, scale(t, t.param(b), -1)), -1);
  const Tensor w = test::uniform_tensor(x.shape(), 53, 7);  // weights, so every gradient differs
  t.backward(add(t, sum(t, mul(t, sp, t.input(w))), sum(t, mul(t, old, t.input(w)))));
  for (int64_t i = 0; i < x.numel(); ++i) {
    INFO("x " << xs[static_cast<size_t>(i)]);
    REQUIRE(t.value(sp)[i] == t.value(old)[i]);
    REQUIRE(a.grad[i] == b.grad[i]);
  }
}
