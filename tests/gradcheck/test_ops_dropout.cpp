// tests/gradcheck/test_ops_dropout.cpp: gradient checks of dropout w.r.t. its input (the
// mask is fixed by the seed), in float64.
#include "tests/gradcheck/test_ops_helpers.h"

using namespace ordo;
using ordo::test::random_tensor;

TEST_CASE("dropout gradients w.r.t. the input, fixed seed", "[ops][gradcheck][dropout]") {
  struct Case {
    Shape shape;
    Real p;
  };
  const Case cases[] = {{{1}, Real(0.5)}, {{3, 7}, Real(0.3)}, {{2, 3, 5}, Real(0.5)},
                        {{1, 1, 9}, Real(0.9)}, {{4, 4}, Real(0)}};
  uint64_t stream = 1000;
  for (const Case& c : cases) {
    INFO("shape " << c.shape << " p " << c.p);
    Tensor x = random_tensor(c.shape, stream++);
    const Real p = c.p;
    REQUIRE_GRADS_OK(check_gradients(
        [p](Tape& t, const std::vector<Var>& v) {
          // mul keeps the p = 0 case (dropout returns its input) a non-leaf output.
          return mul(t, dropout(t, v[0], p, 1234, 5), v[0]);
        },
        {x}));
  }
}
