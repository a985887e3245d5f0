// tests/gradcheck/test_ops_reduce_unary.cpp: gradients of sum, mean, sum_last, mean_last,
// running_sum, suffix_sum_last and of exp, log, log1p, tanh, sigmoid, log_sigmoid, softplus, relu,
// gelu.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "tests/gradcheck/test_ops_helpers.h"

using namespace ordo;
using namespace ordo::test;

namespace {

using UnaryOp = Var (*)(Tape&, Var);

const std::vector<Shape>& shapes() {
  static const std::vector<Shape> s = {Shape{}, Shape{1}, Shape{6}, Shape{1, 1}, Shape{3, 1},
                                       Shape{1, 4}, Shape{3, 4}, Shape{2, 3, 4}, Shape{2, 1, 3, 2}};
  return s;
}

void check_unary(const char* name, UnaryOp op, double lo, double hi) {
  uint64_t stream = 200;
  for (const Shape& s : shapes()) {
    INFO(name << " " << s);
    REQUIRE_GRADS_OK(check_gradients([op](Tape& t, const std::vector<Var>& v) { return op(t, v[0]); },
                                     {random_tensor(s, ++stream, lo, hi)}));
  }
}

}  // namespace

TEST_CASE("sum and mean gradients", "[ops][reduce]") {
  check_unary("sum", sum, -1, 1);
  check_unary("mean", mean, -1, 1);
}

TEST_CASE("sum_last and mean_last gradients", "[ops][reduce]") {
  uint64_t stream = 300;
  for (const Shape& s : shapes()) {
    if (s.rank() == 0) continue;  // needs an axis
    INFO(s);
    REQUIRE_GRADS_OK(check_gradients(
        [](Tape& t, const std::vector<Var>& v) { return sum_last(t, v[0]); }, {random_tensor(s, ++stream)}));
    REQUIRE_GRADS_OK(check_gradients(
        [](Tape& t, const std::vector<Var>& v) { return mean_last(t, v[0]); }, {random_tensor(s, ++stream)}));
  }
}

TEST_CASE("running_sum gradients and values", "[ops][reduce]") {
  // Runs of 3, 0, 1 and 4 rows of (8, 2, 3): the values are the sums within each run.
  const std::vector<int64_t> runs{3, 0, 1, 4};
  const Tensor x = random_tensor(Shape{8, 2, 3}, 31);
  REQUIRE_GRADS_OK(check_gradients([&](Tape& t, const std::vector<Var>& v) { return running_sum(t, v[0], runs); }, {x}));
  Tape t;
  const Tensor y = t.value(running_sum(t, t.input(x), runs)).clone();
  int64_t row = 0;
  for (int64_t len : runs)
    for (int64_t r = 0; r < len; ++r, ++row)
      for (int64_t j = 0; j < 6; ++j) {
        double want = 0;
        for (int64_t r2 = row - r; r2 <= row; ++r2) want += x[r2 * 6 + j];
        REQUIRE(std::abs(y[row * 6 + j] - want) < 1e-12);
      }
  REQUIRE_THROWS_WITH(running_sum(t, t.input(x), {3, 4}), Catch::Matchers::Contains("cover 7 rows"));
}

TEST_CASE("suffix_sum_last gradients and values", "[ops][reduce]") {
  uint64_t stream = 700;
  for (const Shape& s : shapes()) {
    if (s.rank() == 0) continue;  // needs an axis
    INFO(s);
    REQUIRE_GRADS_OK(check_gradients(
        [](Tape& t, const std::vector<Var>& v) { return suffix_sum_last(t, v[0]); }, {random_tensor(s, ++stream)}));
  }
  // The values: out[r, j] = sum_{t >= j} x[r, t]; the first column is the row's sum.
  const Tensor x = random_tensor(Shape{3, 2, 5}, 41);
  Tape t;
  const Tensor y = t.value(suffix_sum_last(t, t.input(x))).clone();
  const Tensor total = t.value(sum_last(t, t.input(x))).clone();
  for (int64_t r = 0; r < 6; ++r) {
    for (int64_t j = 0; j < 5; ++j) {
      double want = 0;
      for (int64_t k = j; k < 5; ++k) want += x[r * 5 + k];
      REQUIRE(std::abs(y[r * 5 + j] - want) < 1e-12);
    }
    REQUIRE(std::abs(y[r * 5] - total[r]) < 1e-12);
  }
}

TEST_CASE("log_sigmoid is ln sigmoid without overflow", "[ops][unary]") {
  Tape t;
  const Tensor x = Tensor::from(Shape{5}, {-800, -3, 0, 3, 800});
  const Tensor y = t.value(log_sigmoid(t, t.input(x))).clone();
  REQUIRE(y[0] == -800);  // ln(1 / (1 + e^800)) = -800 to double precision
  for (int i = 1; i < 4; ++i) REQUIRE(std::abs(y[i] - std::log(1 / (1 + std::exp(-x[i])))) < 1e-15);
  REQUIRE(y[4] == 0);
}

TEST_CASE("softplus is ln(1 + e^x) without overflow, and -log_sigmoid(-x) to the bit", "[ops][unary]") {
  Tape t;
  const Tensor x = Tensor::from(Shape{7}, {-800, -3, -1e-3, 0, 1e-3, 3, 800});
  const Var xv = t.input(x);
  const Tensor y = t.value(softplus(t, xv)).clone();
  const Tensor minus = t.value(scale(t, log_sigmoid(t, scale(t, xv, -1)), -1)).clone();
  REQUIRE(y[0] == std::log1p(std::exp(-800.0)));  // e^-800 underflows to 0 in double: ln 1 = 0
  for (int i = 1; i < 6; ++i) REQUIRE(std::abs(y[i] - std::log1p(std::exp(x[i]))) < 1e-15);
  REQUIRE(y[6] == 800);
  for (int i = 0; i < 7; ++i) REQUIRE(y[i] == minus[i]);
}

TEST_CASE("reductions of a large tensor take the chunked path and keep their gradients", "[ops][reduce]") {
  // 3 chunks of the full sum; the gradient of a sum is all ones, of a mean 1/n.
  Tensor x = random_tensor(Shape{9000}, 5);
  Parameter p("x", x);
  Tape t;
  Var m = mean(t, t.param(p));
  double want = 0;
  for (int64_t i = 0; i < x.numel(); ++i) want += x[i];
  REQUIRE(std::abs(t.value(m).item() - want / 9000) < 1e-12);
  t.backward(m);
  for (int64_t i = 0; i < x.numel(); ++i) REQUIRE(p.grad[i] == Real(1) / 9000);
}

TEST_CASE("unary op gradients", "[ops][unary]") {
  check_unary("exp", ordo::exp, -2, 2);
  check_unary("log", ordo::log, 0.2, 3);
  check_unary("log1p", ordo::log1p, -0.8, 3);
  check_unary("tanh", ordo::tanh, -2, 2);
  check_unary("sigmoid", ordo::sigmoid, -6, 6);
  check_unary("log_sigmoid", ordo::log_sigmoid, -8, 8);
  check_unary("softplus", ordo::softplus, -8, 8);
  check_unary("gelu", gelu, -3, 3);
  // relu: keep values away from the kink at 0 where finite differences are meaningless.
  uint64_t stream = 400;
  for (const Shape& s : shapes()) {
    Tensor x = away_from_zero(s, ++stream);
    INFO("relu " << s);
    REQUIRE_GRADS_OK(check_gradients([](Tape& t, const std::vector<Var>& v) { return relu(t, v[0]); }, {x}));
  }
}

TEST_CASE("unary ops composed, each output reused", "[ops][unary]") {
  // y = tanh(x) * exp(tanh(x)) + gelu(x) / (1 + relu(x)): shared subexpressions accumulate.
  REQUIRE_GRADS_OK(check_gradients(
      [](Tape& t, const std::vector<Var>& v) {
        Var th = ordo::tanh(t, v[0]);
        Var one = t.input(Tensor::scalar(1));
        Var left = mul(t, th, ordo::exp(t, th));
        Var right = div(t, gelu(t, v[0]), add(t, one, relu(t, v[0])));
        return add(t, left, ordo::log(t, add(t, one, mul(t, right, right))));
      },
      {away_from_zero(Shape{3, 5}, 9)}));
}
