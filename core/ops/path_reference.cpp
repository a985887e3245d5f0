// core/ops/path_reference.cpp: the reference kernel of PaTH attention (Yang et al. 2025,
// arXiv 2505.16381; docs/spec.md §2.20), the softmax over logits that a product of
// Householder reflections between key and query transforms: one query row at a time, as the
// formulas read. The fast kernel (core/ops/path_attention.cpp) is held to it by the tests;
// path_attention_weights (the maps of `ordo analyze`) runs its row walk.
//
// For one (batch entry b, head h) with q, k, v, w (L, d), beta (L) and scale s:
//   H_l      = I - beta_l w_l w_l^T                         (symmetric)
//   z_tj     = s q_t^T H_t H_{t-1} ... H_{j+1} k_j          (j <= t; the product is empty at j = t)
//   O_t      = sum_j softmax_j(z_t)_j v_j                   over the visible keys j
// Row t walks its keys from the nearest back, carrying r = H_{j+1} ... H_t q_t:
//   r_t = q_t,   z_tj = s r_j . k_j,   r_{j-1} = H_j r_j = r_j - beta_j w_j (w_j . r_j)
// so a row costs O(L d) and no (L, L) tensor or d x d product is formed.
// Backward, given dO_t: P the row's softmax, dz_j = s P_j (dO_t . v_j - sum_m P_m dO_t . v_m),
// dv_j += P_j dO_t, dk_j += dz_j r_j; the adjoint g of r runs from the farthest key forward:
//   g = 0;  for j = lo .. hi - 1:
//     (j > lo)  a = w_j . r_j, c = w_j . g:  dbeta_j -= a c,  dw_j -= beta_j (a g + c r_j),
//               g = H_j g
//     g += dz_j k_j
//   dq_t += g
// (r_{j-1} = H_j r_j: its adjoint reaches r_j through H_j, symmetric, and beta_j, w_j
// directly.) The r_j of a row are recomputed in the backward (O(L d) scratch per thread).
//
// One (b, h) pair per loop iteration, its rows in order: results are the same bits for any
// thread count. Causal only: a query's chain runs over the tokens between its keys and it.
// A query row at or beyond its sequence's length (padding) outputs zeros.
//
// Also path_reflections_reference: the reflection vectors w as a composition of tape ops (what
// the encoding ran before path_reflections, core/ops/path_reflections.cpp, fused it).
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/ops.h"
#include "core/ops/reference_rows.h"
#include "core/ops/path_plan.h"
#include "core/parallel.h"

namespace ordo {
namespace {

// Row t's weights P over its keys [lo, hi) (indexed from lo), and, when R is given, each
// key's r_j (row j - lo of R, d wide).
void row_weights(const PathPlan& p, const Real* q, const Real* k, const Real* w, const Real* beta, int64_t t,
                 int64_t lo, int64_t hi, Real* P, Real* r, Real* R) {
  std::copy(q + t * p.ld, q + t * p.ld + p.d, r);
  Real top = -INFINITY;
  for (int64_t j = hi - 1; j >= lo; --j) {
    if (R) std::copy(r, r + p.d, R + (j - lo) * p.d);
    P[j - lo] = p.scale * reference_dot(r, k + j * p.ld, p.d);
    top = std::max(top, P[j - lo]);
    if (j > lo) {  // r <- H_j r
      const Real* wj = w + j * p.ld;
      const Real f = beta[j * p.H] * reference_dot(wj, r, p.d);
      for (int64_t c = 0; c < p.d; ++c) r[c] -= f * wj[c];
    }
  }
  Real total = 0;
  for (int64_t j = lo; j < hi; ++j) total += P[j - lo] = std::exp(P[j - lo] - top);
  for (int64_t j = lo; j < hi; ++j) P[j - lo] /= total;
}

Var path_reference_with_plan(Tape& t, Var q, Var k, Var v, Var w, Var beta, const PathPlan& p) {
  Tensor O = Tensor::zeros(t.value(q).shape());
  {
    const Real *qd = t.value(q).data(), *kd = t.value(k).data(), *vd = t.value(v).data();
    const Real *wd = t.value(w).data(), *bd = t.value(beta).data();
    Real* od = O.data();
    parallel_for(p.B * p.H, 3 * p.L * p.L * p.d + 1, [&](int64_t bh) {
      const int64_t b = bh / p.H, h = bh % p.H, o = p.offset(b, h), ob = p.beta_offset(b, h);
      Real* P = reference_scratch(static_cast<size_t>(p.L + p.d));
      Real* r = P + p.L;
      for (int64_t row = 0; row < p.rows(b); ++row) {
        const auto [lo, hi] = p.keys(b, row);
        if (hi <= lo) continue;
        row_weights(p, qd + o, kd + o, wd + o, bd + ob, row, lo, hi, P, r, nullptr);
        Real* out = od + o + row * p.ld;
        for (int64_t j = lo; j < hi; ++j)
          for (int64_t c = 0; c < p.d; ++c) out[c] += P[j - lo] * vd[o + j * p.ld + c];
      }
    });
  }

  Tape::Backward backward = [q, k, v, w, beta, p](Tape& t, const Tensor& dO) {
    const bool want[5] = {t.needs_grad(q), t.needs_grad(k), t.needs_grad(v), t.needs_grad(w), t.needs_grad(beta)};
    if (std::none_of(want, want + 5, [](bool x) { return x; })) return;
    // Summed buffers: the pairs add whole rows, and the inputs may share a Var.
    Tensor gq = Tensor::zeros(t.shape(q)), gk = Tensor::zeros(t.shape(k)), gv = Tensor::zeros(t.shape(v));
    Tensor gw = Tensor::zeros(t.shape(w)), gb = Tensor::zeros(t.shape(beta));
    const Real *qd = t.value(q).data(), *kd = t.value(k).data(), *vd = t.value(v).data();
    const Real *wd = t.value(w).data(), *bd = t.value(beta).data(), *dod = dO.data();
    parallel_for(p.B * p.H, 8 * p.L * p.L * p.d + 1, [&](int64_t bh) {
      const int64_t b = bh / p.H, h = bh % p.H, o = p.offset(b, h), ob = p.beta_offset(b, h);
      Real* P = reference_scratch(static_cast<size_t>(2 * p.L + (p.L + 2) * p.d));
      Real* dz = P + p.L;
      Real* r = dz + p.L;
      Real* g = r + p.d;
      Real* R = g + p.d;
      for (int64_t row = 0; row < p.rows(b); ++row) {
        const auto [lo, hi] = p.keys(b, row);
        if (hi <= lo) continue;
        row_weights(p, qd + o, kd + o, wd + o, bd + ob, row, lo, hi, P, r, R);
        const Real* dout = dod + o + row * p.ld;
        Real mean = 0;  // sum_m P_m dO . v_m
        for (int64_t j = lo; j < hi; ++j) {
          dz[j - lo] = reference_dot(dout, vd + o + j * p.ld, p.d);
          mean += P[j - lo] * dz[j - lo];
          Real* dvj = gv.data() + o + j * p.ld;
          for (int64_t c = 0; c < p.d; ++c) dvj[c] += P[j - lo] * dout[c];
        }
        std::fill(g, g + p.d, Real(0));
        for (int64_t j = lo; j < hi; ++j) {
          const Real* rj = R + (j - lo) * p.d;
          const Real* kj = kd + o + j * p.ld;
          if (j > lo) {  // g: the adjoint of r_{j-1} = H_j r_j, carried onto r_j
            const Real* wj = wd + o + j * p.ld;
            const Real bj = bd[ob + j * p.H];
            const Real a = reference_dot(wj, rj, p.d), c = reference_dot(wj, g, p.d);
            gb.data()[ob + j * p.H] -= a * c;
            Real* dwj = gw.data() + o + j * p.ld;
            for (int64_t e = 0; e < p.d; ++e) {
              dwj[e] -= bj * (a * g[e] + c * rj[e]);
              g[e] -= bj * c * wj[e];
            }
          }
          const Real dzj = p.scale * P[j - lo] * (dz[j - lo] - mean);
          Real* dkj = gk.data() + o + j * p.ld;
          for (int64_t e = 0; e < p.d; ++e) {
            g[e] += dzj * kj[e];
            dkj[e] += dzj * rj[e];
          }
        }
        Real* dq = gq.data() + o + row * p.ld;
        for (int64_t e = 0; e < p.d; ++e) dq[e] += g[e];
      }
    });
    Tensor grads[5] = {std::move(gq), std::move(gk), std::move(gv), std::move(gw), std::move(gb)};
    add_path_grads(t, {q, k, v, w, beta}, grads);
  };
  return t.push("path_attention_reference", std::move(O), std::move(backward), {q, k, v, w, beta});
}

}  // namespace

Var path_attention_reference(Tape& t, Var q, Var k, Var v, Var w, Var beta, const std::vector<int32_t>& key_lengths,
                             const AttentionMask& mask, Real scale) {
  return path_reference_with_plan(t, q, k, v, w, beta,
                        path_plan("path_attention_reference", t.shape(q), t.shape(k), t.shape(v), t.shape(w),
                                  t.shape(beta), key_lengths, std::nullopt, mask, scale));
}

Tensor path_attention_weights(const Tensor& q, const Tensor& k, const Tensor& w, const Tensor& beta,
                              const std::vector<int32_t>& key_lengths, const AttentionMask& mask, Real scale) {
  const PathPlan p = path_plan("path_attention_weights", q.shape(), k.shape(), k.shape(), w.shape(), beta.shape(),
                               key_lengths, std::nullopt, mask, scale);
  Tensor out = Tensor::zeros(Shape{p.B, p.H, p.L, p.L});
  parallel_for(p.B * p.H, 3 * p.L * p.L * p.d + 1, [&](int64_t bh) {
    const int64_t b = bh / p.H, h = bh % p.H, o = p.offset(b, h), ob = p.beta_offset(b, h);
    Real* P = reference_scratch(static_cast<size_t>(p.L + p.d));
    for (int64_t row = 0; row < p.L; ++row) {
      const auto [lo, hi] = p.keys(b, row);
      if (hi <= lo) continue;
      row_weights(p, q.data() + o, k.data() + o, w.data() + o, beta.data() + ob, row, lo, hi, P, P + p.L, nullptr);
      std::copy(P, P + (hi - lo), out.data() + (bh * p.L + row) * p.L + lo);
    }
  });
  return out;
}

Var path_reflections_reference(Tape& t, Var u, Var conv, int64_t heads, Real eps) {
  const Shape s = t.shape(u);
  ORDO_CHECK(s.rank() == 3 && heads >= 1 && s[2] % heads == 0, "path_reflections_reference: u must be (B, L, d) with d "
             "divisible by heads = ", heads, ", got ", s);
  const int64_t B = s[0], L = s[1], d = s[2], taps = t.shape(conv)[0];
  // y_l = sum_s conv[s] u_{l - s}, zeros before the start.
  Var y = mul(t, u, reshape(t, slice(t, conv, 0, 0, 1), Shape{d}));
  for (int64_t back = 1; back < taps && back < L; ++back) {
    Var shifted = concat(t, {t.input(Tensor::zeros(Shape{B, back, d})), slice(t, u, 1, 0, L - back)}, 1);
    y = add(t, y, mul(t, shifted, reshape(t, slice(t, conv, 0, back, back + 1), Shape{d})));
  }
  y = reshape(t, mul(t, y, sigmoid(t, y)), Shape{B, L, heads, d / heads});  // SiLU, then per head
  Var norm2 = add(t, sum_last(t, mul(t, y, y)), t.input(Tensor::scalar(eps)));  // (B, L, H)
  return mul(t, y, reshape(t, exp(t, scale(t, log(t, norm2), -0.5)), Shape{B, L, heads, 1}));
}

}  // namespace ordo
