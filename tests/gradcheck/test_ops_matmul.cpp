// tests/gradcheck/test_ops_matmul.cpp: matmul gradients, 2-D, batched and with a shared 2-D b,
// for every combination of trans_a and trans_b.
#include <catch2/catch.hpp>

#include <vector>

#include "tests/gradcheck/test_ops_helpers.h"

using namespace ordo;
using namespace ordo::test;

namespace {

// a's shape for op(a) of (..., M, K) and b's for op(b) of (..., K, N).
Shape operand(std::vector<int64_t> batch, int64_t rows, int64_t cols, bool trans) {
  batch.push_back(trans ? cols : rows);
  batch.push_back(trans ? rows : cols);
  return Shape(batch);
}

void check_matmul(const std::vector<int64_t>& batch_a, const std::vector<int64_t>& batch_b,
                  int64_t M, int64_t K, int64_t N, uint64_t stream) {
  for (int ta = 0; ta < 2; ++ta)
    for (int tb = 0; tb < 2; ++tb) {
      if (ta && !batch_a.empty() && batch_b.empty()) continue;  // unsupported: checked below
      const Shape sa = operand(batch_a, M, K, ta), sb = operand(batch_b, K, N, tb);
      INFO(sa << (ta ? "^T" : "") << " x " << sb << (tb ? "^T" : ""));
      REQUIRE_GRADS_OK(check_gradients(
          [ta, tb](Tape& t, const std::vector<Var>& v) { return matmul(t, v[0], v[1], ta, tb); },
          {random_tensor(sa, stream), random_tensor(sb, stream + 1)}));
    }
}

}  // namespace

TEST_CASE("matmul gradients, 2-D", "[ops][matmul]") {
  check_matmul({}, {}, 3, 4, 5, 1);
  check_matmul({}, {}, 1, 1, 1, 3);
  check_matmul({}, {}, 1, 4, 1, 5);
  check_matmul({}, {}, 4, 1, 3, 7);
}

TEST_CASE("matmul gradients, batched", "[ops][matmul]") {
  check_matmul({2}, {2}, 3, 4, 2, 11);
  check_matmul({2, 3}, {2, 3}, 2, 3, 4, 13);
  check_matmul({1}, {1}, 2, 2, 3, 15);
}

TEST_CASE("matmul gradients, a 2-D b shared by the batch", "[ops][matmul]") {
  check_matmul({2}, {}, 3, 4, 5, 21);
  check_matmul({2, 3}, {}, 2, 3, 2, 23);
  check_matmul({3}, {}, 1, 2, 1, 25);
}

TEST_CASE("linear (x w + b) and linear_gelu (fused gelu(x w + b)) gradients, 2-D and batched x, "
          "size-1 dims", "[ops][matmul][linear]") {
  struct Case { std::vector<int64_t> x; int64_t N; };
  for (bool with_gelu : {false, true}) {
    uint64_t stream = with_gelu ? 131 : 31;
    for (const Case& c : {Case{{3, 4}, 5}, Case{{2, 3, 4}, 2}, Case{{1, 1}, 1}, Case{{5, 1}, 17}, Case{{2, 1, 3}, 1}}) {
      const int64_t K = c.x.back();
      INFO("x " << Shape(c.x) << " N " << c.N << " gelu " << with_gelu);
      REQUIRE_GRADS_OK(check_gradients(
          [with_gelu](Tape& t, const std::vector<Var>& v) {
            return with_gelu ? linear_gelu(t, v[0], v[1], v[2]) : linear(t, v[0], v[1], v[2]);
          },
          {random_tensor(Shape(c.x), stream), random_tensor(Shape{K, c.N}, stream + 1),
           random_tensor(Shape{c.N}, stream + 2)}));
      stream += 3;
    }
  }
}

TEST_CASE("linear_residual (r + x w + b) gradients, 2-D and batched x, size-1 dims, r = x",
          "[ops][matmul][linear]") {
  struct Case { std::vector<int64_t> x; int64_t N; };
  uint64_t stream = 231;
  for (const Case& c : {Case{{3, 4}, 5}, Case{{2, 3, 4}, 2}, Case{{1, 1}, 1}, Case{{5, 1}, 17}}) {
    const int64_t K = c.x.back();
    std::vector<int64_t> r = c.x;
    r.back() = c.N;
    INFO("x " << Shape(c.x) << " N " << c.N);
    REQUIRE_GRADS_OK(check_gradients(
        [](Tape& t, const std::vector<Var>& v) { return linear_residual(t, v[0], v[1], v[2], v[3]); },
        {random_tensor(Shape(c.x), stream), random_tensor(Shape{K, c.N}, stream + 1),
         random_tensor(Shape{c.N}, stream + 2), random_tensor(Shape(r), stream + 3)}));
    stream += 4;
  }
  // The residual is the input itself (K = N): both of its paths' gradients add up.
  REQUIRE_GRADS_OK(check_gradients(
      [](Tape& t, const std::vector<Var>& v) { return linear_residual(t, v[0], v[1], v[2], v[0]); },
      {random_tensor(Shape{3, 4}, 251), random_tensor(Shape{4, 4}, 252), random_tensor(Shape{4}, 253)}));
}

TEST_CASE("linear_rotate (rotate_pairs(x w + b)) gradients, 2-D and batched x", "[ops][matmul][linear]") {
  struct Case { std::vector<int64_t> x; int64_t N; };
  uint64_t stream = 331;
  for (const Case& c : {Case{{3, 4}, 6}, Case{{2, 5, 3}, 4}, Case{{1, 2}, 2}}) {
    const int64_t K = c.x.back(), L = c.x[c.x.size() - 2];
    INFO("x " << Shape(c.x) << " N " << c.N);
    const Tensor cos = random_tensor(Shape{L, c.N / 2}, stream + 3), sin = random_tensor(Shape{L, c.N / 2}, stream + 4);
    REQUIRE_GRADS_OK(check_gradients(
        [&](Tape& t, const std::vector<Var>& v) { return linear_rotate(t, v[0], v[1], v[2], cos, sin); },
        {random_tensor(Shape(c.x), stream), random_tensor(Shape{K, c.N}, stream + 1),
         random_tensor(Shape{c.N}, stream + 2)}));
    stream += 5;
  }
}

TEST_CASE("linear_rotate refuses tables of another shape than (L, N / 2) and an odd N, naming them",
          "[ops][matmul][linear]") {
  Tape t;
  Var x = t.input(random_tensor(Shape{2, 3, 4}, 1));
  Var w = t.input(random_tensor(Shape{4, 6}, 2));
  Var b = t.input(random_tensor(Shape{6}, 3));
  const Tensor good = random_tensor(Shape{3, 3}, 4), wrong = random_tensor(Shape{2, 3}, 5);
  REQUIRE_THROWS_WITH(linear_rotate(t, x, w, b, wrong, wrong),
                      Catch::Contains("(L, N / 2) = (3, 3)") && Catch::Contains("(2, 3)"));
  REQUIRE_THROWS_WITH(linear_rotate(t, x, t.input(random_tensor(Shape{4, 5}, 6)), t.input(random_tensor(Shape{5}, 7)),
                                    good, good),
                      Catch::Contains("even N"));
}

TEST_CASE("linear_residual refuses a residual of another shape than the output, naming both",
          "[ops][matmul][linear]") {
  Tape t;
  Var x = t.input(random_tensor(Shape{2, 4}, 1));
  Var w = t.input(random_tensor(Shape{4, 5}, 2));
  Var b = t.input(random_tensor(Shape{5}, 3));
  REQUIRE_THROWS_WITH(linear_residual(t, x, w, b, t.input(random_tensor(Shape{2, 4}, 4))),
                      Catch::Contains("residual") && Catch::Contains("(2, 5)") && Catch::Contains("(2, 4)"));
}

TEST_CASE("linear equals matmul plus a broadcast bias", "[ops][matmul][linear]") {
  Tape t;
  Var x = t.input(random_tensor(Shape{2, 3, 4}, 1));
  Var w = t.input(random_tensor(Shape{4, 18}, 2));
  Var b = t.input(random_tensor(Shape{18}, 3));
  const Tensor fused = t.value(linear(t, x, w, b));
  const Tensor composed = t.value(add(t, matmul(t, x, w), b));
  REQUIRE(max_abs_diff(fused, composed) < 1e-12);
}

TEST_CASE("linear refuses mismatched weight and bias shapes, naming them", "[ops][matmul][linear]") {
  Tape t;
  Var x = t.input(random_tensor(Shape{2, 4}, 1));
  REQUIRE_THROWS_WITH(linear(t, x, t.input(random_tensor(Shape{3, 5}, 2)), t.input(random_tensor(Shape{5}, 3))),
                      Catch::Contains("(2, 4)") && Catch::Contains("(3, 5)"));
  REQUIRE_THROWS_WITH(linear(t, x, t.input(random_tensor(Shape{4, 5}, 2)), t.input(random_tensor(Shape{4}, 3))),
                      Catch::Contains("bias") && Catch::Contains("(4)"));
}

TEST_CASE("matmul with shared b and trans_a is refused with both shapes named", "[ops][matmul]") {
  Tape t;
  Var a = t.input(random_tensor(Shape{2, 4, 3}, 1));
  Var b = t.input(random_tensor(Shape{4, 5}, 2));
  REQUIRE_THROWS_WITH(matmul(t, a, b, true, false),
                      Catch::Contains("matmul") && Catch::Contains("(2, 4, 3)") && Catch::Contains("(4, 5)"));
}
