// tests/gradcheck/test_ops_path.cpp: gradients of PaTH attention, the fast kernel
// (core/ops/path_attention.cpp) and the reference kernel (core/ops/path_reference.cpp), w.r.t.
// q, k, v, the reflection vectors w and their strengths beta against finite differences in
// float64, padded with key padding and a window, and packed; and the fast kernel against the
// reference past one tile of queries and keys, and with several blocks of keys below a tile.
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
  for (bool reference : {false, true})
  for (int64_t window : {0, 3}) {
    INFO("reference " << reference << " window " << window);
    REQUIRE_GRADS_OK(check_gradients(
        [&](Tape& t, const std::vector<Var>& v) {
          return (reference ? path_attention_reference : path_attention)(t, v[0], v[1], v[2], v[3], v[4], lengths,
                                                                         AttentionMask(true, window), scale);
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

TEST_CASE("PaTH: the fast kernel equals the reference kernel in float64", "[ops][path]") {
  // Past one tile of queries and one block of keys (L > 64; without a window the keys below
  // a tile's own block go by blocks, with a window the backward's key blocks start from
  // checkpoints), a window past a block and a head width past a vector. float64 keeps libm's
  // exp; the blocks' products and the backward's sums across lanes take another order.
  const int64_t B = 2, L = 150, H = 2, d = 9;
  const Shape s{B, L, H, d};
  const std::vector<int32_t> lengths{150, 83};
  const Tensor R = random_tensor(s, 30);
  for (int64_t window : {0, 70}) {
    std::vector<Tensor> got[2];
    for (int reference = 0; reference < 2; ++reference) {
      std::vector<Parameter> p{{"q", random_tensor(s, 31)},
                               {"k", random_tensor(s, 32)},
                               {"v", random_tensor(s, 33)},
                               {"w", unit_rows(s, 34)},
                               {"beta", random_tensor(Shape{B, L, H}, 35, 0.2, 1.8)}};
      for (Parameter& x : p) x.grad = Tensor::zeros(x.value.shape());
      Tape t;
      Var out = (reference ? path_attention_reference : path_attention)(
          t, t.param(p[0]), t.param(p[1]), t.param(p[2]), t.param(p[3]), t.param(p[4]), lengths,
          AttentionMask(true, window), Real(0.4));
      got[reference].push_back(t.value(out).clone());
      t.backward(sum(t, mul(t, out, t.input(R))));
      for (Parameter& x : p) got[reference].push_back(x.grad);
    }
    for (size_t i = 0; i < got[0].size(); ++i) {
      INFO("window " << window << " tensor " << i << " (out, dq, dk, dv, dw, dbeta)");
      CHECK(max_abs_diff(got[0][i], got[1][i]) <= 1e-12);
    }
  }
}

TEST_CASE("PaTH: the blocks below a tile, by their maps, equal the reference's walk, padded and packed",
          "[ops][path]") {
  // Without a window the fast kernel takes the keys below a tile's own block of 64 by blocks
  // (the transformed keys and the block's map, core/ops/path_attention.cpp): three such
  // blocks under the last tile of a 200-row sequence, two under one of 129 rows whose last
  // tile holds one query; the same sequences packed.
  const int64_t B = 2, L = 200, H = 2;
  const std::vector<int32_t> lengths{200, 129};
  for (int64_t d : {9, 72}) {  // 72: wider than a tile (the transposed states' other layout)
    const Shape s{B, L, H, d};
    const Tensor R = random_tensor(s, 70);
    std::vector<Tensor> got[3];
    for (int form = 0; form < 3; ++form) {  // reference, fast padded, fast packed
      std::vector<Parameter> p{{"q", random_tensor(s, 71)},
                               {"k", random_tensor(s, 72)},
                               {"v", random_tensor(s, 73)},
                               {"w", unit_rows(s, 74)},
                               {"beta", random_tensor(Shape{B, L, H}, 75, 0.2, 1.8)}};
      for (Parameter& x : p) x.grad = Tensor::zeros(x.value.shape());
      Tape t;
      Var in[5];
      for (int i = 0; i < 5; ++i) in[i] = t.param(p[size_t(i)]);
      Var out;
      if (form == 2) {
        auto pack = [&](Var x) { return pack_rows(t, x, lengths); };
        out = unpack_rows(t,
                          path_attention_packed(t, pack(in[0]), pack(in[1]), pack(in[2]), pack(in[3]), pack(in[4]),
                                                lengths, L, AttentionMask(true), Real(0.4)),
                          lengths, L);
      } else {
        out = (form == 0 ? path_attention_reference : path_attention)(t, in[0], in[1], in[2], in[3], in[4], lengths,
                                                                      AttentionMask(true), Real(0.4));
      }
      got[form].push_back(t.value(out).clone());
      t.backward(sum(t, mul(t, out, t.input(R))));
      for (Parameter& x : p) got[form].push_back(x.grad);
    }
    for (int form = 1; form < 3; ++form)
      for (size_t i = 0; i < got[0].size(); ++i) {
        INFO("d " << d << ", " << (form == 1 ? "padded" : "packed") << " tensor " << i
                  << " (out, dq, dk, dv, dw, dbeta)");
        CHECK(max_abs_diff(got[form][i], got[0][i]) <= 1e-12);
      }
  }
}

TEST_CASE("PaTH reflections: gradients, and the op equals the composition in float64", "[ops][path]") {
  // u (B, L, d) with L below and past the convolution's width, 2 heads of width 3, 3 taps.
  const int64_t B = 2, L = 5, d = 6, heads = 2;
  const Real eps = Real(1e-6);
  const std::vector<Tensor> in{random_tensor(Shape{B, L, d}, 61), random_tensor(Shape{3, d}, 62)};
  for (bool reference : {false, true}) {
    INFO("reference " << reference);
    REQUIRE_GRADS_OK(check_gradients(
        [&](Tape& t, const std::vector<Var>& v) {
          return (reference ? path_reflections_reference : path_reflections)(t, v[0], v[1], heads, eps);
        },
        in));
  }
  for (int64_t length : {1, 2, 40}) {  // shorter than the taps, and many rows (dconv's partials over chunks)
    const Shape su{3, length, d};
    const Tensor R = random_tensor(Shape{3, length, heads, d / heads}, 63);
    std::vector<Tensor> got[2];
    for (int reference = 0; reference < 2; ++reference) {
      std::vector<Parameter> p{{"u", random_tensor(su, 64)}, {"conv", random_tensor(Shape{3, d}, 65)}};
      for (Parameter& x : p) x.grad = Tensor::zeros(x.value.shape());
      Tape t;
      Var w = (reference ? path_reflections_reference : path_reflections)(t, t.param(p[0]), t.param(p[1]), heads, eps);
      got[reference].push_back(t.value(w).clone());
      t.backward(sum(t, mul(t, w, t.input(R))));
      for (Parameter& x : p) got[reference].push_back(x.grad);
    }
    for (size_t i = 0; i < got[0].size(); ++i) {
      INFO("L " << length << " tensor " << i << " (w, du, dconv)");
      CHECK(max_abs_diff(got[0][i], got[1][i]) <= 1e-12);
    }
  }
}
