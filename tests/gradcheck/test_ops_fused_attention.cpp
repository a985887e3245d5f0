// tests/gradcheck/test_ops_fused_attention.cpp: gradients of fused_attention w.r.t. q, k, v
// and the bias (relative and full), with key padding (incl. a length-1 sequence), causal on
// and off, L below, at and above the tile size (64), H = 1 and 3.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "tests/gradcheck/test_ops_helpers.h"

using namespace ordo;
using namespace ordo::test;

namespace {

enum class BiasKind { none, relative, full };

void check_fused(int64_t B, int64_t H, int64_t L, int64_t d, BiasKind kind, bool causal,
                 const std::vector<int32_t>& lengths, uint64_t stream) {
  INFO("B " << B << " H " << H << " L " << L << " d " << d << " bias " << int(kind) << " causal "
            << causal);
  const Shape s{B, L, H, d};
  std::vector<Tensor> inputs = {random_tensor(s, stream), random_tensor(s, stream + 1),
                                random_tensor(s, stream + 2)};
  if (kind == BiasKind::relative) inputs.push_back(random_tensor(Shape{H, 2 * L - 1}, stream + 3));
  if (kind == BiasKind::full) inputs.push_back(random_tensor(Shape{H, L, L}, stream + 3));
  const Real scale = static_cast<Real>(1.0 / std::sqrt(double(d)));
  REQUIRE_GRADS_OK(check_gradients(
      [&](Tape& t, const std::vector<Var>& v) {
        FusedAttentionBias bias;
        if (v.size() == 4) bias = {v[3], kind == BiasKind::relative};
        return fused_attention(t, v[0], v[1], v[2], bias, lengths, causal, scale);
      },
      inputs));
}

}  // namespace

TEST_CASE("fused attention gradients without a bias", "[ops][fused]") {
  for (bool causal : {false, true}) {
    check_fused(2, 3, 5, 4, BiasKind::none, causal, {5, 1}, 1);
    check_fused(1, 1, 1, 3, BiasKind::none, causal, {1}, 5);
    check_fused(2, 1, 70, 3, BiasKind::none, causal, {70, 40}, 9);
  }
}

TEST_CASE("fused attention gradients with a relative bias", "[ops][fused]") {
  for (bool causal : {false, true}) {
    check_fused(3, 3, 5, 4, BiasKind::relative, causal, {5, 3, 1}, 21);
    check_fused(2, 1, 70, 2, BiasKind::relative, causal, {70, 1}, 25);
    check_fused(1, 3, 64, 2, BiasKind::relative, causal, {64}, 29);
  }
}

TEST_CASE("fused attention gradients with a full bias", "[ops][fused]") {
  for (bool causal : {false, true}) check_fused(2, 3, 5, 4, BiasKind::full, causal, {4, 1}, 41);
  // Two tiles per axis (the bias has L^2 entries to perturb, so one causal case).
  check_fused(2, 1, 66, 2, BiasKind::full, true, {66, 30}, 45);
}
