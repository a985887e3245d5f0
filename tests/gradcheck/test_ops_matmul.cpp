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

TEST_CASE("matmul with shared b and trans_a is refused with both shapes named", "[ops][matmul]") {
  Tape t;
  Var a = t.input(random_tensor(Shape{2, 4, 3}, 1));
  Var b = t.input(random_tensor(Shape{4, 5}, 2));
  REQUIRE_THROWS_WITH(matmul(t, a, b, true, false),
                      Catch::Contains("matmul") && Catch::Contains("(2, 4, 3)") && Catch::Contains("(4, 5)"));
}
