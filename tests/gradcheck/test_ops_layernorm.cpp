// tests/gradcheck/test_ops_layernorm.cpp: gradient checks of the fused layernorm w.r.t.
// x, gamma and beta, in float64.
#include "tests/gradcheck/test_ops_helpers.h"

using namespace ordo;
using ordo::test::random_tensor;

TEST_CASE("layernorm gradients w.r.t. x, gamma and beta", "[ops][gradcheck][layernorm]") {
  // Includes d = 1 (xhat = 0, gradient w.r.t. x is 0), a single row, size-1 leading dims,
  // and more rows than one reduction chunk (32) so dgamma/dbeta add several partials.
  const Shape shapes[] = {{1}, {1, 1}, {4, 1}, {1, 5}, {3, 5}, {2, 1, 4}, {2, 3, 4}, {70, 3}};
  uint64_t stream = 700;
  for (const Shape& s : shapes) {
    INFO("x " << s);
    const int64_t d = s[-1];
    Tensor x = random_tensor(s, stream++, -2, 3);  // non-zero mean
    Tensor gamma = random_tensor({d}, stream++, 0.5, 1.5);
    Tensor beta = random_tensor({d}, stream++, -1, 1);
    REQUIRE_GRADS_OK(check_gradients(
        [](Tape& t, const std::vector<Var>& v) { return layernorm(t, v[0], v[1], v[2]); },
        {x, gamma, beta}));
  }
}

TEST_CASE("layernorm gradients with a large eps and a reused output", "[ops][gradcheck][layernorm]") {
  Tensor x = random_tensor({3, 4}, 800, -0.1, 0.1);  // variance comparable to eps
  Tensor gamma = random_tensor({4}, 801, -1, 1);
  Tensor beta = random_tensor({4}, 802);
  REQUIRE_GRADS_OK(check_gradients(
      [](Tape& t, const std::vector<Var>& v) {
        Var y = layernorm(t, v[0], v[1], v[2], Real(1e-2));
        return mul(t, y, v[0]);  // x is used twice: its gradients accumulate
      },
      {x, gamma, beta}));
}
