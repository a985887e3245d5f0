// tests/gradcheck/test_ops_softmax_loss.cpp: gradient checks of softmax (with broadcast
// -inf masks and fully masked rows), log_softmax and the fused cross-entropy, in float64.
#include <limits>

#include "tests/gradcheck/test_ops_helpers.h"

using namespace ordo;
using ordo::test::random_tensor;

namespace {

constexpr Real kInf = std::numeric_limits<Real>::infinity();

// A mask of `shape` whose entries are 0 except the listed flat indices, which are -inf.
Tensor mask_with(const Shape& shape, std::initializer_list<int64_t> masked) {
  Tensor m = Tensor::zeros(shape);
  for (int64_t i : masked) m[i] = -kInf;
  return m;
}

}  // namespace

TEST_CASE("softmax gradients, no mask, several shapes", "[ops][gradcheck][softmax]") {
  const Shape shapes[] = {{1}, {1, 1}, {5}, {3, 5}, {4, 1}, {1, 6}, {2, 3, 4}, {2, 1, 3, 2}};
  uint64_t stream = 100;
  for (const Shape& s : shapes) {
    INFO("shape " << s);
    // Spread logits widely so some rows are peaked.
    Tensor x = random_tensor(s, stream++, -3, 3);
    REQUIRE_GRADS_OK(check_gradients([](Tape& t, const std::vector<Var>& v) { return softmax(t, v[0]); },
                                     {x}));
  }
}

TEST_CASE("softmax gradients with broadcast -inf masks and fully masked rows",
          "[ops][gradcheck][softmax]") {
  const Shape xs{2, 2, 3, 4};  // (B, H, Lq, Lk)
  struct Case {
    const char* name;
    Tensor mask;
  };
  const Case cases[] = {
      // key padding (B, 1, 1, Lk): batch 1 has its last two keys padded
      {"key padding (B,1,1,Lk)", mask_with({2, 1, 1, 4}, {6, 7})},
      // causal-style (Lq, Lk) with query row 2 fully masked
      {"(Lq,Lk) with a fully masked row", mask_with({3, 4}, {1, 2, 3, 8, 9, 10, 11})},
      // full shape, with one fully masked row at (b=1, h=0, q=1) = elements 40..43
      {"(B,H,Lq,Lk)", mask_with(xs, {0, 5, 17, 40, 41, 42, 43, 47})},
      // last dimension 1: the whole row (b=0, q=2) is masked
      {"(B,1,Lq,1)", mask_with({2, 1, 3, 1}, {2})},
      // 1-D (Lk)
      {"(Lk)", mask_with({4}, {0})},
      // finite additive entries (a bias) also work
      {"finite bias (Lq,Lk)", random_tensor({3, 4}, 7, -2, 2)},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Tensor x = random_tensor(xs, 200, -3, 3);
    Tensor mask = c.mask;
    REQUIRE_GRADS_OK(check_gradients(
        [mask](Tape& t, const std::vector<Var>& v) { return softmax(t, v[0], mask); }, {x}));
  }
}

TEST_CASE("softmax gradient through a chain (softmax output reused)", "[ops][gradcheck][softmax]") {
  // y = softmax(x) * softmax(x): the output feeds two consumers, gradients accumulate.
  Tensor x = random_tensor({3, 4}, 300, -2, 2);
  Tensor mask = mask_with({3, 4}, {4, 5, 6, 7});  // row 1 fully masked
  REQUIRE_GRADS_OK(check_gradients(
      [mask](Tape& t, const std::vector<Var>& v) {
        Var y = softmax(t, v[0], mask);
        return mul(t, y, y);
      },
      {x}));
}

TEST_CASE("log_softmax gradients, several shapes", "[ops][gradcheck][softmax]") {
  const Shape shapes[] = {{1}, {1, 1}, {7}, {3, 5}, {4, 1}, {2, 3, 4}, {1, 2, 1, 3}};
  uint64_t stream = 400;
  for (const Shape& s : shapes) {
    INFO("shape " << s);
    Tensor x = random_tensor(s, stream++, -4, 4);
    REQUIRE_GRADS_OK(check_gradients(
        [](Tape& t, const std::vector<Var>& v) { return log_softmax(t, v[0]); }, {x}));
  }
  // Large offsets (stability): log_softmax is shift-invariant, so the gradient is too.
  Tensor big = random_tensor({2, 5}, 450, 500, 504);
  REQUIRE_GRADS_OK(check_gradients(
      [](Tape& t, const std::vector<Var>& v) { return log_softmax(t, v[0]); }, {big}));
}

TEST_CASE("cross_entropy gradients w.r.t. the logits", "[ops][gradcheck][loss]") {
  struct Case {
    Shape shape;
    std::vector<int32_t> targets;
    std::vector<Real> score;
  };
  const Case cases[] = {
      {{1, 1}, {0}, {1}},                                     // C = 1: loss 0, gradient 0
      {{1, 4}, {2}, {1}},                                     // one row
      {{4, 3}, {0, 2, 1, 2}, {1, 1, 1, 1}},                   // every row scored
      {{5, 4}, {3, -1, 0, 99, 1}, {1, 0, 1, 0, 1}},           // unscored rows: bad targets unread
      {{3, 6}, {5, 0, 1}, {0, 1, 0}},                         // a single scored row
      {{3, 2}, {7, 7, 7}, {0, 0, 0}},                         // nothing scored: loss 0
  };
  uint64_t stream = 500;
  for (const Case& c : cases) {
    INFO("logits " << c.shape);
    const int64_t N = c.shape[0];
    TensorI32 targets = TensorI32::from({N}, c.targets);
    Tensor score = Tensor::from({N}, c.score);
    Tensor x = random_tensor(c.shape, stream++, -3, 3);
    REQUIRE_GRADS_OK(check_gradients(
        [targets, score](Tape& t, const std::vector<Var>& v) {
          return cross_entropy(t, v[0], targets, score);
        },
        {x}));
  }
}

TEST_CASE("cross_entropy composed with other ops (logits = x w)", "[ops][gradcheck][loss]") {
  TensorI32 targets = TensorI32::from({4}, {1, 0, 2, 2});
  Tensor score = Tensor::from({4}, {1, 1, 0, 1});
  Tensor x = random_tensor({4, 3}, 600), w = random_tensor({3, 3}, 601);
  REQUIRE_GRADS_OK(check_gradients(
      [targets, score](Tape& t, const std::vector<Var>& v) {
        return cross_entropy(t, matmul(t, v[0], v[1]), targets, score);
      },
      {x, w}));
}
