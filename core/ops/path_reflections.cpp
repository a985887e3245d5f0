// core/ops/path_reflections.cpp: PaTH's reflection vectors w from the layer's low-rank
// projection u (layers/posenc/path.cpp; docs/spec.md §2.20), one op where the encoding had
// a dozen tape ops over (B, L, d) tensors (their multiplications alone were 5 ms of a 90 ms
// default step). Per batch entry, position l, channel c, and head h of width d_h:
//   y_l = sum_{s < S, s <= l} conv_s u_{l-s}       a causal depthwise convolution (taps (S, d))
//   a_l = y_l sigmoid(y_l)                         SiLU
//   w_l = a_l inv_lh,  inv_lh = 1 / sqrt(sum_{c in h} a_lc^2 + eps)
// Backward, with sg = sigmoid(y):
//   da = inv (dw - w (w . dw)_h),   dy = da (sg + y sg (1 - sg)),
//   du_m = sum_s conv_s dy_{m+s},   dconv_s = sum_{b, l >= s} dy_l u_{l-s}.
// The forward keeps y and inv. Rows are independent but for dconv, whose sums over rows are
// taken in chunks of kReflectionRows rows (a constant, never the thread count), the chunks'
// partials then added in chunk order: the same bits for any thread count.
//
// path_reflections_reference (core/ops/path_reference.cpp) is the same map as a composition
// of tape ops, what the encoding ran before; the tests hold the two together. The last bits
// differ: the convolution's products and sums fuse here (FMA), and inv is 1 / sqrt where the
// composition took exp(-log(.) / 2).
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/fastmath.h"
#include "core/ops.h"
#include "core/parallel.h"

namespace ordo {
namespace {

constexpr int64_t kReflectionRows = 64;  // rows per partial sum of dconv

struct ReflectionShape {
  int64_t B, L, d, S, H, dh;
};

ReflectionShape reflection_shape(const Shape& u, const Shape& conv, int64_t heads) {
  ORDO_CHECK(u.rank() == 3, "path_reflections: u must be (B, L, d), got ", u);
  ORDO_CHECK(conv.rank() == 2 && conv[1] == u[2] && conv[0] >= 1, "path_reflections: conv must be (S, d) with d = ",
             u[2], " and S >= 1 taps, got ", conv);
  ORDO_CHECK(heads >= 1 && u[2] % heads == 0, "path_reflections: d = ", u[2], " is not divisible by heads = ", heads);
  return {u[0], u[1], u[2], conv[0], heads, u[2] / heads};
}

}  // namespace

Var path_reflections(Tape& t, Var u, Var conv, int64_t heads, Real eps) {
  const ReflectionShape s = reflection_shape(t.shape(u), t.shape(conv), heads);
  ORDO_CHECK(eps > 0, "path_reflections: eps must be positive, got ", eps);
  const int64_t rows = s.B * s.L;
  Tensor W = Tensor::empty(Shape{s.B, s.L, s.H, s.dh});
  Tensor Y = Tensor::empty(Shape{s.B, s.L, s.d});
  Tensor Inv = Tensor::empty(Shape{s.B, s.L, s.H});
  {
    const Real *ud = t.value(u).data(), *cd = t.value(conv).data();
    Real *wd = W.data(), *yd = Y.data(), *invd = Inv.data();
    parallel_for(rows, 12 * s.d, [&](int64_t r) {
      const int64_t l = r % s.L;
      Real* y = yd + r * s.d;
      Real* w = wd + r * s.d;
      for (int64_t c = 0; c < s.d; ++c) y[c] = ud[r * s.d + c] * cd[c];
      for (int64_t back = 1; back < s.S && back <= l; ++back)
        for (int64_t c = 0; c < s.d; ++c) y[c] += ud[(r - back) * s.d + c] * cd[back * s.d + c];
      for (int64_t c = 0; c < s.d; ++c) w[c] = y[c] * SigmoidPair<Real>(y[c]).sigmoid(y[c]);
      for (int64_t h = 0; h < s.H; ++h) {
        Real* wh = w + h * s.dh;
        const Real n2 = lane_sum<Real>(s.dh, [&](int64_t c) { return wh[c] * wh[c]; }) + eps;
        const Real inv = Real(1) / std::sqrt(n2);
        invd[r * s.H + h] = inv;
        for (int64_t c = 0; c < s.dh; ++c) wh[c] *= inv;
      }
    });
  }
  Tensor Wk = W;  // shares W's storage: the backward reads w
  return t.push("path_reflections", std::move(W),
                [u, conv, s, Y = std::move(Y), Inv = std::move(Inv), Wk = std::move(Wk)](Tape& t, const Tensor& dW) {
    const bool want_u = t.needs_grad(u), want_conv = t.needs_grad(conv);
    if (!want_u && !want_conv) return;
    const int64_t rows = s.B * s.L;
    const Real *yd = Y.data(), *invd = Inv.data(), *wd = Wk.data(), *dwd = dW.data();
    // dy, row by row.
    Tensor dY = Tensor::empty(Shape{s.B, s.L, s.d});
    Real* dyd = dY.data();
    parallel_for(rows, 12 * s.d, [&](int64_t r) {
      for (int64_t h = 0; h < s.H; ++h) {
        const int64_t o = r * s.d + h * s.dh;
        const Real inv = invd[r * s.H + h];
        const Real dot = lane_sum<Real>(s.dh, [&](int64_t c) { return wd[o + c] * dwd[o + c]; });
        for (int64_t c = 0; c < s.dh; ++c) {
          const Real y = yd[o + c];
          const SigmoidPair<Real> sp(y);
          const Real sg = sp.sigmoid(y), rest = y >= 0 ? sp.e * sp.r : sp.r;  // sigmoid(y), 1 - sigmoid(y)
          dyd[o + c] = inv * (dwd[o + c] - wd[o + c] * dot) * (sg + y * sg * rest);
        }
      }
    });
    const Real *ud = t.value(u).data(), *cd = t.value(conv).data();
    if (want_u)
      t.add_grad(u, [&](auto into, Real* du) {  // du_m = sum_s conv_s dy_{m+s}, within the batch entry
        parallel_for(rows, 2 * s.S * s.d, [&](int64_t r) {
          const int64_t l = r % s.L;
          thread_local std::vector<Real> scratch;
          scratch.resize(static_cast<size_t>(s.d));
          Real* acc = scratch.data();
          for (int64_t c = 0; c < s.d; ++c) acc[c] = dyd[r * s.d + c] * cd[c];
          for (int64_t ahead = 1; ahead < s.S && l + ahead < s.L; ++ahead)  // the loops over c vectorise
            for (int64_t c = 0; c < s.d; ++c) acc[c] += dyd[(r + ahead) * s.d + c] * cd[ahead * s.d + c];
          for (int64_t c = 0; c < s.d; ++c) into(du[r * s.d + c], acc[c]);
        });
      });
    if (want_conv) {
      const int64_t chunks = (rows + kReflectionRows - 1) / kReflectionRows;
      std::vector<Real> part(static_cast<size_t>(chunks * s.S * s.d), Real(0));
      parallel_for(chunks, kReflectionRows * 2 * s.S * s.d, [&](int64_t k) {
        Real* pk = part.data() + k * s.S * s.d;
        for (int64_t r = k * kReflectionRows; r < std::min(rows, (k + 1) * kReflectionRows); ++r) {
          const int64_t l = r % s.L;
          for (int64_t back = 0; back < s.S && back <= l; ++back)
            for (int64_t c = 0; c < s.d; ++c) pk[back * s.d + c] += dyd[r * s.d + c] * ud[(r - back) * s.d + c];
        }
      });
      t.add_grad(conv, [&](auto into, Real* dconv) {
        parallel_for(s.S * s.d, chunks, [&](int64_t i) {
          Real acc = 0;
          for (int64_t k = 0; k < chunks; ++k) acc += part[static_cast<size_t>(k * s.S * s.d + i)];
          into(dconv[i], acc);
        });
      });
    }
  }, {u, conv});
}

}  // namespace ordo
