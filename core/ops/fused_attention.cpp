// core/ops/fused_attention.cpp: fused scaled-dot-product attention with an online softmax.
//
// q, k, v and the output are (B, L, H, d): the layout the projections produce, so the
// attention layer reshapes instead of permuting (4 permutes per layer were 6% of a tiny
// step). One (b, h) pair reads its rows of q, k with stride H d (v: H d_v). Packed sequences
// (fused_attention_packed) are (T, H, d) (v: (T, H, d_v)) with sequence b a run of lengths[b] rows: the same
// kernels, over that sequence's rows only (AttentionGeometry::starts).
//
// For one (batch entry b, head h), with q, k (L, d), v (L, d_v) and scale s (d_v may differ
// from d: PoPE's queries and keys are twice as wide as its values; v and O then have rows of
// their own width, p.dv, p.ldv apart, and every value-side array is p.dvp wide):
//   S[t, u] = f_t (s q_t . k_u + the logit terms)   (-inf where key u is masked for query t)
//   lse_t   = log sum_u exp(S[t, u])
//   P[t, u] = exp(S[t, u] - lse_t)             (the softmax of row t)
//   O_t     = sum_u P[t, u] v_u
// The logit terms (bias table, forget term, relative keys) are units, one file each under
// core/ops/attention_terms/ (term.h says what a unit does), run in the order of their list
// (attention_terms/list.h). f_t is SSMax's row factor s_h log n_t (1 without it), the one thing this file adds
// to the terms.
//
// Forward (FlashAttention style): query tiles x key tiles. Each query row keeps a running
// max m, a running sum l and an accumulator a (d values); for every key tile
//   m' = max(m, max_u S[t, u]),   alpha = exp(m - m'),   p_u = exp(S[t, u] - m')
//   l' = alpha l + sum_u p_u,     a' = alpha a + sum_u p_u v_u
// and at the end O_t = a / l, lse_t = m + log l. Saved for the backward: O and lse only
// (B L H (d + 1) values); no (L, L) tensor exists, only (64, 64) tiles of scratch.
// In the code the scores are in base 2, S' = log2(e) S (q is scaled by log2(e) s and the
// terms by log2(e)), so every exp is an exp2 and lse is saved as log2 sum_u 2^S'[t, u]:
// the same P, with a cheaper exponential.
//
// Backward, given dO (B, L, H, d). From O_t = sum_u P[t, u] v_u:
//   dV[u]    = sum_t P[t, u] dO_t
//   dP[t, u] = dO_t . v_u
// From the softmax of row t (dS = dP elementwise minus its P-weighted row mean):
//   dS[t, u] = P[t, u] (dP[t, u] - D_t),   D_t = sum_u P[t, u] dP[t, u] = dO_t . O_t
// From S = f_t (s q k^T + terms):
//   dQ[t] = f_t s sum_u dS[t, u] k_u,   dK[u] = s sum_t f_t dS[t, u] q_t,
// and each term's gradient from f_t dS (its unit's gradient()). SSMax:
//   dL/ds_h = sum_t log n_t sum_u dS[t, u] z[t, u],  z = s q k^T + terms
//           = sum_t log n_t (s q_t . dQacc_t + sum_u dS[t, u] terms[t, u]).
// The backward recomputes P tile by tile from q, k and the saved lse with the very same code
// as the forward, so S is bitwise the same.
//
// Masks (AttentionMask, core/ops.h): query t sees the keys [key_begin(t), key_end(t)): key
// padding, causal and a sliding window. With a window the key tiles outside every row's
// range are skipped (O(L W) work). A row with every key masked (key_lengths[b] = 0)
// outputs zeros and gets zero gradients. Padded query rows (t >= key_lengths[b]) attend to
// the real keys, as in the unfused composition.
//
// Threads: each (b, h) pair is owned by one loop iteration and computed in a fixed order.
// A term whose gradient is summed over the batch either sums per-(b, h) partial rows over b
// in order afterwards, or asks for one head per iteration (head_order), looping over b in
// order. So the results are bit-identical for any OMP_NUM_THREADS.
//
// Speed (the building blocks are in core/ops/fused_attention_tiles.h; the plain reference
// kernel of the whole op is core/ops/attention_reference.cpp): every product is the small
// kernel tile_product (4 x 2-vector or 8 x 1-vector
// register blocks of the widest vectors the build targets: AVX-512 when -march=native has
// it, else AVX2) on zero-padded tiles, so inner loops have fixed trip counts; d is padded to
// one vector, not two (d_h = 16 is one AVX-512 vector: padding it to 32 doubled the P V
// products; tiny on a Zen 5 went from 46% to 51% of peak with both changes). exp is
// core/fastmath.h's vectorisable polynomial (Cephes expf, <= 1.4 ulp) in float32. Where a
// mask hides part of a tile (the upper triangle of a causal diagonal tile, a window's edge),
// the products leave it out by bands of kMR rows (QueryBands, tile_product_bands): the terms
// left out are exact zeros, so the bits are those of the whole tile's products (up to the
// sign of a zero, and but for inf or NaN at masked keys, which 0 x inf no longer spreads).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/ops.h"
#include "core/ops/attention_geometry.h"
#include "core/ops/attention_terms/list.h"
#include "core/ops/fused_attention_tiles.h"
#include "core/parallel.h"

namespace ordo {
namespace {

// Per-thread scratch for one (b, h) pair, reused across pairs and calls (it only grows).
// Uninitialised: the kernels write every entry they later read (the 64 KB a pair's backward
// used to zero-fill in a fresh vector cost as much as its tile products at L = 64, d = 16).
Real* pair_scratch(size_t n) {
  thread_local std::vector<Real> buffer;
  if (buffer.size() < n) buffer.resize(n);
  return buffer.data();
}

// Lays out a kernel's arrays one after another in this thread's pair scratch. arrays(take)
// names each array beside its size, take(array, n); it runs twice, to count and to place.
template <class Arrays>
void carve_scratch(Arrays&& arrays) {
  int64_t total = 0;
  arrays([&](Real*&, int64_t n) { total += n; });
  Real* at = pair_scratch(static_cast<size_t>(total));
  arrays([&](Real*& array, int64_t n) {
    array = at;
    at += n;
  });
}

// Everything the kernels need to know about one call: the geometry, the scale and the
// logit terms' units.
struct Plan : KernelPlan {
  explicit Plan(AttentionGeometry g) : KernelPlan(std::move(g)) {}
  int64_t dvp = 0;  // d_v padded to a multiple of kVec
  std::optional<Var> log_length_scale;  // SSMax's s (H)
  LogitTermUnits terms;
};

// The units' gradient slots of one backward call (Term::Grads, in the list's order).
template <class Units>
struct GradsOf;
template <class... Units>
struct GradsOf<std::tuple<Units...>> {
  using type = std::tuple<typename Units::Grads...>;
};
using LogitTermGrads = GradsOf<LogitTermUnits>::type;
constexpr auto kTermIndices = std::make_index_sequence<std::tuple_size_v<LogitTermUnits>>{};

// Each unit's state for one (b, h) pair (grads: null in the forward).
template <size_t... I>
auto pair_terms(LogitTermUnits& units, const PairAt& at, LogitTermGrads* grads, std::index_sequence<I...>) {
  return std::make_tuple(typename std::tuple_element_t<I, LogitTermUnits>::Pair(
      std::get<I>(units), at, grads ? &std::get<I>(*grads) : nullptr)...);
}
// unit.reduce(its grads) for each unit, in order.
template <size_t... I>
void reduce_terms(const LogitTermUnits& units, LogitTermGrads& grads, std::index_sequence<I...>) {
  (std::get<I>(units).reduce(std::get<I>(grads)), ...);
}

// The masked part of a tile pair (query rows t0 .. t0 + nq - 1, keys u0 .. u0 + nk - 1), to
// leave out of its products (causal: the upper triangle of the diagonal tile; a window: the
// keys outside it). key_begin(t) and key_end(t) do not fall as t grows (core/ops.h), so per
// block r of kMR query rows, key_end[r] (its last real row's visible end; 0 for a block of
// padding rows) bounds every key its rows see, and per block of kMR keys the queries that see
// one of them are an interval [q_begin, q_end). cols_end[r] = key_end[r] rounded to kColStep
// (at most cols): the score columns to compute. banded = false where every row sees every key
// of the tile (the plain products then).
struct QueryBands {
  bool banded = false;
  int64_t key_end[kTile / kMR], cols_end[kTile / kMR];  // per block of query rows
  int64_t q_begin[kTile / kMR], q_end[kTile / kMR];     // per block of keys
  QueryBands(const Plan& p, int64_t b, int64_t t0, int64_t nq, int64_t u0, int64_t nk) {
    int64_t lo[kTile], nv[kTile];
    for (int64_t i = 0; i < nq; ++i) {
      std::tie(lo[i], nv[i]) = p.visible_columns(b, t0 + i, u0, nk);
      banded = banded || lo[i] > 0 || nv[i] < nk;
    }
    if (!banded) return;
    const int64_t rows = tile_rows(nq), cols = tile_cols(nk);
    for (int64_t r = 0; r * kMR < rows; ++r) {
      const int64_t last = std::min(nq, (r + 1) * kMR) - 1;
      key_end[r] = last >= r * kMR ? nv[last] : 0;
      cols_end[r] = std::min(cols, round_up(key_end[r], kColStep));
    }
    int64_t i0 = 0, i1 = 0;
    for (int64_t r = 0; r * kMR < nk; ++r) {
      const int64_t x0 = r * kMR;
      while (i0 < nq && nv[i0] <= x0) ++i0;          // rows before i0 see no key >= x0
      while (i1 < nq && lo[i1] < x0 + kMR) ++i1;     // rows from i1 on see no key < x0 + kMR
      q_begin[r] = i0;
      q_end[r] = std::max(i0, i1);
    }
  }
  // The products' bands (tile_product_bands); with banded = false none, every row, column and
  // term: the plain product.
  Bands columns() const { return banded ? Bands{cols_end, nullptr, nullptr} : Bands{}; }    // scores and dP
  Bands over_keys() const { return banded ? Bands{nullptr, nullptr, key_end} : Bands{}; }   // P V and dS K
  Bands over_queries() const { return banded ? Bands{nullptr, q_begin, q_end} : Bands{}; }  // P^T dO and dS^T Q
  // The columns of row i that the scores computed.
  int64_t computed(int64_t i, int64_t cols) const { return banded ? cols_end[i / kMR] : cols; }
};

// Raw scores of one tile: S (rows, cols) = Qs (rows, dp) Kt (d, cols) + the terms, with -inf
// at masked keys, for the query tile starting at t0 (nq real rows) and the key tile starting
// at u0 (nk real keys); S has row stride kTile. Rows >= nq are -inf. Shared by forward and
// backward, so the backward sees bitwise the forward's scores. With SSMax, Qs's rows already
// carry their factors, and factor (of every row, or null) scales the terms' rows.
// columns (QueryBands::columns): per block of kMR rows, the columns its product computes; the
// rest are masked below like any masked key.
template <class Pairs>
void tile_scores(const Plan& p, int64_t b, Pairs& terms, const Real* factor, int64_t t0, int64_t nq, int64_t u0,
                 int64_t nk, const Real* Qs, const Real* Kt, Real* S, const Bands& columns) {
  const int64_t rows = tile_rows(nq), cols = tile_cols(nk);
  tile_product_bands<false>(rows, cols, p.d, columns, Qs, p.dp, 1, Kt, kTile, S, kTile);
  each(terms, [&](auto& term) { term.tile(t0, nq, u0, nk); });
  for (int64_t i = 0; i < rows; ++i) {
    Real* __restrict s = S + i * kTile;
    // Keys [lo, nv) of the tile are visible to this row.
    const auto [lo, nv] = i < nq ? p.visible_columns(b, t0 + i, u0, nk) : std::pair<int64_t, int64_t>{0, 0};
    const Real f = factor ? kLog2e * factor[t0 + i] : kLog2e;  // the terms' factor, base 2
    each(terms, [&](const auto& term) { term.add_scores(i, t0 + i, u0, lo, nv, f, s); });
    std::fill(s, s + lo, kNegInf);
    std::fill(s + nv, s + cols, kNegInf);
  }
}

// Forward of one (b, h): writes O (L rows, stride p.ldv) and lse (L). sscale: SSMax's s (H),
// or null.
void forward_pair(const Plan& p, LogitTermUnits& units, int64_t b, int64_t h, const Real* q, const Real* k,
                  const Real* v, const Real* sscale, Real* O, Real* lse) {
  const int64_t L = p.rows(b), d = p.d, dp = p.dp, ld = p.ld, dv = p.dv, dvp = p.dvp, ldv = p.ldv;
  const int64_t Lp = p.tiles() * kTile;
  // The pair's scratch arrays, each placed by name below.
  Real *Qs = nullptr, *acc = nullptr, *Vs = nullptr, *Kt = nullptr, *S = nullptr, *m = nullptr, *l = nullptr;
  Real *alpha = nullptr, *m_new = nullptr, *part = nullptr, *logn = nullptr, *factor = nullptr;
  PairAt at{p, b, h, L, p.offset(b, h), nullptr};  // the factors once placed, below
  auto terms = pair_terms(units, at, nullptr, kTermIndices);
  carve_scratch([&](auto&& take) {
    take(Qs, kTile * dp);  // (kTile, dp): scale * q
    take(acc, kTile * dvp);  // (kTile, dvp): running sum_u p_u v_u
    take(Vs, kTile * dvp);  // (kTile, dvp): v of the key tile
    take(Kt, dp * kTile);  // (dp, kTile): k of the key tile, transposed
    take(S, kTile * kTile);  // (kTile, kTile): scores, then probabilities
    take(m, kTile);  // (kTile): running max
    take(l, kTile);  // (kTile): running sum
    take(alpha, kTile);  // (kTile): rescaling of the previous tiles
    take(m_new, kTile);  // (kTile): the running max with this key tile
    take(part, kTile * kLanes);  // (kTile, kLanes): each row's sum of p_u, in lanes
    take(logn, Lp);  // (L): SSMax's log n_t
    take(factor, Lp);  // (L): SSMax's s_h log n_t
    each(terms, [&](auto& term) { term.scratch(take, false); });
  });
  if (sscale) p.log_lengths(sscale, b, h, 0, L, logn, factor);
  at.factor = sscale ? factor : nullptr;
  each(terms, [&](auto& term) { term.begin(false); });

  for (int64_t t0 = 0; t0 < L; t0 += kTile) {
    const int64_t nq = std::min(kTile, L - t0), rows = tile_rows(nq);
    copy_padded(q + t0 * ld, nq, d, ld, p.qscale, Qs, rows, dp);
    if (sscale)
      for (int64_t i = 0; i < nq; ++i)
        for (int64_t c = 0; c < dp; ++c) Qs[i * dp + c] *= factor[t0 + i];
    std::fill(m, m + rows, kNegInf);
    std::fill(l, l + rows, Real(0));
    const int64_t u_start = p.first_key_tile(t0);     // the earliest row of the tile
    const int64_t u_end = p.key_end(b, t0 + nq - 1);  // the widest row of the tile
    for (int64_t u0 = u_start; u0 < u_end; u0 += kTile) {
      const int64_t nk = std::min(kTile, u_end - u0), cols = tile_cols(nk);
      copy_transposed(k + u0 * ld, nk, d, ld, Kt, cols);
      copy_padded(v + u0 * ldv, nk, dv, ldv, 1, Vs, nk, dvp);
      const QueryBands bands(p, b, t0, nq, u0, nk);
      tile_scores(p, b, terms, sscale ? factor : nullptr, t0, nq, u0, nk, Qs, Kt, S, bands.columns());
      // The online softmax step, one pass over the rows per stage. Row by row, each row was
      // one long dependency chain (maximum, its horizontal reduction, the exps, their sum,
      // its horizontal reduction) that the next rows could hardly overlap with; by stages,
      // 256 pairs at L = 64, d = 16 on one thread: 1.41-1.43 -> 1.33-1.37 ms. The arithmetic
      // of each row is unchanged (the same bits).
      for (int64_t i = 0; i < rows; ++i) m_new[i] = std::max(m[i], row_max(S + i * kTile, cols));
      for (int64_t i = 0; i < rows; ++i) {
        Real* __restrict s = S + i * kTile;
        if (m_new[i] == kNegInf) {  // nothing visible yet: p = 0
          std::fill(s, s + cols, Real(0));
          continue;
        }
        exp_row(s, cols, m_new[i], part + i * kLanes);
      }
      for (int64_t i = 0; i < rows; ++i) {
        if (m_new[i] == kNegInf) {  // a and l stay 0
          alpha[i] = 1;
          continue;
        }
        alpha[i] = u0 > u_start ? exp2_nonpositive(m[i] - m_new[i]) : 0;  // the first key tile: nothing yet
        l[i] = alpha[i] * l[i] + lanes_sum(part + i * kLanes);
        m[i] = m_new[i];
      }
      if (u0 > u_start)  // rescale the earlier tiles' sum (the first key tile stores acc = P V)
        for (int64_t i = 0; i < rows; ++i) {
          Real* __restrict a = acc + i * dvp;
          const Real ai = alpha[i];
          for (int64_t c = 0; c < dvp; ++c) a[c] *= ai;
        }
      // acc (+)= P V (banded: over the keys up to each block's last visible one)
      tile_product_bands(u0 > u_start, rows, dvp, nk, bands.over_keys(), S, kTile, 1, Vs, dvp, acc, dvp);
    }
    // The rows' 1 / l and lse = m + log2 l (base 2, like the scores), in one loop over the
    // rows that vectorises (a log2f call per row was 10% of a forward pair at L = 40). A row
    // with every key masked (l = 0) gets lse = -inf, which marks it for the backward.
    Real* inv = alpha;  // free after the key tiles
    for (int64_t i = 0; i < nq; ++i) {
      inv[i] = Real(1) / l[i];
      lse[t0 + i] = l[i] == 0 ? kNegInf : m[i] + fast_log2(l[i]);
    }
    for (int64_t i = 0; i < nq; ++i) {
      Real* __restrict o = O + (t0 + i) * ldv;
      if (l[i] == 0) {  // every key masked (acc may be unwritten): zeros
        for (int64_t c = 0; c < dv; ++c) o[c] = 0;
        continue;
      }
      if (dv == dvp) {
        for (int64_t c = 0; c < dv; c += kVec) store_vec(o + c, load_vec(acc + i * dvp + c) * inv[i]);
      } else {
        for (int64_t c = 0; c < dv; ++c) o[c] = acc[i * dvp + c] * inv[i];
      }
    }
  }
}

// Gradient destinations of one (b, h) (row 0 of the pair, rows p.ld apart, dv's p.ldv); null where no
// gradient is needed. store: the buffer is new and uninitialised (Tape::Store), so every
// element of the pair is written, not added to. The terms' destinations are their units'.
struct PairGrads {
  Real* dq = nullptr;     // (L, d)
  Real* dk = nullptr;     // (L, d)
  Real* dv = nullptr;     // (L, d_v)
  Real* dscale = nullptr; // SSMax: this pair's part of dL/ds_h (one value, added to)
  bool store_q = false, store_k = false, store_v = false;
};

// Backward of one (b, h): adds (or stores) this pair's contributions to the gradients.
// With SSMax (sscale: s, H values), *g.dscale receives this pair's part of dL/ds_h.
void backward_pair(const Plan& p, LogitTermUnits& units, LogitTermGrads& term_grads, int64_t b, int64_t h, const Real* q,
                   const Real* k, const Real* v, const Real* sscale, const Real* O, const Real* lse, const Real* dO,
                   const PairGrads& g) {
  const int64_t L = p.rows(b), d = p.d, dp = p.dp, ld = p.ld, Lr = round_up(L, kMR);
  const int64_t dv = p.dv, dvp = p.dvp, ldv = p.ldv;
  const int64_t Lp = p.tiles() * kTile;
  // The pair's scratch arrays, each placed by name below.
  Real *Qs = nullptr, *dOs = nullptr, *dQacc = nullptr, *D = nullptr, *Kt = nullptr, *Vt = nullptr;
  Real *Ks = nullptr, *dKacc = nullptr, *dVacc = nullptr, *P = nullptr, *dS = nullptr, *logn = nullptr;
  Real *factor = nullptr, *terms_dot = nullptr;
  PairAt at{p, b, h, L, p.offset(b, h), nullptr};  // the factors once placed, below
  auto terms = pair_terms(units, at, &term_grads, kTermIndices);
  carve_scratch([&](auto&& take) {
    take(Qs, Lp * dp);  // (Lr, dp): scale * q
    take(dOs, Lp * dvp);  // (Lr, dvp): dO, zero padded
    take(dQacc, Lp * dp);  // (Lr, dp): sum_u dS[t, u] k_u
    take(D, Lp);  // (L): dO_t . O_t
    take(Kt, dp * kTile);  // (dp, kTile): k of the key tile, transposed
    take(Vt, dvp * kTile);  // (dvp, kTile): v of the key tile, transposed
    take(Ks, kTile * dp);  // (kTile, dp): k of the key tile
    take(dKacc, kTile * dp);  // (kTile, dp): sum_t dS[t, u] (s q_t)
    take(dVacc, kTile * dvp);  // (kTile, dvp): sum_t P[t, u] dO_t
    take(P, kTile * kTile);  // (kTile, kTile)
    take(dS, kTile * kTile);  // (kTile, kTile): dP, then dS
    take(logn, Lp);  // (L): SSMax's log n_t
    take(factor, Lp);  // (L): SSMax's s_h log n_t
    take(terms_dot, Lp);  // (L): SSMax, sum_u dS[t, u] (the terms' logits)
    each(terms, [&](auto& term) { term.scratch(take, true); });
  });

  copy_padded(q, L, d, ld, p.qscale, Qs, Lr, dp);
  const bool want_scale = sscale && g.dscale;
  if (sscale) {
    p.log_lengths(sscale, b, h, 0, L, logn, factor);
    for (int64_t t = 0; t < L; ++t)
      for (int64_t c = 0; c < dp; ++c) Qs[t * dp + c] *= factor[t];
    if (want_scale) std::fill(terms_dot, terms_dot + L, Real(0));
  }
  at.factor = sscale ? factor : nullptr;
  each(terms, [&](auto& term) { term.begin(true); });
  copy_padded(dO, L, dv, ldv, 1, dOs, Lr, dvp);
  for (int64_t t = 0; t < L; ++t) {  // D_t = dO_t . O_t
    if (dv == dvp) {  // whole vectors: lanes summed at the end
      VReal a{};
      for (int64_t c = 0; c < dv; c += kVec) a += load_vec(dO + t * ldv + c) * load_vec(O + t * ldv + c);
      Real acc = 0;
      for (int64_t j = 0; j < kVec; ++j) acc += a[j];
      D[t] = acc;
    } else {
      Real acc = 0;
      for (int64_t c = 0; c < dv; ++c) acc += dO[t * ldv + c] * O[t * ldv + c];
      D[t] = acc;
    }
  }
  const int64_t key_limit = p.key_lengths[b];
  // With a window a query tile's first key tile is not u0 = 0, and a query tile may see no
  // key at all: dQacc starts at zero and every key tile adds to it.
  const bool windowed = p.mask.window > 0;
  if (windowed) std::fill(dQacc, dQacc + Lp * dp, Real(0));
  for (int64_t u0 = 0; u0 < key_limit; u0 += kTile) {
    const int64_t nk = std::min(kTile, key_limit - u0), cols = tile_cols(nk);
    copy_transposed(k + u0 * ld, nk, d, ld, Kt, cols);
    copy_transposed(v + u0 * ldv, nk, dv, ldv, Vt, cols);
    copy_padded(k + u0 * ld, nk, d, ld, 1, Ks, nk, dp);
    // The queries that see a key of the tile: t >= u0 when causal, and within the window
    // of the tile's keys; every query tile from t_begin to t_end.
    int64_t t_first = p.mask.causal ? u0 : 0, t_end = L;
    if (windowed) {
      t_first = std::max<int64_t>(t_first, u0 - p.mask.window + 1);
      t_end = std::min<int64_t>(L, u0 + nk - 1 + p.mask.window);
    }
    const int64_t t_begin = t_first / kTile * kTile;
    for (int64_t t0 = t_begin; t0 < t_end; t0 += kTile) {
      const int64_t nq = std::min(kTile, L - t0), rows = tile_rows(nq);
      const Real* Qi = Qs + t0 * dp;
      const Real* dOi = dOs + t0 * dvp;
      const QueryBands bands(p, b, t0, nq, u0, nk);
      tile_scores(p, b, terms, sscale ? factor : nullptr, t0, nq, u0, nk, Qi, Kt, P, bands.columns());
      tile_product_bands<false>(rows, cols, dv, bands.columns(), dOi, dvp, 1, Vt, kTile, dS, kTile);  // dP
      // Only rows x cols of P and dS are written; the products below read within them
      // (tile_rows(nk) <= cols), and padded rows and columns hold P = dS = 0. With bands, dP
      // past a block's computed columns was not written: there P = dS = 0 are stored (masked
      // keys: the same zeros, up to the sign of dS's).
      for (int64_t i = 0; i < rows; ++i) {
        Real* __restrict pr = P + i * kTile;
        Real* __restrict ds = dS + i * kTile;
        const Real row_lse = i < nq ? lse[t0 + i] : kNegInf;
        if (row_lse == kNegInf) {  // padding row or every key masked: P = dS = 0
          std::fill(pr, pr + cols, Real(0));
          std::fill(ds, ds + cols, Real(0));
          continue;
        }
        const Real Di = D[t0 + i];
        const int64_t computed = bands.computed(i, cols);
        for (int64_t x = 0; x < computed; ++x) {
          pr[x] = exp2_nonpositive(pr[x] - row_lse);
          ds[x] = pr[x] * (ds[x] - Di);
        }
        std::fill(pr + computed, pr + cols, Real(0));
        std::fill(ds + computed, ds + cols, Real(0));
      }
      // The first query tile of a key tile stores into dKacc, dVacc; u0 = 0 (which every
      // query tile visits) stores into dQacc.
      const int64_t key_rows = tile_rows(nk);
      const bool add_kv = t0 > t_begin, add_q = windowed || u0 > 0;
      // Banded: each block of keys over the queries that see it, each block of queries over its keys.
      const Bands by_key = bands.over_queries(), by_query = bands.over_keys();
      if (g.dv) tile_product_bands(add_kv, key_rows, dvp, nq, by_key, P, 1, kTile, dOi, dvp, dVacc, dvp);  // P^T dO
      if (g.dk) tile_product_bands(add_kv, key_rows, dp, nq, by_key, dS, 1, kTile, Qi, dp, dKacc, dp);  // dS^T (s Q)
      if (g.dq || want_scale)
        tile_product_bands(add_q, rows, dp, nk, by_query, dS, kTile, 1, Ks, dp, dQacc + t0 * dp, dp);  // dS K
      each(terms, [&](auto& term) { term.gradient(dS, t0, nq, rows, u0, nk); });
      if (want_scale)
        for (int64_t i = 0; i < nq; ++i) {
          const int64_t t = t0 + i;
          const auto [lo, nv] = p.visible_columns(b, t, u0, nk);
          Real acc = 0;
          each(terms, [&](const auto& term) { acc = term.logit_dot(t, u0, lo, nv, dS + i * kTile, acc); });
          terms_dot[t] += acc;
        }
    }
    for (int64_t x = 0; x < nk; ++x) {
      // dKacc summed dS^T (qscale q) = log2(e) dS^T (s q): times ln 2.
      if (g.dk) write_row(g.dk + (u0 + x) * ld, dKacc + x * dp, d, kLn2, g.store_k);
      if (g.dv) write_row(g.dv + (u0 + x) * ldv, dVacc + x * dvp, dv, 1, g.store_v);
    }
  }
  // Keys at or after key_limit get no gradient: zeros when the buffers are new.
  for (int64_t u = key_limit; u < L; ++u) {
    if (g.dk && g.store_k) std::fill(g.dk + u * ld, g.dk + u * ld + d, Real(0));
    if (g.dv && g.store_v) std::fill(g.dv + u * ldv, g.dv + u * ldv + dv, Real(0));
  }
  if (g.dq) {
    if (key_limit > 0 || windowed) {
      for (int64_t t = 0; t < L; ++t)
        write_row(g.dq + t * ld, dQacc + t * dp, d, sscale ? p.scale * factor[t] : p.scale, g.store_q);
    } else if (g.store_q) {  // no key at all: dQacc was never written; the gradient is 0
      for (int64_t t = 0; t < L; ++t) std::fill(g.dq + t * ld, g.dq + t * ld + d, Real(0));
    }
  }
  each(terms, [&](auto& term) { term.finish(); });
  if (want_scale && (key_limit > 0 || windowed)) {
    Real acc = 0;
    for (int64_t t = 0; t < L; ++t) {
      Real qdot = 0;
      for (int64_t c = 0; c < d; ++c) qdot += q[t * ld + c] * dQacc[t * dp + c];
      each(terms, [&](const auto& term) { qdot = term.query_dot(t, qdot); });
      acc += logn[t] * (p.scale * qdot + terms_dot[t]);
    }
    *g.dscale += acc;
  }
}

// The checks and the terms' units, once the plan knows B, L, H, d and the lengths.
void check_plan(Tape& t, Plan& p, const LogitTerms& terms, const Shape& q_shape, const char* op, Real scale) {
  if (terms.log_length_scale) {
    const Shape& s = t.shape(*terms.log_length_scale);
    ORDO_CHECK(s == Shape{p.H}, op, ": the log-length scale (SSMax's s) must be (H) = (", p.H, ") for q ", q_shape,
               ", got ", s);
  }
  ORDO_CHECK(std::isfinite(static_cast<double>(scale)), op, ": scale must be finite, got ", scale);
  p.dp = round_up(std::max<int64_t>(p.d, 1), kVec);
  p.dvp = round_up(std::max<int64_t>(p.dv, 1), kVec);
  p.scale = scale;
  p.qscale = scale * kLog2e;
  p.log_length_scale = terms.log_length_scale;
  each(p.terms, [&](auto& unit) { unit = std::decay_t<decltype(unit)>(t, terms, p, q_shape, op); });
  check_more_terms<LogitTermUnits>(terms, op);
}

Var attention_with_plan(Tape& t, Var q, Var k, Var v, const Plan& p);

}  // namespace

Var fused_attention(Tape& t, Var q, Var k, Var v, const LogitTerms& terms,
                    const std::vector<int32_t>& key_lengths, const AttentionMask& mask, Real scale) {
  Plan p(AttentionGeometry::padded("fused_attention", t.shape(q), t.shape(k), t.shape(v), key_lengths, mask,
                                   AttentionGeometry::Values::any));
  check_plan(t, p, terms, t.shape(q), "fused_attention", scale);
  return attention_with_plan(t, q, k, v, p);
}

Var fused_attention_packed(Tape& t, Var q, Var k, Var v, const LogitTerms& terms,
                           const std::vector<int32_t>& lengths, int64_t L, const AttentionMask& mask, Real scale) {
  Plan p(AttentionGeometry::packed("fused_attention_packed", t.shape(q), t.shape(k), t.shape(v), lengths, L, mask,
                                   AttentionGeometry::Values::any));
  check_plan(t, p, terms, t.shape(q), "fused_attention_packed", scale);
  return attention_with_plan(t, q, k, v, p);
}

namespace {

Var attention_with_plan(Tape& t, Var q, Var k, Var v, const Plan& p) {
  const Tensor& Q = t.value(q);
  Tensor O = Tensor::empty(t.shape(v));              // (B, L, H, d_v)
  Tensor lse = Tensor::empty(Shape{p.B, p.H, p.L});  // (B, H, L)
  {
    LogitTermUnits units = p.terms;
    each(units, [&](auto& unit) { unit.bind(t); });
    const Real* sd = p.log_length_scale ? t.value(*p.log_length_scale).data() : nullptr;
    const Real *qd = Q.data(), *kd = t.value(k).data(), *vd = t.value(v).data();
    Real *od = O.data(), *ld = lse.data();
    parallel_for(p.B * p.H, 4 * p.L * p.L * p.d + 1, [&](int64_t bh) {
      const int64_t b = bh / p.H, h = bh % p.H, o = p.offset(b, h), ov = p.value_offset(b, h);
      forward_pair(p, units, b, h, qd + o, kd + o, vd + ov, sd, od + ov, ld + bh * p.L);
    });
  }

  Tape::Backward backward = [q, k, v, p, O, lse](Tape& t, const Tensor& dO) {
    const std::optional<Var>& scale_var = p.log_length_scale;
    const bool want_q = t.needs_grad(q), want_k = t.needs_grad(k), want_v = t.needs_grad(v);
    const bool want_scale = scale_var && t.needs_grad(*scale_var);
    bool want_terms = false, per_head = false;
    each(p.terms, [&](const auto& unit) {
      want_terms = want_terms || unit.wants_grad(t);
      per_head = per_head || unit.head_order(t);
    });
    if (!want_q && !want_k && !want_v && !want_scale && !want_terms) return;
    LogitTermUnits units = p.terms;
    each(units, [&](auto& unit) { unit.bind(t); });
    const Real* sd = scale_var ? t.value(*scale_var).data() : nullptr;
    const Real *qd = t.value(q).data(), *kd = t.value(k).data(), *vd = t.value(v).data();
    const Real *od = O.data(), *ld = lse.data(), *dod = dO.data();
    const int64_t cost = 10 * p.L * p.L * p.d + 1;
    // Every gradient buffer at hand before the pairs run, one slot each (Tape::grad_slot).
    // Each pair writes whole rows of dq, dk and dv (and of a term's row inputs): whether it
    // stores (a new buffer) or adds is taken once per buffer from its slot. When one Var is
    // two of them (self-attention without projections), the rows of both land in one
    // buffer: the pair would store its dq rows over the dk rows it added, so then every
    // buffer is a summed one, added to throughout. SSMax's s and the terms' tables are sums
    // over pairs.
    std::vector<Var> rows{q, k, v};
    each(units, [&](const auto& unit) { unit.row_inputs(rows); });
    bool shared = false;
    for (size_t i = 0; i < rows.size(); ++i)
      for (size_t j = 0; j < i; ++j) shared = shared || rows[i].id == rows[j].id;
    const Tape::GradSlot sq = slot_if(t, want_q, q, shared), sk = slot_if(t, want_k, k, shared);
    const Tape::GradSlot sv = slot_if(t, want_v, v, shared);
    const Tape::GradSlot sscale = slot_if(t, want_scale, scale_var.value_or(Var{}), true);
    LogitTermGrads term_grads = std::apply(  // braces: the slots open in the list's order
        [&](const auto&... unit) { return LogitTermGrads{unit.open(t, shared, per_head, p)...}; }, units);
    // SSMax: each pair's part of dL/ds_h, summed over b in order below.
    std::vector<Real> scale_parts(want_scale ? static_cast<size_t>(p.B * p.H) : 0, Real(0));
    auto run = [&](int64_t b, int64_t h) {
      const int64_t o = p.offset(b, h), ov = p.value_offset(b, h);
      PairGrads g;
      g.dq = sq.data() ? sq.data() + o : nullptr, g.store_q = sq.store();
      g.dk = sk.data() ? sk.data() + o : nullptr, g.store_k = sk.store();
      g.dv = sv.data() ? sv.data() + ov : nullptr, g.store_v = sv.store();
      g.dscale = want_scale ? scale_parts.data() + b * p.H + h : nullptr;
      backward_pair(p, units, term_grads, b, h, qd + o, kd + o, vd + ov, sd, od + ov, ld + (b * p.H + h) * p.L,
                    dod + ov, g);
    };
    if (per_head) {  // one head per iteration, batch entries in order
      parallel_for(p.H, p.B * cost, [&](int64_t h) {
        for (int64_t b = 0; b < p.B; ++b) run(b, h);
      });
    } else {
      parallel_for(p.B * p.H, cost, [&](int64_t bh) { run(bh / p.H, bh % p.H); });
    }
    reduce_terms(units, term_grads, kTermIndices);
    if (want_scale)
      for (int64_t h = 0; h < p.H; ++h) {
        Real acc = 0;
        for (int64_t b = 0; b < p.B; ++b) acc += scale_parts[b * p.H + h];
        sscale.data()[h] += acc;
      }
  };
  std::vector<Var> inputs{q, k, v};
  each(p.terms, [&](const auto& unit) { unit.inputs(inputs); });
  if (p.log_length_scale) inputs.push_back(*p.log_length_scale);
  return t.push("fused_attention", std::move(O), std::move(backward), inputs);
}

}  // namespace

}  // namespace ordo
