// core/ops/stickbreaking_reference.cpp: the reference kernel of stick-breaking attention
// (Tan et al., ICLR 2025, arXiv 2410.17980; docs/spec.md §2.18): the formulas as they read,
// one query row at a time, one scalar dot product per logit. The fast kernel
// (core/ops/stickbreaking_attention.cpp) is held to it by the tests; not for training.
//
// For one (batch entry b, head h) with q, k, v (L, d) and scale s, query t takes its keys
// from the nearest back:
//   z_j    = s q_t . k_j,   beta_j = sigmoid(z_j)
//   A_tj   = beta_j prod_{j < l < t'} (1 - beta_l)      over the visible keys j (causal, j < t,
//                                                       or j <= t with attend_current: t' = t + 1)
//   O_t    = sum_j A_tj v_j + rem_t v_t                 (no softmax, no normalisation)
//   rem_t  = prod_j (1 - beta_j)                        what the stick leaves, given to the
//                                                       query's own value (the authors' tests,
//                                                       stickbreaking-attention/tests/test_attn.py;
//                                                       0 with remainder off: the weights then
//                                                       sum to at most 1)
// computed in log space, keys from the nearest on with a running sum R:
//   log A_tj = log sigmoid(z_j) + R_j,   R_j = sum_{l > j visible} log sigmoid(-z_l)
// (log(1 - sigmoid(z)) = log sigmoid(-z)), so no product underflows before its exp.
// Backward, given dO, with g_j = dO_t . v_j:
//   dv_j += A_tj dO_t
//   dv_t += rem_t dO_t
//   dz_j  = g_j A_tj (1 - beta_j) - beta_j (g_t rem_t + sum_{m < j} g_m A_tm)
// (z_j enters log A_tj through log sigmoid(z_j), and log A_tm for every farther key m < j and
// log rem_t through log sigmoid(-z_j): the remainder is a key beyond the farthest), then
// dq_t += s sum_j dz_j k_j and dk_j += s dz_j q_t.
//
// One (b, h) pair per loop iteration, its rows in order, and only the output saved: the
// backward recomputes each row's z and A. Each row costs O(L d); the pair O(L^2 d) time and
// O(L) extra memory.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/ops.h"
#include "core/ops/reference_rows.h"
#include "core/ops/stickbreaking_plan.h"
#include "core/parallel.h"

namespace ordo {
namespace {

// log sigmoid(x) = min(x, 0) - log(1 + e^-|x|).
Real log_sigmoid(Real x) { return std::min(x, Real(0)) - std::log1p(std::exp(-std::fabs(x))); }

// Row t's logits z and weights A over its keys [lo, hi) (indexed from lo), nearest first, and
// its remainder rem_t (0 when the rule drops it).
Real row_weights(const SbPlan& p, const Real* q, const Real* k, int64_t t, int64_t lo, int64_t hi, Real* z,
                 Real* A) {
  Real R = 0;
  for (int64_t j = hi - 1; j >= lo; --j) {
    z[j - lo] = p.scale * reference_dot(q + t * p.ld, k + j * p.ld, p.d);
    A[j - lo] = std::exp(log_sigmoid(z[j - lo]) + R);
    R += log_sigmoid(-z[j - lo]);
  }
  return p.rule.remainder ? std::exp(R) : Real(0);
}

}  // namespace

namespace {

Var stickbreaking_reference_with_plan(Tape& t, Var q, Var k, Var v, const SbPlan& p) {
  const Tensor& Q = t.value(q);
  Tensor O = Tensor::empty(Q.shape());
  const Real *qd = Q.data(), *kd = t.value(k).data(), *vd = t.value(v).data();
  Real* od = O.data();
  parallel_for(p.B * p.H, 2 * p.L * p.L * p.d + 1, [&](int64_t bh) {
    const int64_t b = bh / p.H, h = bh % p.H, o = p.offset(b, h);
    Real* z = reference_scratch(static_cast<size_t>(2 * p.L));
    Real* A = z + p.L;
    for (int64_t row = 0; row < p.rows(b); ++row) {
      const auto [lo, hi] = p.keys(b, row);
      const Real rem = row_weights(p, qd + o, kd + o, row, lo, hi, z, A);
      Real* out = od + o + row * p.ld;
      std::fill(out, out + p.d, Real(0));
      for (int64_t j = lo; j < hi; ++j)
        for (int64_t c = 0; c < p.d; ++c) out[c] += A[j - lo] * vd[o + j * p.ld + c];
      if (p.rule.remainder)
        for (int64_t c = 0; c < p.d; ++c) out[c] += rem * vd[o + row * p.ld + c];
    }
  });

  Tape::Backward backward = [q, k, v, p](Tape& t, const Tensor& dO) {
    const bool want_q = t.needs_grad(q), want_k = t.needs_grad(k), want_v = t.needs_grad(v);
    if (!want_q && !want_k && !want_v) return;
    // Summed buffers: the pairs add whole rows, and q, k, v may be one Var.
    Tensor gq = Tensor::zeros(t.shape(q)), gk = Tensor::zeros(t.shape(k)), gv = Tensor::zeros(t.shape(v));
    const Real *qd = t.value(q).data(), *kd = t.value(k).data(), *vd = t.value(v).data(), *dod = dO.data();
    parallel_for(p.B * p.H, 6 * p.L * p.L * p.d + 1, [&](int64_t bh) {
      const int64_t b = bh / p.H, h = bh % p.H, o = p.offset(b, h);
      Real* z = reference_scratch(static_cast<size_t>(3 * p.L));
      Real* A = z + p.L;
      Real* g = A + p.L;
      for (int64_t row = 0; row < p.rows(b); ++row) {
        const auto [lo, hi] = p.keys(b, row);
        if (hi <= lo && !p.rule.remainder) continue;
        const Real rem = row_weights(p, qd + o, kd + o, row, lo, hi, z, A);
        const Real* dout = dod + o + row * p.ld;
        Real farther = 0;  // sum_{m < j} g_m A_m, from the remainder (a key beyond the farthest) on
        if (p.rule.remainder) {
          farther = reference_dot(dout, vd + o + row * p.ld, p.d) * rem;
          Real* dvt = gv.data() + o + row * p.ld;
          for (int64_t c = 0; c < p.d; ++c) dvt[c] += rem * dout[c];
        }
        for (int64_t j = lo; j < hi; ++j) {
          g[j - lo] = reference_dot(dout, vd + o + j * p.ld, p.d);
          Real* dvj = gv.data() + o + j * p.ld;
          for (int64_t c = 0; c < p.d; ++c) dvj[c] += A[j - lo] * dout[c];
        }
        Real* dq = gq.data() + o + row * p.ld;
        for (int64_t j = lo; j < hi; ++j) {
          const Real beta = Real(1) / (Real(1) + std::exp(-z[j - lo]));
          const Real dz = g[j - lo] * A[j - lo] * (Real(1) - beta) - beta * farther;
          farther += g[j - lo] * A[j - lo];
          const Real* kj = kd + o + j * p.ld;
          const Real* qt = qd + o + row * p.ld;
          Real* dkj = gk.data() + o + j * p.ld;
          for (int64_t c = 0; c < p.d; ++c) {
            dq[c] += p.scale * dz * kj[c];
            dkj[c] += p.scale * dz * qt[c];
          }
        }
      }
    });
    add_sb_grads(t, q, k, v, gq, gk, gv);
  };
  return t.push("stickbreaking_attention_reference", std::move(O), std::move(backward), {q, k, v});
}

}  // namespace

Var stickbreaking_attention_reference(Tape& t, Var q, Var k, Var v, const std::vector<int32_t>& key_lengths,
                                      const AttentionMask& mask, StickBreakingRule rule, Real scale) {
  return stickbreaking_reference_with_plan(
      t, q, k, v, sb_plan("stickbreaking_attention_reference", t, q, k, v, key_lengths, std::nullopt, mask, rule, scale));
}

}  // namespace ordo
