// tests/gradcheck/test_ops_path.cpp: gradients of PaTH attention (core/ops/path_attention.cpp)
// w.r.t. q, k, v, the reflection vectors w and their strengths beta against finite
// differences in float64, padded with key padding and a window, and packed.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "tests/gradcheck/test_ops_helpers.h"

using namespace ordo;
using namespace ordo::test;

namespace {

// Unit vectors per (row, head) and strengths in (0, 2), as the encoding gives them: the
// check then varies them freely (the kernel takes any w and beta).
Tensor unit_rows(const Shape& s, uint64_t stream) {
  Tensor w = random_tensor(s, stream);
  const int64_t d = s.last();
  for (int64_t r = 0; r < w.numel() / d; ++r) {
    double n = 0;
    for (int64_t c = 0; c < d; ++c) n += double(w[r * d + c]) * double(w[r * d + c]);
    for (int64_t c = 0; c < d; ++c) w[r * d + c] = static_cast<Real>(double(w[r * d + c]) / std::sqrt(n));
  }
  return w;
}

}  // namespace

TEST_CASE("PaTH attention gradients", "[ops][path]") {
  const int64_t B = 2, L = 7, H = 2, d = 3;
  const std::vector<int32_t> lengths{7, 4};
  const Real scale = static_cast<Real>(1 / std::sqrt(double(d)));
  const Shape s{B, L, H, d};
  for (int64_t window : {0, 3}) {
    INFO("window " << window);
    REQUIRE_GRADS_OK(check_gradients(
        [&](Tape& t, const std::vector<Var>& v) {
          return path_attention(t, v[0], v[1], v[2], v[3], v[4], lengths, AttentionMask(true, window), scale);
        },
        {random_tensor(s, 11), random_tensor(s, 12), random_tensor(s, 13), unit_rows(s, 14),
         random_tensor(Shape{B, L, H}, 15, 0.2, 1.8)}));
  }
  // Packed rows (T = 11).
  const Shape sp{11, H, d};
  REQUIRE_GRADS_OK(check_gradients(
      [&](Tape& t, const std::vector<Var>& v) {
        return path_attention_packed(t, v[0], v[1], v[2], v[3], v[4], lengths, L, AttentionMask(true), scale);
      },
      {random_tensor(sp, 21), random_tensor(sp, 22), random_tensor(sp, 23), unit_rows(sp, 24),
       random_tensor(Shape{11, H}, 25, 0.2, 1.8)}));
}
