// core/ops/stickbreaking_attention.cpp: stick-breaking attention (Tan et al., ICLR 2025,
// arXiv 2410.17980; docs/spec.md §2.18), in place of the softmax, in O(L) memory: the fast
// kernel. core/ops/stickbreaking_reference.cpp computes the same formulas one row at a time
// (and states them in full); the tests hold this kernel to it, forward and backward.
//
// For one (batch entry b, head h), query t and its visible keys j, z_j = s q_t . k_j and
//   log A_tj = log sigmoid(z_j) + R_j,   R_j = sum_{l > j visible} log sigmoid(-z_l),
//   rem_t    = e^(R over every visible key)          (0 with the remainder off)
//   O_t      = sum_j A_tj v_j + rem_t v_t
// and backward, with g_j = dO_t . v_j and F_j = g_t rem_t + sum_{m < j} g_m A_tm,
//   dz_j = g_j A_tj (1 - beta_j) - beta_j F_j,   beta_j = sigmoid(z_j) = e^(log sigmoid(z_j)).
//
// How it is fast. A tile of up to kTile queries and the key rows any of them sees are taken
// at once, with everything laid out key-major (row = key, column = query):
//   - the logits, z^T = (s K) Q^T, and every product of the backward are tile_product calls
//     (core/ops/fused_attention_tiles.h, the register-blocked product of the fused attention);
//   - the running sums R (nearest key first) and F (farthest first) walk the key rows in
//     order with one vector of queries per step, so each is one vector add per kVec logits
//     rather than a scalar chain per row;
//   - the stick is a running product of sigmoid(-z) (tile_weights says why that is safe):
//     sigmoid(z) and sigmoid(-z) share e^-|z|, one exp2 (core/fastmath.h, vectorisable) and one
//     division per logit, and the backward keeps beta from its recomputation of A;
//   - those elementwise loops use whole AVX-512 registers (ORDO_WIDE_LOOPS).
// A pair (b, h) is one loop iteration, its tiles in order, so the result has the same bits
// for any thread count. It differs from the reference kernel in the last bits (docs/spec.md
// §2.18): the logits are summed in the product's order over s k rather than s (q . k), the
// stick is multiplied rather than summed in logs, and the exp2 is core/fastmath.h's rather
// than libm's exp (float32; the float64 build keeps libm).
//
// Memory: per thread, the pair's s k and v (zero-padded rows), its dk and dv sums, and three
// (L x kTile) tiles: O(L kTile), nothing of size L^2.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/fastmath.h"
#include "core/ops.h"
#include "core/ops/fused_attention_tiles.h"
#include "core/ops/query_tiles.h"
#include "core/ops/stickbreaking_plan.h"
#include "core/parallel.h"

namespace ordo {
namespace {


// The per-thread buffers of one pair: s k and v as (Lk, dp) rows, zero past the pair's rows,
// the dk and dv sums the same way, three key-major tiles (Lk, kTile) and two query tiles.
struct SbBuffers {
  int64_t Lk = 0, dp = 0;
  Real *k = nullptr, *v = nullptr, *dk = nullptr, *dv = nullptr;
  Real *zt = nullptr, *at = nullptr, *gt = nullptr;  // z^T, A^T, and g^T then dz^T
  Real *qt = nullptr, *dot = nullptr;                // q^T and dO^T (dp, kTile)
  Real *qs = nullptr, *dos = nullptr, *out = nullptr;  // s q, dO and a product's rows (kTile, dp)

  SbBuffers(const SbPlan& p, bool backward) {
    // klo + mk <= L + kMR - 1 key rows are read: round L up and add a vector of rows.
    Lk = round_up(p.L, kVec) + kVec, dp = round_up(p.d, kVec);
    const int64_t pair = Lk * dp, tile = Lk * kTile, rows = kTile * dp, cols = dp * kTile;
    const int64_t n = (backward ? 4 * pair + 3 * tile : 2 * pair + 2 * tile) + 3 * rows + 2 * cols;
    thread_local std::vector<Real> buffer;
    if (buffer.size() < static_cast<size_t>(n)) buffer.resize(static_cast<size_t>(n));
    Real* at_ = buffer.data();
    auto take = [&at_](int64_t m) { Real* r = at_; at_ += m; return r; };
    k = take(pair), v = take(pair), zt = take(tile), at = take(tile);
    if (backward) dk = take(pair), dv = take(pair), gt = take(tile);
    qt = take(cols), dot = take(cols), qs = take(rows), dos = take(rows), out = take(rows);
  }
};

// A^T from z^T over the tile's key rows, nearest first, and each column's remainder rem
// (0 with the remainder off). Rows past nk of A^T are zeroed. With kBeta (the backward), z^T
// is overwritten with beta = sigmoid(z), 0 where the query does not see the key.
// The stick is kept as a running product rather than the reference's sum of logs: with
// u = e^-|z| (core/fastmath.h's exp2, base 2 folded into the argument) and r = 1 / (1 + u),
//   sigmoid(z) = r, sigmoid(-z) = u r    (z >= 0; swapped for z < 0)
//   A_j = sigmoid(z_j) P_j,   P_j = prod_{l > j visible} sigmoid(-z_l),   rem = P over every key
// one exp2 and one division per logit where the logs took three exp2 and a log2. sigmoid(-z)
// as u r keeps 1 - sigmoid(z) exact where sigmoid(z) is near 1. A product below 2^-100 is
// set to 0 (it stays 0): its weights are under 1e-30, nothing to a float sum of values of
// order 1, and the product never reaches the subnormals, which the vector unit slows on.
template <bool kBeta>
ORDO_WIDE_LOOPS void tile_weights(const SbPlan& p, const QueryTile& tl, Real* zt, Real* __restrict at,
                                  Real* __restrict rem) {
  constexpr Real kFloor = static_cast<Real>(7.8886090522101181e-31);  // 2^-100
  Real P[kTile];
  std::fill(P, P + kTile, Real(1));
  for (int64_t jj = tl.nk - 1; jj >= 0; --jj) {
    const int32_t j = static_cast<int32_t>(tl.klo + jj);
    Real* __restrict z = zt + jj * kTile;
    Real* __restrict a = at + jj * kTile;
    for (int64_t i = 0; i < tl.nqp; ++i) {
      const bool sees = (j >= tl.lo[i]) & (j < tl.hi[i]);  // branch-free: the loop stays one vector
      const Real u = exp2_nonpositive(-kLog2e * std::fabs(z[i]));
      const Real r = Real(1) / (Real(1) + u);
      const Real beta = z[i] >= 0 ? r : u * r;  // sigmoid(z)
      const Real rest = z[i] >= 0 ? u * r : r;  // sigmoid(-z) = 1 - sigmoid(z)
      a[i] = sees ? beta * P[i] : Real(0);
      const Real next = P[i] * rest;
      P[i] = sees ? (next < kFloor ? Real(0) : next) : P[i];
      if constexpr (kBeta) z[i] = sees ? beta : Real(0);
    }
  }
  std::fill(at + tl.nk * kTile, at + tl.mk * kTile, Real(0));
  for (int64_t i = 0; i < tl.nqp; ++i) rem[i] = p.rule.remainder && i < tl.nq ? P[i] : Real(0);
}

// z^T and A^T of a tile (z^T then beta with kBeta): q^T into bf.qt, then z^T = (s K) q^T over
// the tile's key rows.
template <bool kBeta>
void tile_forward(const SbPlan& p, const QueryTile& tl, const Real* q, SbBuffers& bf, Real* rem) {
  copy_transposed(q + tl.r0 * p.ld, tl.nq, p.d, p.ld, bf.qt, tl.nqp);
  tile_product(false, tl.mk, tl.nqp, p.d, bf.k + tl.klo * bf.dp, bf.dp, 1, bf.qt, kTile, bf.zt, kTile);
  tile_weights<kBeta>(p, tl, bf.zt, bf.at, rem);
}

// dz^T in place of g^T: F from the farthest key on (starting at g_t rem_t, in F). beta^T is
// 0 where a query does not see a key (and A^T too): those dz are 0. Rows past nk are zeroed.
ORDO_WIDE_LOOPS void tile_logit_grads(const QueryTile& tl, const Real* __restrict bt, const Real* __restrict at,
                                      Real* __restrict gt, Real* __restrict F) {
  for (int64_t jj = 0; jj < tl.nk; ++jj) {
    const Real* __restrict beta = bt + jj * kTile;
    const Real* __restrict a = at + jj * kTile;
    Real* __restrict g = gt + jj * kTile;
    for (int64_t i = 0; i < tl.nqp; ++i) {
      const Real ga = g[i] * a[i];
      g[i] = ga * (Real(1) - beta[i]) - beta[i] * F[i];
      F[i] += ga;
    }
  }
  std::fill(gt + tl.nk * kTile, gt + tl.mk * kTile, Real(0));
}

// The pair's s k and v (or any two (rows, d) inputs) as zero-padded (Lk, dp) rows.
void load_pair(const SbPlan& p, int64_t rows, const Real* k, const Real* v, SbBuffers& bf) {
  copy_padded(k, rows, p.d, p.ld, p.scale, bf.k, bf.Lk, bf.dp);
  copy_padded(v, rows, p.d, p.ld, Real(1), bf.v, bf.Lk, bf.dp);
}

Var stickbreaking_with_plan(Tape& t, Var q, Var k, Var v, const SbPlan& p) {
  const Tensor& Q = t.value(q);
  Tensor O = Tensor::empty(Q.shape());
  const Real *qd = Q.data(), *kd = t.value(k).data(), *vd = t.value(v).data();
  Real* od = O.data();
  parallel_for(p.B * p.H, 2 * p.L * p.L * p.d + 1, [&](int64_t bh) {
    const int64_t b = bh / p.H, h = bh % p.H, o = p.offset(b, h);
    SbBuffers bf(p, false);
    load_pair(p, p.rows(b), kd + o, vd + o, bf);
    Real rem[kTile];
    for (int64_t r0 = 0; r0 < p.rows(b); r0 += kTile) {
      const QueryTile tl(p, b, r0);
      tile_forward<false>(p, tl, qd + o, bf, rem);
      // out rows = A v over the tile's keys (A^T read as its transpose), then + rem_t v_t.
      product_over_keys(tl, bf.at, bf.v + tl.klo * bf.dp, bf.dp, bf.out);
      for (int64_t i = 0; i < tl.nq; ++i) {
        const int64_t row = r0 + i;
        Real* dst = od + o + row * p.ld;
        const Real* vt = vd + o + row * p.ld;
        for (int64_t c = 0; c < p.d; ++c) dst[c] = bf.out[i * bf.dp + c] + rem[i] * vt[c];
      }
    }
  });

  Tape::Backward backward = [q, k, v, p](Tape& t, const Tensor& dO) {
    const bool want_q = t.needs_grad(q), want_k = t.needs_grad(k), want_v = t.needs_grad(v);
    if (!want_q && !want_k && !want_v) return;
    // Summed buffers: q, k, v may be one Var. Each pair writes only its own head's columns.
    Tensor gq = Tensor::zeros(t.shape(q)), gk = Tensor::zeros(t.shape(k)), gv = Tensor::zeros(t.shape(v));
    const Real *qd = t.value(q).data(), *kd = t.value(k).data(), *vd = t.value(v).data(), *dod = dO.data();
    parallel_for(p.B * p.H, 6 * p.L * p.L * p.d + 1, [&](int64_t bh) {
      const int64_t b = bh / p.H, h = bh % p.H, o = p.offset(b, h), rows = p.rows(b);
      SbBuffers bf(p, true);
      load_pair(p, rows, kd + o, vd + o, bf);
      std::fill(bf.dk, bf.dk + bf.Lk * bf.dp, Real(0));
      std::fill(bf.dv, bf.dv + bf.Lk * bf.dp, Real(0));
      Real rem[kTile], F[kTile];
      for (int64_t r0 = 0; r0 < rows; r0 += kTile) {
        const QueryTile tl(p, b, r0);
        tile_forward<true>(p, tl, qd + o, bf, rem);
        const Real* dout = dod + o + r0 * p.ld;
        // g^T = V dO^T; F starts at g_t rem_t, the remainder being a key beyond the farthest,
        // which also gives dv_t its rem_t dO_t.
        copy_transposed(dout, tl.nq, p.d, p.ld, bf.dot, tl.nqp);
        tile_product(false, tl.mk, tl.nqp, p.d, bf.v + tl.klo * bf.dp, bf.dp, 1, bf.dot, kTile, bf.gt, kTile);
        for (int64_t i = 0; i < tl.nqp; ++i) {
          F[i] = 0;
          if (i >= tl.nq || !p.rule.remainder) continue;
          const Real* dr = dout + i * p.ld;
          const Real* vt = vd + o + (r0 + i) * p.ld;
          Real gt = 0;
          for (int64_t c = 0; c < p.d; ++c) gt += dr[c] * vt[c];
          F[i] = gt * rem[i];
          Real* dvt = bf.dv + (r0 + i) * bf.dp;
          for (int64_t c = 0; c < p.d; ++c) dvt[c] += rem[i] * dr[c];
        }
        tile_logit_grads(tl, bf.zt, bf.at, bf.gt, F);
        // dv_j += sum_t A_tj dO_t;  dk_j += sum_t dz_tj s q_t;  dq_t = sum_j dz_tj s k_j.
        copy_padded(dout, tl.nq, p.d, p.ld, Real(1), bf.dos, tl.nqp, bf.dp);
        copy_padded(qd + o + r0 * p.ld, tl.nq, p.d, p.ld, p.scale, bf.qs, tl.nqp, bf.dp);
        tile_product(true, tl.mk, bf.dp, tl.nq, bf.at, kTile, 1, bf.dos, bf.dp, bf.dv + tl.klo * bf.dp, bf.dp);
        tile_product(true, tl.mk, bf.dp, tl.nq, bf.gt, kTile, 1, bf.qs, bf.dp, bf.dk + tl.klo * bf.dp, bf.dp);
        product_over_keys(tl, bf.gt, bf.k + tl.klo * bf.dp, bf.dp, bf.out);
        for (int64_t i = 0; i < tl.nq; ++i)
          std::copy(bf.out + i * bf.dp, bf.out + i * bf.dp + p.d, gq.data() + o + (r0 + i) * p.ld);
      }
      for (int64_t j = 0; j < rows; ++j) {
        std::copy(bf.dk + j * bf.dp, bf.dk + j * bf.dp + p.d, gk.data() + o + j * p.ld);
        std::copy(bf.dv + j * bf.dp, bf.dv + j * bf.dp + p.d, gv.data() + o + j * p.ld);
      }
    });
    add_sb_grads(t, q, k, v, gq, gk, gv);
  };
  return t.push("stickbreaking_attention", std::move(O), std::move(backward), {q, k, v});
}

}  // namespace

Var stickbreaking_attention(Tape& t, Var q, Var k, Var v, const std::vector<int32_t>& key_lengths,
                            const AttentionMask& mask, StickBreakingRule rule, Real scale) {
  return stickbreaking_with_plan(
      t, q, k, v, sb_plan("stickbreaking_attention", t, q, k, v, key_lengths, std::nullopt, mask, rule, scale));
}

Var stickbreaking_attention_packed(Tape& t, Var q, Var k, Var v, const std::vector<int32_t>& lengths, int64_t L,
                                   const AttentionMask& mask, StickBreakingRule rule, Real scale) {
  return stickbreaking_with_plan(t, q, k, v,
                                 sb_plan("stickbreaking_attention_packed", t, q, k, v, lengths, L, mask, rule, scale));
}

}  // namespace ordo
