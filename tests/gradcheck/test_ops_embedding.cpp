// tests/gradcheck/test_ops_embedding.cpp: gradient checks of the embedding lookup w.r.t.
// the table, with repeated ids, and of gather_last, in float64.
#include "tests/gradcheck/test_ops_helpers.h"

using namespace ordo;
using ordo::test::random_tensor;

TEST_CASE("embedding gradients w.r.t. the table, repeated and unused ids", "[ops][gradcheck][embedding]") {
  struct Case {
    Shape table;
    Shape ids_shape;
    std::vector<int32_t> ids;
  };
  const Case cases[] = {
      {{1, 1}, {3}, {0, 0, 0}},                              // V = 1, d = 1, all repeats
      {{5, 3}, {1}, {4}},                                    // one id
      {{5, 3}, {2, 4}, {1, 3, 1, 0, 3, 3, 4, 1}},            // repeats; id 2 unused
      {{4, 2}, {3, 2, 2}, {0, 1, 2, 3, 3, 2, 1, 0, 0, 0, 2, 2}},
      {{6, 1}, {2, 1}, {5, 5}},
  };
  uint64_t stream = 900;
  for (const Case& c : cases) {
    INFO("table " << c.table << " ids " << c.ids_shape);
    TensorI32 ids = TensorI32::from(c.ids_shape, c.ids);
    Tensor table = random_tensor(c.table, stream++);
    REQUIRE_GRADS_OK(check_gradients(
        [ids](Tape& t, const std::vector<Var>& v) { return embedding(t, v[0], ids); }, {table}));
  }
}

TEST_CASE("embedding gradient composed with another op", "[ops][gradcheck][embedding]") {
  TensorI32 ids = TensorI32::from({2, 3}, {2, 0, 2, 1, 2, 2});
  Tensor table = random_tensor({3, 4}, 950), w = random_tensor({4, 2}, 951);
  REQUIRE_GRADS_OK(check_gradients(
      [ids](Tape& t, const std::vector<Var>& v) { return matmul(t, embedding(t, v[0], ids), v[1]); },
      {table, w}));
}

TEST_CASE("gather_last gradients: repeated, unused and out-of-order indices per row", "[ops][gradcheck][gather]") {
  // x (2, 3, 4), idx (2, 3, 5): every row repeats an index and leaves another unused.
  TensorI32 idx = TensorI32::from({2, 3, 5}, {0, 3, 3, 1, 0,  2, 2, 2, 2, 2,  3, 0, 1, 0, 3,
                                              1, 1, 0, 3, 2,  0, 0, 0, 0, 1,  2, 3, 2, 3, 2});
  Tensor x = random_tensor({2, 3, 4}, 960), w = random_tensor({2, 3, 5}, 961);
  REQUIRE_GRADS_OK(check_gradients(
      [idx](Tape& t, const std::vector<Var>& v) { return mul(t, gather_last(t, v[0], idx), v[1]); }, {x, w}));
}
