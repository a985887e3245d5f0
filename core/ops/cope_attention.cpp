// core/ops/cope_attention.cpp: CoPE's softmax attention (Golovneva et al. 2024,
// arXiv 2405.18719; docs/spec.md §2.12) in O(L) memory: the kernel. core/ops/cope_reference.cpp
// composes the same formulas from tape ops; the tests hold this kernel to it, forward and
// backward.
//
// For one (batch entry b, head h), query t and its visible keys j, z_j = s q_t . k_j and
//   g_j = sigmoid(z_j),   p_j = min(C_j, P - 1),   C_j = sum_{l >= j visible} g_l
//   c_j = Q[lo_j] + w_j (Q[hi_j] - Q[lo_j]),   Q[n] = q_t . e[n],  lo = floor p, hi = ceil p,
//         w = p - lo
//   A_tj = softmax_j(z_j + c_j),   O_t = sum_j A_tj v_j
// and backward, with G_j = dO_t . v_j and D = sum_j A_tj G_j = dO_t . O_t:
//   dx_j = A_tj (G_j - D)                         the logit's gradient
//   dQ[lo_j] += dx_j (1 - w_j),  dQ[hi_j] += dx_j w_j
//   dp_j = dx_j (Q[hi_j] - Q[lo_j])               (0 when clamped: lo = hi = P - 1)
//   dz_j = dx_j + g_j (1 - g_j) sum_{m <= j} dp_m   (p_m counts g_j for every m <= j)
// then dq_t = s sum_j dz_j k_j + sum_n dQ[n] e[n],  dk_j += s dz_j q_t,  dv_j += A_tj dO_t,
// de[n] += dQ[n] q_t.
//
// How it is fast: as stick-breaking's kernel (core/ops/stickbreaking_attention.cpp), a tile
// of up to kTile queries and the key rows any of them sees are taken at once, key-major
// (row = key, column = query), so that
//   - z^T = (s K) q^T, Q^T = E q^T (only the positions the tile's sums reach, computed in
//     blocks of rows as they reach them) and every product of the backward are tile
//     products;
//   - the suffix sums C walk the key rows from the farthest visible key down (the reference's
//     order, a row summed from its end) and the backward's sums of dp the other way, one
//     vector of queries per step;
//   - the softmax of a query is over its whole row, held in the tile: no running rescale;
//     the forward saves each query's lse (base 2), so the backward's weights are one
//     exponential each, and D is dO . O;
//   - a key row's loops run over the lanes of the queries that see it (LaneRange): on the
//     diagonal tile, half of them. The key-major products (z^T, G^T) compute, per block of
//     kMR keys, the lanes that see one of them, rounded out to vectors (KeyBands,
//     core/ops/query_tiles.h: a superset of each row's LaneRange; the columns left out are
//     read by nothing); the sums over lanes (dk, dv) take those lanes, and the sums over keys
//     (A v, dz k) the keys a block of kMR lanes sees (product_over_seen_keys): the terms they
//     leave out are zeros, so for finite inputs the same bits as the full products.
// A pair (b, h) is one loop iteration, its tiles in order, and e's gradient is summed over
// the pairs in order afterwards, so the result has the same bits for any thread count. It
// differs from the reference in the last bits (docs/spec.md §2.12): the logits are summed
// in the product's order over s k rather than s (q . k), the sigmoid shares e^-|z| between
// its two forms, and the exponentials are core/fastmath.h's (float32).
//
// Memory: per thread, the pair's s k, v and e (zero-padded rows), its dk, dv and de sums and
// a few (L x kTile) tiles: O(L kTile + P d), nothing of size L^2. Saved for the backward: the
// output and lse (B H L values).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "core/fastmath.h"
#include "core/ops.h"
#include "core/ops/attention_geometry.h"
#include "core/ops/fused_attention_tiles.h"
#include "core/ops/query_tiles.h"
#include "core/parallel.h"

namespace ordo {
namespace {

struct CopePlan : AttentionGeometry {
  Real scale = 1;
  int64_t P = 1;  // e's rows

  // The keys query t sees: [lo, hi).
  std::pair<int64_t, int64_t> keys(int64_t b, int64_t t) const {
    const int64_t lo = mask.key_begin(t);
    return {lo, std::max(mask.key_end(t, key_lengths[b]), lo)};
  }
};

CopePlan cope_plan(const char* op, Tape& t, Var q, Var k, Var v, Var e, const std::vector<int32_t>& lengths,
                   std::optional<int64_t> packed_L, const AttentionMask& mask, Real scale) {
  CopePlan p{packed_L ? AttentionGeometry::packed(op, t.shape(q), t.shape(k), t.shape(v), lengths, *packed_L, mask)
                      : AttentionGeometry::padded(op, t.shape(q), t.shape(k), t.shape(v), lengths, mask),
             scale, 1};
  ORDO_CHECK(p.mask.causal, op, ": CoPE counts the keys up to the query: it needs a causal mask");
  ORDO_CHECK(std::isfinite(static_cast<double>(scale)), op, ": scale must be finite, got ", scale);
  const Shape& se = t.shape(e);
  ORDO_CHECK(se.rank() == 2 && se[1] == p.d && se[0] >= 1, op, ": e must be (P, ", p.d, ") with P >= 1, got ", se);
  p.P = se[0];
  return p;
}

// The per-thread buffers of one pair: s k, v as (Lk, dp) rows and e as (Pm, dp) rows, zero
// past the real ones; the backward's dk, dv, de sums the same way; key-major tiles (Lk, kTile)
// and position-major ones (Pm, kTile); query tiles (dp, kTile) and (kTile, dp).
struct CopeBuffers {
  int64_t Lk = 0, dp = 0, Pm = 0;
  Real *k = nullptr, *v = nullptr, *e = nullptr;
  // z^T, then the logits (forward) or the slopes Q[hi] - Q[lo] (backward); A^T; Q^T
  Real *zt = nullptr, *at = nullptr, *qet = nullptr;
  Real *gate = nullptr, *w = nullptr;                 // backward: g (1 - g) and w, key-major
  int32_t* lo = nullptr;                              // backward: floor p, as an index into Q^T
  int32_t *rows_a = nullptr, *rows_b = nullptr;       // backward: each key row's lanes (cope_logits)
  Real *dt = nullptr, *dqet = nullptr;                // backward: G^T then dz^T; dQ^T
  Real *dk = nullptr, *dv = nullptr, *de = nullptr;   // backward sums
  Real *qt = nullptr, *dot = nullptr;                 // q^T, dO^T (dp, kTile)
  Real *qs = nullptr, *qu = nullptr, *dos = nullptr, *out = nullptr;  // s q, q, dO, a product (kTile, dp)

  CopeBuffers(const CopePlan& p, bool backward) {
    // klo + mk <= L + kMR - 1 key rows are read: round L up and add a vector of rows.
    Lk = round_up(p.L, kVec) + kVec, dp = round_up(p.d, kVec), Pm = round_up(p.P, kMR);
    const int64_t pair = Lk * dp, tile = Lk * kTile, ptile = Pm * kTile, rows = kTile * dp, cols = dp * kTile;
    const int64_t n = 2 * pair + Pm * dp + 2 * tile + ptile + 4 * rows + 2 * cols +
                      (backward ? 2 * pair + Pm * dp + 3 * tile + ptile + 2 * kTile : 0);
    thread_local std::vector<Real> buffer;
    thread_local std::vector<int32_t> indices;
    if (buffer.size() < static_cast<size_t>(n)) buffer.resize(static_cast<size_t>(n));
    if (backward && indices.size() < static_cast<size_t>(tile + 2 * Lk))
      indices.resize(static_cast<size_t>(tile + 2 * Lk));
    Real* at_ = buffer.data();
    auto take = [&at_](int64_t m) { Real* r = at_; at_ += m; return r; };
    k = take(pair), v = take(pair), e = take(Pm * dp), zt = take(tile), at = take(tile), qet = take(ptile);
    qt = take(cols), dot = take(cols), qs = take(rows), qu = take(rows), dos = take(rows), out = take(rows);
    if (backward) {
      gate = take(tile), w = take(tile), dt = take(tile), dqet = take(ptile + 2 * kTile);  // + top and sink rows
      dk = take(pair), dv = take(pair), de = take(Pm * dp);
      lo = indices.data(), rows_a = lo + tile, rows_b = rows_a + Lk;
    }
  }
};

// The lanes of key row j that some query sees, [a, b) rounded out to whole vectors: the
// queries that see a key are consecutive, since AttentionMask's key_begin(t) and
// key_end(t, length) never decrease with t (QueryTile's lo and hi per lane), so as j falls,
// a and b move down. Lanes outside see nothing: their gates and weights are 0.
struct LaneRange {
  int64_t a, b;  // the lanes [a, b) that see the last key asked about, before rounding
  const QueryTile& tl;
  explicit LaneRange(const QueryTile& t) : a(t.nq), b(t.nq), tl(t) {}
  // For key j, not above the previous one: [lo, hi) in whole vectors.
  std::pair<int64_t, int64_t> at(int64_t j) {
    while (a > 0 && tl.hi[a - 1] > j) --a;
    while (b > a && tl.lo[b - 1] > j) --b;
    if (b <= a) return {0, 0};
    return {a / kVec * kVec, std::min(round_up(b, kVec), tl.nqp)};
  }
};

// The logits x = z + c over the tile's key rows, from the farthest visible key down (C, the
// gates' suffix sum, in that order). Q^T = E q^T is computed here, kPositionBlock rows at a
// time, as the sums reach them: C grows by at most one gate per key, and only the rows up to
// the largest ceil p are ever read, so a tile whose gates are mostly shut (or half open, as
// at init) does a fraction of the (P, d) x (d, kTile) product. Returns the rows computed, pm
// (a multiple of kMR, at most Pm): the backward's products over positions stop there.
// Forward (kBackward false): x in place of z^T (-inf where a query does not see a key) and
// each query's running maximum in m. Backward: the weights A = 2^(log2(e) x - lse) into A^T
// (lse: each query's, base 2, saved by the forward), and for the backward's sums, per (key,
// query): g (1 - g) in place of the gates, w, the slope Q[hi] - Q[lo] in place of z^T, floor p
// as an index into Q^T (floor p kTile + lane), and each row's lanes (rows_a, rows_b); 0 where
// unseen. Each key row runs loops over its lanes that the compiler vectorises: the
// gates, their sums and the positions; the gathers of Q^T (vector gathers on AVX-512;
// one lane at a time where GCC's tuning declines them, as it did on the Zen 3 VM); the logits.
constexpr int64_t kPositionBlock = 16;

template <bool kBackward>
ORDO_WIDE_LOOPS int64_t cope_logits(const CopePlan& p, const QueryTile& tl, CopeBuffers& bf, Real* __restrict m_or_lse) {
  const Real last = static_cast<Real>(p.P - 1);
  int64_t filled = 0;  // the rows of Q^T computed
  int32_t top = 0;     // the largest ceil p so far
  Real C[kTile], g_row[kTile], w_row[kTile], below[kTile], above[kTile];
  int32_t lo_row[kTile], hi_row[kTile], lane[kTile];
  for (int64_t i = 0; i < kTile; ++i) C[i] = 0, lane[i] = static_cast<int32_t>(i);
  Real* qet_rows = bf.qet;
  const Real* __restrict qet = bf.qet;
  LaneRange range(tl);
  for (int64_t jj = tl.nk - 1; jj >= 0; --jj) {
    const int64_t j = tl.klo + jj, r = jj * kTile;
    const auto [i0, i1] = range.at(j);
    Real* __restrict z = bf.zt + r;
    Real* __restrict g = kBackward ? bf.gate + r : g_row;
    Real* __restrict w = kBackward ? bf.w + r : w_row;
    int32_t* __restrict lo = kBackward ? bf.lo + r : lo_row;
    int32_t* __restrict hi = hi_row;  // read by the gathers below only
    if constexpr (kBackward) bf.rows_a[jj] = static_cast<int32_t>(i0), bf.rows_b[jj] = static_cast<int32_t>(i1);
    for (int64_t i = i0; i < i1; ++i) {
      const bool sees = (j >= tl.lo[i]) & (j < tl.hi[i]);
      const Real u = exp2_nonpositive(-kLog2e * std::fabs(z[i]));
      const Real rc = Real(1) / (Real(1) + u);
      const Real gi = sees ? (z[i] >= 0 ? rc : u * rc) : Real(0);  // sigmoid(z): r or e^-|z| r
      C[i] += gi;
      g[i] = kBackward ? gi * (z[i] >= 0 ? u * rc : rc) : gi;  // g (1 - g), 1 - g as e^-|z| r or r
      const Real pos = std::min(C[i], last), f = std::floor(pos);
      w[i] = pos - f;
      lo[i] = static_cast<int32_t>(f) * static_cast<int32_t>(kTile) + lane[i];
      const int32_t h = static_cast<int32_t>(std::min(std::ceil(pos), last));
      top = std::max(top, h);
      hi[i] = h * static_cast<int32_t>(kTile) + lane[i];
    }
    if (top >= filled) {  // Q^T's next rows, to the end of the block of 16 holding the largest ceil p
      const int64_t to = std::min(round_up(top + 1, kPositionBlock), round_up(p.P, kMR));
      tile_product(false, to - filled, tl.nqp, p.d, bf.e + filled * bf.dp, bf.dp, 1, bf.qt, kTile, qet_rows + filled * kTile, kTile);
      filled = to;
    }
    for (int64_t i = i0; i < i1; ++i) below[i] = qet[lo[i]], above[i] = qet[hi[i]];
    if constexpr (kBackward) {
      Real* __restrict a = bf.at + r;
      for (int64_t i = i0; i < i1; ++i) {
        const bool sees = (j >= tl.lo[i]) & (j < tl.hi[i]);
        const Real slope = above[i] - below[i], x = z[i] + (below[i] + w[i] * slope);
        a[i] = sees ? exp2_nonpositive(std::min(kLog2e * x - m_or_lse[i], Real(0))) : Real(0);
        z[i] = slope;
      }
      std::fill(a, a + i0, Real(0));
      std::fill(a + i1, a + tl.nqp, Real(0));
    } else {
      for (int64_t i = i0; i < i1; ++i) {
        const bool sees = (j >= tl.lo[i]) & (j < tl.hi[i]);
        const Real x = sees ? z[i] + (below[i] + w[i] * (above[i] - below[i])) : -std::numeric_limits<Real>::infinity();
        z[i] = x;
        m_or_lse[i] = std::max(m_or_lse[i], x);
      }
      std::fill(z, z + i0, -std::numeric_limits<Real>::infinity());
      std::fill(z + i1, z + tl.nqp, -std::numeric_limits<Real>::infinity());
    }
  }
  if constexpr (kBackward) std::fill(bf.at + tl.nk * kTile, bf.at + tl.mk * kTile, Real(0));
  return filled;
}

// The forward's weights: 2^(log2(e) (x - m)) into A^T (0 where unseen) and each query's sum
// in l, from the logits x^T and the maxima m (-inf for a query that sees no key: then 0
// everywhere). Rows past nk of A^T are zeroed; the caller divides by l.
ORDO_WIDE_LOOPS void cope_weights(const QueryTile& tl, const KeyBands& bands, const Real* __restrict xt,
                                  const Real* __restrict m, Real* __restrict at, Real* __restrict l) {
  Real shift[kTile];
  for (int64_t i = 0; i < kTile; ++i) {
    shift[i] = m[i] == -std::numeric_limits<Real>::infinity() ? Real(0) : kLog2e * m[i];
    l[i] = 0;
  }
  for (int64_t jj = 0; jj < tl.nk; ++jj) {  // over the lanes that see the key's block: 0 elsewhere
    const int64_t i0 = bands.col_begin[jj / kMR], i1 = bands.col_end[jj / kMR];
    Real* __restrict a = at + jj * kTile;
    for (int64_t i = i0; i < i1; ++i) {
      a[i] = exp2_nonpositive(kLog2e * xt[jj * kTile + i] - shift[i]);  // -inf: 0
      l[i] += a[i];
    }
    std::fill(a, a + i0, Real(0));
    std::fill(a + i1, a + tl.nqp, Real(0));
  }
  std::fill(at + tl.nk * kTile, at + tl.mk * kTile, Real(0));
}

// dz^T in place of G^T, and dQ^T (its first pm rows, and ±0 sums past them), from A^T, D (each
// query's dO . O) and what cope_logits<true> kept. The sums of dp walk the key rows from klo up,
// so that key j's sum holds every m <= j. Rows past nk of dz^T are zeroed. Each key row: one
// vectorised loop over its lanes (dx, dp, the sums, dz, and dQ's sums), then the stores of the
// positions finished.
//
// dQ[lo] += dx (1 - w) and dQ[hi] += dx w, summed without a read of dQ^T: walking the keys up,
// a query's position p = min(C, P - 1) never rises, and as C loses one gate (at most 1) a key,
// floor p steps down by 0 or 1, or by 2 where rounding took the forward's sum past a second
// integer (C = 2 - 2^-23 plus a gate of 1 rounds to 3); hi is floor p + 1, or w = 0. Each lane
// keeps the sums of its current floor n and of n + 1 (run_lo, run_hi); when the floor steps
// down, n + 1 is final and stored, the sum of n becomes that of the new n + 1 (a step of 2:
// it is final too, stored, and the new n + 1 starts at 0), and the new n's starts at 0. A lane's
// terms are added in key order, as a scatter would add them: the bits are the scatter's. Every
// store is of a finished sum, each position once; lanes with no step store into a sink, dQ^T's
// row Pm + 1 (row P <= Pm takes the top's n + 1: w = 0 there, a sum of ±0 past pm).
ORDO_WIDE_LOOPS void cope_logit_grads(const QueryTile& tl, int64_t pm, const Real* __restrict D, CopeBuffers& bf) {
  Real Dp[kTile], run_lo[kTile], run_hi[kTile], done[kTile], done_lo[kTile];
  int32_t at_lo[kTile], was_at[kTile], store_to[kTile];  // the run's floor as an index into dQ^T (-1: no run yet)
  for (int64_t i = 0; i < kTile; ++i) Dp[i] = run_lo[i] = run_hi[i] = 0, at_lo[i] = -1;
  const int32_t sink = static_cast<int32_t>((bf.Pm + 1) * kTile), row = static_cast<int32_t>(kTile);
  const Real* __restrict at = bf.at;
  Real* __restrict dt = bf.dt;
  Real* __restrict dqet = bf.dqet;
  std::fill(dqet, dqet + pm * kTile, Real(0));
  for (int64_t jj = 0; jj < tl.nk; ++jj) {
    const int64_t r = jj * kTile, i0 = bf.rows_a[jj], i1 = bf.rows_b[jj];
    const Real* __restrict w = bf.w + r;
    const Real* __restrict gg = bf.gate + r;   // g (1 - g)
    const Real* __restrict slope = bf.zt + r;  // Q[hi] - Q[lo]
    const int32_t* __restrict lo = bf.lo + r;
    int32_t two_any = 0;
    for (int64_t i = i0; i < i1; ++i) {
      const Real dx = at[r + i] * (dt[r + i] - D[i]);
      Dp[i] += dx * slope[i];
      dt[r + i] = dx + Dp[i] * gg[i];
      const bool step = (lo[i] != at_lo[i]) & (at_lo[i] >= 0);  // the floor fell
      const bool two = step & (at_lo[i] - lo[i] > row);         // by two
      two_any |= static_cast<int32_t>(two);
      done[i] = run_hi[i], done_lo[i] = run_lo[i], was_at[i] = at_lo[i];
      store_to[i] = step ? at_lo[i] + row : sink;
      run_hi[i] = step ? (two ? Real(0) : run_lo[i]) : run_hi[i];
      run_lo[i] = step ? Real(0) : run_lo[i];
      at_lo[i] = lo[i];
      run_lo[i] += dx * (Real(1) - w[i]);
      run_hi[i] += dx * w[i];
    }
    std::fill(dt + r, dt + r + i0, Real(0));
    std::fill(dt + r + i1, dt + r + tl.nqp, Real(0));
    for (int64_t i = i0; i < i1; ++i) dqet[store_to[i]] = done[i];
    if (two_any)  // rare: the old floor's own sum is final too
      for (int64_t i = i0; i < i1; ++i)
        if (was_at[i] >= 0 && was_at[i] - lo[i] > row) dqet[was_at[i]] = done_lo[i];
  }
  for (int64_t i = 0; i < tl.nqp; ++i)
    if (at_lo[i] >= 0) dqet[at_lo[i]] = run_lo[i], dqet[at_lo[i] + kTile] = run_hi[i];
  std::fill(dt + tl.nk * kTile, dt + tl.mk * kTile, Real(0));
}

// q^T into bf.qt, z^T = (s K) q^T over the lanes that see each key block (KeyBands), then the
// logits and the rows of Q^T = E q^T they reach (cope_logits; m_or_lse as there, the
// forward's maxima starting at -inf). Returns those rows.
template <bool kBackward>
int64_t cope_tile_logits(const CopePlan& p, const QueryTile& tl, const KeyBands& bands, const Real* q, CopeBuffers& bf,
                         Real* m_or_lse) {
  copy_transposed(q + tl.r0 * p.ld, tl.nq, p.d, p.ld, bf.qt, tl.nqp);
  key_major_product(tl, bands, p.d, bf.k + tl.klo * bf.dp, bf.dp, bf.qt, bf.zt);
  return cope_logits<kBackward>(p, tl, bf, m_or_lse);
}

// The pair's s k and v, and e, as zero-padded rows.
void cope_load_pair(const CopePlan& p, int64_t rows, const Real* k, const Real* v, const Real* e, CopeBuffers& bf) {
  copy_padded(k, rows, p.d, p.ld, p.scale, bf.k, bf.Lk, bf.dp);
  copy_padded(v, rows, p.d, p.ld, Real(1), bf.v, bf.Lk, bf.dp);
  copy_padded(e, p.P, p.d, p.d, Real(1), bf.e, bf.Pm, bf.dp);
}

Var cope_with_plan(Tape& t, Var q, Var k, Var v, Var e, const CopePlan& p) {
  const Tensor& Q = t.value(q);
  Tensor O = Tensor::empty(Q.shape());
  Tensor lse = Tensor::empty(Shape{p.B, p.H, p.L});  // each query's log2 sum_j 2^(log2(e) x_j)
  const Real *qd = Q.data(), *kd = t.value(k).data(), *vd = t.value(v).data(), *ed = t.value(e).data();
  Real *od = O.data(), *lsed = lse.data();
  parallel_for(p.B * p.H, 2 * p.L * (p.L + p.P) * p.d + 1, [&](int64_t bh) {
    const int64_t b = bh / p.H, h = bh % p.H, o = p.offset(b, h);
    CopeBuffers bf(p, false);
    cope_load_pair(p, p.rows(b), kd + o, vd + o, ed, bf);
    Real m[kTile], l[kTile];
    for (int64_t r0 = 0; r0 < p.rows(b); r0 += kTile) {
      const QueryTile tl(p, b, r0);
      const KeyBands bands(tl);
      std::fill(m, m + kTile, -std::numeric_limits<Real>::infinity());
      cope_tile_logits<false>(p, tl, bands, qd + o, bf, m);
      cope_weights(tl, bands, bf.zt, m, bf.at, l);
      product_over_seen_keys(tl, bf.at, bf.v + tl.klo * bf.dp, bf.dp, bf.out);  // A v, unnormalised
      for (int64_t i = 0; i < tl.nq; ++i) {  // a query that sees no key (l = 0): zeros, lse = -inf
        const Real inv = l[i] > 0 ? Real(1) / l[i] : Real(0);
        Real* dst = od + o + (r0 + i) * p.ld;
        for (int64_t c = 0; c < p.d; ++c) dst[c] = bf.out[i * bf.dp + c] * inv;
        lsed[bh * p.L + r0 + i] =
            l[i] > 0 ? kLog2e * m[i] + fast_log2(l[i]) : -std::numeric_limits<Real>::infinity();
      }
    }
  });

  Tape::Backward backward = [q, k, v, e, p, O, lse](Tape& t, const Tensor& dO) {
    const bool want_q = t.needs_grad(q), want_k = t.needs_grad(k), want_v = t.needs_grad(v);
    const bool want_e = t.needs_grad(e);
    if (!want_q && !want_k && !want_v && !want_e) return;
    // Separate buffers: q, k, v may be one Var. Each pair writes its own head's columns of
    // every row of its sequence (a padded one's L rows), so together they write every entry:
    // no zeroing first. Its part of de goes into its own slot, summed in order below.
    Tensor gq = Tensor::empty(t.shape(q)), gk = Tensor::empty(t.shape(k)), gv = Tensor::empty(t.shape(v));
    std::vector<Real> de_parts(static_cast<size_t>(p.B * p.H * p.P * p.d));
    const Real *qd = t.value(q).data(), *kd = t.value(k).data(), *vd = t.value(v).data();
    const Real *ed = t.value(e).data(), *dod = dO.data(), *od = O.data(), *lsed = lse.data();
    parallel_for(p.B * p.H, 6 * p.L * (p.L + p.P) * p.d + 1, [&](int64_t bh) {
      const int64_t b = bh / p.H, h = bh % p.H, o = p.offset(b, h), rows = p.rows(b);
      CopeBuffers bf(p, true);
      cope_load_pair(p, rows, kd + o, vd + o, ed, bf);
      std::fill(bf.dk, bf.dk + bf.Lk * bf.dp, Real(0));
      std::fill(bf.dv, bf.dv + bf.Lk * bf.dp, Real(0));
      std::fill(bf.de, bf.de + bf.Pm * bf.dp, Real(0));
      for (int64_t r0 = 0; r0 < rows; r0 += kTile) {
        const QueryTile tl(p, b, r0);
        const KeyBands bands(tl);
        const Real* dout = dod + o + r0 * p.ld;
        // lse and D = dO . O of the tile's queries (0 past nq), then A^T from the logits.
        Real lse_t[kTile], D[kTile];
        for (int64_t i = 0; i < kTile; ++i) {
          const Real row = i < tl.nq ? lsed[bh * p.L + r0 + i] : -std::numeric_limits<Real>::infinity();
          lse_t[i] = row == -std::numeric_limits<Real>::infinity() ? Real(0) : row;  // unseen everywhere: A = 0
          D[i] = 0;
          if (i < tl.nq)
            for (int64_t c = 0; c < p.d; ++c) D[i] += dout[i * p.ld + c] * od[o + (r0 + i) * p.ld + c];
        }
        const int64_t pm = cope_tile_logits<true>(p, tl, bands, qd + o, bf, lse_t);
        // G^T = V dO^T, then dz^T and dQ^T.
        copy_transposed(dout, tl.nq, p.d, p.ld, bf.dot, tl.nqp);
        key_major_product(tl, bands, p.d, bf.v + tl.klo * bf.dp, bf.dp, bf.dot, bf.dt);
        cope_logit_grads(tl, pm, D, bf);
        // dv_j += sum_t A_tj dO_t;  dk_j += sum_t dz_tj s q_t;  de[n] += sum_t dQ[n, t] q_t;
        // dq_t = sum_j dz_tj s k_j + sum_n dQ[n, t] e[n]. A^T and dz^T are 0 where a lane
        // does not see a key: the sums over lanes and over keys take the seen ones only.
        copy_padded(dout, tl.nq, p.d, p.ld, Real(1), bf.dos, tl.nqp, bf.dp);
        copy_padded(qd + o + r0 * p.ld, tl.nq, p.d, p.ld, p.scale, bf.qs, tl.nqp, bf.dp);
        copy_padded(qd + o + r0 * p.ld, tl.nq, p.d, p.ld, Real(1), bf.qu, tl.nqp, bf.dp);
        const Bands by_lanes{nullptr, bands.lane_begin, bands.lane_end};
        tile_product_bands(true, tl.mk, bf.dp, tl.nq, by_lanes, bf.at, kTile, 1, bf.dos, bf.dp, bf.dv + tl.klo * bf.dp, bf.dp);
        tile_product_bands(true, tl.mk, bf.dp, tl.nq, by_lanes, bf.dt, kTile, 1, bf.qs, bf.dp, bf.dk + tl.klo * bf.dp, bf.dp);
        tile_product(true, pm, bf.dp, tl.nq, bf.dqet, kTile, 1, bf.qu, bf.dp, bf.de, bf.dp);
        product_over_seen_keys(tl, bf.dt, bf.k + tl.klo * bf.dp, bf.dp, bf.out);
        for (int64_t n0 = 0; n0 < pm; n0 += kTile)  // in kTile rows of e at a time, as over keys
          tile_product(true, tl.nqp, bf.dp, std::min(kTile, pm - n0), bf.dqet + n0 * kTile, 1, kTile,
                       bf.e + n0 * bf.dp, bf.dp, bf.out, bf.dp);
        for (int64_t i = 0; i < tl.nq; ++i)
          copy_row(bf.out + i * bf.dp, p.d, gq.data() + o + (r0 + i) * p.ld);
      }
      for (int64_t j = 0; j < rows; ++j) {
        copy_row(bf.dk + j * bf.dp, p.d, gk.data() + o + j * p.ld);
        copy_row(bf.dv + j * bf.dp, p.d, gv.data() + o + j * p.ld);
      }
      Real* part = de_parts.data() + bh * p.P * p.d;
      for (int64_t n = 0; n < p.P; ++n) copy_row(bf.de + n * bf.dp, p.d, part + n * p.d);
    });
    if (want_q) t.add_grad(q, std::move(gq));
    if (want_k) t.add_grad(k, std::move(gk));
    if (want_v) t.add_grad(v, std::move(gv));
    if (want_e) {
      Tensor ge = Tensor::zeros(t.shape(e));
      for (int64_t bh = 0; bh < p.B * p.H; ++bh)  // in order: the same bits for any thread count
        for (int64_t x = 0; x < p.P * p.d; ++x) ge[x] += de_parts[static_cast<size_t>(bh * p.P * p.d + x)];
      t.add_grad(e, std::move(ge));
    }
  };
  return t.push("cope_attention", std::move(O), std::move(backward), {q, k, v, e});
}

}  // namespace

Var cope_attention(Tape& t, Var q, Var k, Var v, Var e, const std::vector<int32_t>& key_lengths,
                   const AttentionMask& mask, Real scale) {
  return cope_with_plan(t, q, k, v, e, cope_plan("cope_attention", t, q, k, v, e, key_lengths, std::nullopt, mask, scale));
}

Var cope_attention_packed(Tape& t, Var q, Var k, Var v, Var e, const std::vector<int32_t>& lengths, int64_t L,
                          const AttentionMask& mask, Real scale) {
  return cope_with_plan(t, q, k, v, e, cope_plan("cope_attention_packed", t, q, k, v, e, lengths, L, mask, scale));
}

}  // namespace ordo
