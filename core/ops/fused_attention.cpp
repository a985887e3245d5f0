// core/ops/fused_attention.cpp: fused scaled-dot-product attention with an online softmax.
//
// q, k, v and the output are (B, L, H, d): the layout the projections produce, so the
// attention layer reshapes instead of permuting (4 permutes per layer were 6% of a tiny
// step). One (b, h) pair reads its rows of q, k, v with stride H d. Packed sequences
// (fused_attention_packed) are (T, H, d) with sequence b a run of lengths[b] rows: the same
// kernels, over that sequence's rows only (Plan::starts).
//
// For one (batch entry b, head h), with q, k, v (L, d), scale s and a bias (or none):
//   S[t, u] = s q_t . k_u + bias[t, u]        (-inf where key u is masked for query t)
//             (+ s qr_t . R[row(t, u)] with relative keys: queries qr (L, d), keys R (N, d),
//              row(t, u) = pos(t) - pos(u) + offset; the other terms of LogitTerms alike)
//   lse_t   = log sum_u exp(S[t, u])
//   P[t, u] = exp(S[t, u] - lse_t)             (the softmax of row t)
//   O_t     = sum_u P[t, u] v_u
//
// Forward (FlashAttention style): query tiles x key tiles. Each query row keeps a running
// max m, a running sum l and an accumulator a (d values); for every key tile
//   m' = max(m, max_u S[t, u]),   alpha = exp(m - m'),   p_u = exp(S[t, u] - m')
//   l' = alpha l + sum_u p_u,     a' = alpha a + sum_u p_u v_u
// and at the end O_t = a / l, lse_t = m + log l. Saved for the backward: O and lse only
// (B L H (d + 1) values); no (L, L) tensor exists, only (64, 64) tiles of scratch.
// In the code the scores are in base 2, S' = log2(e) S (q is scaled by log2(e) s and the
// bias by log2(e)), so every exp is an exp2 and lse is saved as log2 sum_u 2^S'[t, u]:
// the same P, with a cheaper exponential.
//
// Backward, given dO (B, L, H, d). From O_t = sum_u P[t, u] v_u:
//   dV[u]    = sum_t P[t, u] dO_t
//   dP[t, u] = dO_t . v_u
// From the softmax of row t (dS = dP elementwise minus its P-weighted row mean):
//   dS[t, u] = P[t, u] (dP[t, u] - D_t),   D_t = sum_u P[t, u] dP[t, u] = dO_t . O_t
// From S = s q k^T + bias:
//   dQ[t] = s sum_u dS[t, u] k_u,   dK[u] = s sum_t dS[t, u] q_t,   dbias[t, u] = dS[t, u]
// summed over the batch for a full (H, L, L) bias, and along each diagonal u - t (and over
// the batch) for a relative (H, 2L - 1) one. Relative keys:
//   dqr[t] = s sum_u dS[t, u] R[row(t, u)],   dR[n] = s sum_{row(t, u) = n} dS[t, u] qr_t
// at contiguous positions by tile products over a tile pair's consecutive rows of R, at
// gapped ones by each pair's dot product with its row (PairRelative, below). The backward recomputes P tile by tile from q,
// k and the saved lse with the very same code as the forward, so S is bitwise the same.
//
// Masks (AttentionMask, core/ops.h): query t sees the keys [key_begin(t), key_end(t)): key
// padding, causal and a sliding window. With a window the key tiles outside every row's
// range are skipped (O(L W) work). A row with every
// key masked (key_lengths[b] = 0) outputs zeros and gets zero gradients. Padded query rows
// (t >= key_lengths[b]) attend to the real keys, as in the unfused composition.
//
// Threads: each (b, h) pair is owned by one loop iteration and computed in a fixed order.
// The relative-bias gradient goes into per-(b, h) partial rows summed over b in order
// afterwards; a full-bias gradient and the relative keys' gradient are computed one head per
// iteration, looping over b in order. So the results are bit-identical for any OMP_NUM_THREADS.
//
// Speed (the building blocks are in core/ops/fused_attention_tiles.h; the plain reference
// kernel of the whole op is core/ops/attention_reference.cpp): every product is the small
// kernel tile_product (4 x 2-vector or 8 x 1-vector
// register blocks of the widest vectors the build targets: AVX-512 when -march=native has
// it, else AVX2) on zero-padded tiles, so inner loops have fixed trip counts; d is padded to
// one vector, not two (d_h = 16 is one AVX-512 vector: padding it to 32 doubled the P V
// products; tiny on a Zen 5 went from 46% to 51% of peak with both changes). exp is
// core/fastmath.h's vectorisable polynomial (Cephes expf, <= 1.4 ulp) in float32.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "core/ops.h"
#include "core/ops/attention_geometry.h"
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

// The bias on the logits: none, relative (H, 2L - 1) with entry [h, (u - t) + L - 1], or
// full (H, L, L).
enum class BiasForm { none, relative, full };

// Everything the kernels need to know about one call.
// The geometry (core/ops/attention_geometry.h: shapes, lengths, packed rows, mask) and what
// the softmax kernel adds to it.
struct Plan : AttentionGeometry {
  explicit Plan(AttentionGeometry g) : AttentionGeometry(std::move(g)) {}
  int64_t dp = 0;  // d padded to a multiple of kVec
  Real scale = 1;
  Real qscale = 1;    // scale * log2(e): q's factor, for scores in base 2
  BiasForm bias_form = BiasForm::none;
  // Relative keys (LogitTerms::relative_keys): query t and key u of head h read row
  // pos(t) - pos(u) + rel_offset of the (N, H, d) keys; rel_span = pos(L - 1) - pos(0), so a
  // pair reads at most the 2 rel_span + 1 rows around rel_offset.
  bool relative_keys = false;
  std::vector<int32_t> rel_positions;  // empty: pos(t) = t
  int64_t rel_offset = 0, rel_span = 0;

  int64_t tiles() const { return (L + kTile - 1) / kTile; }
  // Offset of row 0 of pair (b, h) in the forget term F (rows of H values).
  int64_t forget_offset(int64_t b, int64_t h) const { return (starts.empty() ? b * L : starts[b]) * H + h; }
  // Keys [key_begin(t), key_end(b, t)) are visible to query t.
  int64_t key_begin(int64_t t) const { return mask.key_begin(t); }
  int64_t key_end(int64_t b, int64_t t) const { return mask.key_end(t, key_lengths[b]); }
  // The first key tile any query of the tile starting at t0 sees.
  int64_t first_key_tile(int64_t t0) const { return key_begin(t0) / kTile * kTile; }
  // SSMax: log n_t of queries t0 .. t0 + n - 1 into logn (n_t the keys query t sees; 0 for a
  // query that sees none), and their logits' factors s_h log n_t into factor.
  void log_lengths(const Real* s, int64_t b, int64_t h, int64_t t0, int64_t n, Real* logn, Real* factor) const {
    for (int64_t i = 0; i < n; ++i) {
      const int64_t keys = key_end(b, t0 + i) - key_begin(t0 + i);
      logn[i] = keys > 0 ? static_cast<Real>(std::log(static_cast<double>(keys))) : 0;
      factor[i] = s[h] * logn[i];
    }
  }
  int64_t rel_pos(int64_t t) const { return rel_positions.empty() ? t : rel_positions[static_cast<size_t>(t)]; }
  // Entries of one head's bias (and of its gradient).
  int64_t bias_per_head() const { return bias_form == BiasForm::relative ? 2 * L - 1 : L * L; }
  // Within one head's bias, the entry of query t and key u0 (the keys after u0 follow it).
  int64_t bias_index(int64_t t, int64_t u0) const {
    return bias_form == BiasForm::relative ? (u0 - t) + L - 1 : t * L + u0;
  }
  // First entry of the bias row of query t for keys from u0 on (contiguous in u).
  const Real* bias_row(const Real* bias, int64_t h, int64_t t, int64_t u0) const {
    return bias + h * bias_per_head() + bias_index(t, u0);
  }
};

// The relative keys' rows are kept dr = d rounded up to 8 wide (zero padded), and their dot
// products and updates run on vectors of 8 (GCC keeps a float sum in order, so a plain loop
// would be one dependent chain per pair): d_h = 8 is one vector.
using Vec8 = Real __attribute__((vector_size(8 * sizeof(Real))));
inline Vec8 load8(const Real* p) {
  Vec8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store8(Real* p, Vec8 v) { std::memcpy(p, &v, sizeof v); }
inline int64_t rel_width(int64_t d) { return round_up(d, 8); }
// dst (rows_out, w) = s * src (n rows of d, row stride ld), zero padded (copy_padded's
// vector path takes widths of whole registers only; w = rel_width(d) may be half of one).
void copy_rows8(const Real* __restrict src, int64_t n, int64_t d, int64_t ld, Real s, Real* __restrict dst,
                int64_t rows_out, int64_t w) {
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t c = 0; c < d; ++c) dst[i * w + c] = s * src[i * ld + c];
    for (int64_t c = d; c < w; ++c) dst[i * w + c] = 0;
  }
  std::fill(dst + n * w, dst + rows_out * w, Real(0));
}
// a . b over w (a multiple of 8) values, in a fixed association.
inline Real dot8(const Real* __restrict a, const Real* __restrict b, int64_t w) {
  Vec8 acc = load8(a) * load8(b);
  for (int64_t c = 8; c < w; c += 8) acc += load8(a + c) * load8(b + c);
  return ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
}
// y += s x over w (a multiple of 8) values.
inline void axpy8(Real s, const Real* __restrict x, Real* __restrict y, int64_t w) {
  for (int64_t c = 0; c < w; c += 8) store8(y + c, load8(y + c) + s * load8(x + c));
}

// The row stride of the relative keys' queries and of their gradient: wide enough for dot8
// (dr) and for tile_product (dp).
inline int64_t rel_qwidth(int64_t d, int64_t dp) { return std::max(rel_width(d), dp); }

// The relative keys of one pair: its query rows scaled as Qs (the tile's rows, q_stride
// apart) and the rows [n_lo, n_lo + n) of its head's keys, row r at K + r k_stride, so that
// query t and key u read row rel_pos(t) - rel_pos(u) + rel_offset - n_lo. With d a multiple
// of 8 that is the keys tensor itself (rows p.ld apart): randomized positions spread a pair's
// rows over up to 2 max_len distances, and a copy of them all per pair cost more than the
// products (40 steps at Ruoss et al.'s size, randomized: 16.6 s with the copy). Otherwise a
// copy, zero padded to dr. Qr null: no relative keys.
//
// Two ways to a tile's terms. Gapped positions (randomized): each pair's dot product with
// its row (dot8). Contiguous positions: the nq + nk - 1 distances of a tile pair are
// consecutive rows, so one product G = Qr KT (rows, W) with KT their keys, latest row first,
// gives them all, and query i and key x read G[i, nq - 1 - i + x]: a tile product of twice
// the q k^T tile's size in place of a gather per pair.
struct PairRelative {
  const Real* Qr = nullptr;
  int64_t q_stride = 0;
  const Real* K = nullptr;
  int64_t k_stride = 0, n_lo = 0, n = 0;
  Real* KT = nullptr;  // contiguous: (dp, kRelCols), the tile's keys transposed
  Real* G = nullptr;   // contiguous: (kTile, kRelCols), Qr KT
};
constexpr int64_t kRelCols = 2 * kTile;  // the distances of a tile pair: nq + nk - 1 < 2 kTile

// Contiguous positions: the W = nq + nk - 1 keys of a tile pair's distances, rows r_max,
// r_max - 1, ..., r_max - W + 1 (absolute), zero padded to Wp (a multiple of kNR):
// transposed into out (d, Wp; row stride kRelCols), or as rows (Wp, dp).
void tile_relative_keys(const Plan& p, const PairRelative& rel, int64_t r_max, int64_t W, int64_t Wp, bool transposed,
                        Real* __restrict out) {
  for (int64_t j = 0; j < Wp; ++j) {
    const Real* __restrict src = j < W ? rel.K + (r_max - j - rel.n_lo) * rel.k_stride : nullptr;
    if (transposed) {
      for (int64_t c = 0; c < p.d; ++c) out[c * kRelCols + j] = src ? src[c] : Real(0);
    } else {
      for (int64_t c = 0; c < p.d; ++c) out[j * p.dp + c] = src ? src[c] : Real(0);
      for (int64_t c = p.d; c < p.dp; ++c) out[j * p.dp + c] = 0;
    }
  }
}
inline bool keys_in_place(int64_t d) { return d % 8 == 0; }

// K of a pair with L rows of head h: the keys of every distance between two of its rows;
// Kp (n rows of dr) receives the copy when the keys are not read in place.
void gather_relative_keys(const Plan& p, int64_t h, int64_t L, const Real* keys, Real* Kp, PairRelative& rel) {
  const int64_t span = L > 0 ? p.rel_pos(L - 1) - p.rel_pos(0) : 0;
  rel.n_lo = p.rel_offset - span;
  rel.n = L > 0 ? 2 * span + 1 : 0;
  const Real* first = L > 0 ? keys + rel.n_lo * p.ld + h * p.d : keys;
  if (keys_in_place(p.d)) {
    rel.K = first, rel.k_stride = p.ld;
  } else {
    copy_rows8(first, rel.n, p.d, p.ld, 1, Kp, rel.n, rel_width(p.d));
    rel.K = Kp, rel.k_stride = rel_width(p.d);
  }
}

// A tile with nq real query rows and nk real keys is computed on rows(nq) x cols(nk) of
// its (kTile, kTile) buffers: short sequences (L = 16 in a batch) do not pay for 64 x 64.
inline int64_t tile_rows(int64_t nq) { return round_up(nq, kMR); }
inline int64_t tile_cols(int64_t nk) { return round_up(nk, kNR); }  // also a multiple of kLanes

// Raw scores of one tile: S (rows, cols) = Qs (rows, dp) Kt (d, cols) (+ bias) with -inf at
// masked keys, for the query tile starting at t0 (nq real rows) and the key tile starting at
// u0 (nk real keys); S has row stride kTile. Rows >= nq are -inf. Shared by forward and
// backward, so the backward sees bitwise the forward's scores.
// With SSMax, Qs's rows already carry their factors, and factor (nq) scales the other terms'
// rows. F: the pair's forget term F_t of every row t (contiguous), or null.
// rel: the pair's relative keys, rel.Qr at the tile's first row (scaled as Qs), or none.
void tile_scores(const Plan& p, int64_t b, int64_t h, const Real* bias, const Real* F, const Real* factor,
                 const PairRelative& rel, int64_t t0, int64_t nq, int64_t u0, int64_t nk, const Real* Qs,
                 const Real* Kt, Real* S) {
  const int64_t rows = tile_rows(nq), cols = tile_cols(nk);
  tile_product<false>(rows, cols, p.d, Qs, p.dp, 1, Kt, kTile, S, kTile);
  const bool rel_tile = rel.Qr && p.rel_positions.empty();  // contiguous: G = Qr KT
  if (rel_tile) {
    const int64_t W = nq + nk - 1, Wp = round_up(W, kNR);
    tile_relative_keys(p, rel, t0 + nq - 1 - u0 + p.rel_offset, W, Wp, true, rel.KT);
    tile_product<false>(rows, Wp, p.d, rel.Qr, rel.q_stride, 1, rel.KT, kRelCols, rel.G, kRelCols);
  }
  for (int64_t i = 0; i < rows; ++i) {
    Real* __restrict s = S + i * kTile;
    // Keys [lo, nv) of the tile are visible to this row.
    const int64_t nv = i < nq ? std::clamp<int64_t>(p.key_end(b, t0 + i) - u0, 0, nk) : 0;
    const int64_t lo = std::min(nv, std::clamp<int64_t>(p.key_begin(t0 + i) - u0, 0, nk));
    const Real f = factor ? kLog2e * factor[i] : kLog2e;  // the terms' factor, base 2
    if (bias && nv > lo) {
      const Real* __restrict br = p.bias_row(bias, h, t0 + i, u0);
      for (int64_t x = lo; x < nv; ++x) s[x] += br[x] * f;
    }
    if (F && nv > lo) {  // F_t - F_u
      const Real Ft = F[t0 + i];
      const Real* __restrict Fu = F + u0;
      for (int64_t x = lo; x < nv; ++x) s[x] += (Ft - Fu[x]) * f;
    }
    if (rel_tile && nv > lo) {  // qr_t . keys[t - u + offset] = G[i, nq - 1 - i + x]
      const Real* __restrict g = rel.G + i * kRelCols + (nq - 1 - i);
      for (int64_t x = lo; x < nv; ++x) s[x] += g[x];
    } else if (rel.Qr && nv > lo) {  // qr_t . keys[pos(t) - pos(u) + offset], qr scaled as q
      const int64_t dr = rel_width(p.d);
      const Real* __restrict qr = rel.Qr + i * rel.q_stride;
      const int64_t base = p.rel_pos(t0 + i) + p.rel_offset - rel.n_lo;
      for (int64_t x = lo; x < nv; ++x) s[x] += dot8(qr, rel.K + (base - p.rel_pos(u0 + x)) * rel.k_stride, dr);
    }
    std::fill(s, s + lo, kNegInf);
    std::fill(s + nv, s + cols, kNegInf);
  }
}

// Forward of one (b, h): writes O (L rows, stride p.ld) and lse (L).
// sscale: SSMax's s (H), or null. forget: the pair's rows of F (stride H), or null.
// rq: the pair's rows of the relative keys' queries (stride p.ld) and rk the (N, H, d) keys,
// or null.
void forward_pair(const Plan& p, int64_t b, int64_t h, const Real* q, const Real* k, const Real* v,
                  const Real* bias, const Real* sscale, const Real* forget, const Real* rq, const Real* rk, Real* O,
                  Real* lse) {
  const int64_t L = p.rows(b), d = p.d, dp = p.dp, ld = p.ld;
  const int64_t Lp = p.tiles() * kTile;
  const int64_t rel_rows = rq && !keys_in_place(d) ? 2 * p.rel_span + 1 : 0, dq = rel_qwidth(d, dp);
  const bool rel_tiles = rq && p.rel_positions.empty();
  // The pair's scratch arrays, each placed by name below.
  Real *Qs = nullptr, *acc = nullptr, *Vs = nullptr, *Kt = nullptr, *S = nullptr, *m = nullptr, *l = nullptr;
  Real *alpha = nullptr, *m_new = nullptr, *part = nullptr, *logn = nullptr, *factor = nullptr, *F = nullptr;
  Real *Qr = nullptr, *Kp = nullptr, *KTr = nullptr, *G = nullptr;
  carve_scratch([&](auto&& take) {
    take(Qs, kTile * dp);  // (kTile, dp): scale * q
    take(acc, kTile * dp);  // (kTile, dp): running sum_u p_u v_u
    take(Vs, kTile * dp);  // (kTile, dp): v of the key tile
    take(Kt, dp * kTile);  // (dp, kTile): k of the key tile, transposed
    take(S, kTile * kTile);  // (kTile, kTile): scores, then probabilities
    take(m, kTile);  // (kTile): running max
    take(l, kTile);  // (kTile): running sum
    take(alpha, kTile);  // (kTile): rescaling of the previous tiles
    take(m_new, kTile);  // (kTile): the running max with this key tile
    take(part, kTile * kLanes);  // (kTile, kLanes): each row's sum of p_u, in lanes
    take(logn, kTile);  // (kTile): SSMax's log n_t
    take(factor, kTile);  // (kTile): SSMax's s_h log n_t
    take(F, forget ? Lp : 0);  // (L): the forget term of every row, contiguous
    take(Qr, rq ? kTile * dq : 0);  // (kTile, dq): the relative keys' queries, scaled as Qs
    take(Kp, rel_rows * rel_width(d));  // (2 span + 1, dr): a copy of the keys of the pair's distances
    take(KTr, rel_tiles ? dp * kRelCols : 0);  // (dp, kRelCols): a tile pair's keys, transposed
    take(G, rel_tiles ? kTile * kRelCols : 0);  // (kTile, kRelCols): Qr KTr
  });
  if (forget)
    for (int64_t t = 0; t < L; ++t) F[t] = forget[t * p.H];
  PairRelative rel;
  if (rq) {
    rel.Qr = Qr, rel.q_stride = dq, rel.KT = KTr, rel.G = G;
    gather_relative_keys(p, h, L, rk, Kp, rel);
  }

  for (int64_t t0 = 0; t0 < L; t0 += kTile) {
    const int64_t nq = std::min(kTile, L - t0), rows = tile_rows(nq);
    copy_padded(q + t0 * ld, nq, d, ld, p.qscale, Qs, rows, dp);
    if (rq) copy_rows8(rq + t0 * ld, nq, d, ld, p.qscale, Qr, rows, dq);
    if (sscale) {
      p.log_lengths(sscale, b, h, t0, nq, logn, factor);
      for (int64_t i = 0; i < nq; ++i)
        for (int64_t c = 0; c < dp; ++c) Qs[i * dp + c] *= factor[i];
      if (rq)
        for (int64_t i = 0; i < nq; ++i)
          for (int64_t c = 0; c < dq; ++c) Qr[i * dq + c] *= factor[i];
    }
    std::fill(m, m + rows, kNegInf);
    std::fill(l, l + rows, Real(0));
    const int64_t u_start = p.first_key_tile(t0);     // the earliest row of the tile
    const int64_t u_end = p.key_end(b, t0 + nq - 1);  // the widest row of the tile
    for (int64_t u0 = u_start; u0 < u_end; u0 += kTile) {
      const int64_t nk = std::min(kTile, u_end - u0), cols = tile_cols(nk);
      copy_transposed(k + u0 * ld, nk, d, ld, Kt, cols);
      copy_padded(v + u0 * ld, nk, d, ld, 1, Vs, nk, dp);
      tile_scores(p, b, h, bias, forget ? F : nullptr, sscale ? factor : nullptr, rel, t0, nq, u0, nk, Qs, Kt, S);
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
          Real* __restrict a = acc + i * dp;
          const Real ai = alpha[i];
          for (int64_t c = 0; c < dp; ++c) a[c] *= ai;
        }
      tile_product(u0 > u_start, rows, dp, nk, S, kTile, 1, Vs, dp, acc, dp);  // acc (+)= P V
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
      Real* __restrict o = O + (t0 + i) * ld;
      if (l[i] == 0) {  // every key masked (acc may be unwritten): zeros
        for (int64_t c = 0; c < d; ++c) o[c] = 0;
        continue;
      }
      if (d == dp) {
        for (int64_t c = 0; c < d; c += kVec) store_vec(o + c, load_vec(acc + i * dp + c) * inv[i]);
      } else {
        for (int64_t c = 0; c < d; ++c) o[c] = acc[i * dp + c] * inv[i];
      }
    }
  }
}

// Gradient destinations of one (b, h) (row 0 of the pair, rows p.ld apart); null where no
// gradient is needed. store: the buffer is new and uninitialised (Tape::Store), so every
// element of the pair is written, not added to.
struct PairGrads {
  Real* dq = nullptr;     // (L, d)
  Real* dk = nullptr;     // (L, d)
  Real* dv = nullptr;     // (L, d)
  Real* dbias = nullptr;  // relative: this pair's partial row (2L - 1); full: head h (L, L)
  Real* dscale = nullptr; // SSMax: this pair's part of dL/ds_h (one value, added to)
  Real* dforget = nullptr;  // the pair's rows of dF (stride H)
  Real* dqr = nullptr;    // (L, d): the relative keys' queries
  Real* dkeys = nullptr;  // the relative keys of head h (rows p.ld apart), added to
  bool store_q = false, store_k = false, store_v = false, store_forget = false, store_qr = false;
};

// dst row (d values) = or += s * src row.
inline void write_row(Real* __restrict dst, const Real* __restrict src, int64_t d, Real s, bool store) {
  int64_t c = 0;
  for (; c + kVec <= d; c += kVec) {  // whole vectors (the plain loop became a memcpy call per row)
    const VReal v = s * load_vec(src + c);
    store_vec(dst + c, store ? v : load_vec(dst + c) + v);
  }
  for (; c < d; ++c) dst[c] = store ? s * src[c] : dst[c] + s * src[c];
}

// Backward of one (b, h): adds (or stores) this pair's contributions to the gradients.
// With SSMax (sscale: s, H values), *g.dscale receives this pair's part of dL/ds_h.
// rq, rk: as forward_pair's.
void backward_pair(const Plan& p, int64_t b, int64_t h, const Real* q, const Real* k, const Real* v,
                   const Real* bias, const Real* sscale, const Real* forget, const Real* rq, const Real* rk,
                   const Real* O, const Real* lse, const Real* dO, const PairGrads& g) {
  const int64_t L = p.rows(b), d = p.d, dp = p.dp, ld = p.ld, Lr = round_up(L, kMR);
  const int64_t Lp = p.tiles() * kTile;
  const bool in_place = keys_in_place(d);
  const int64_t rel_rows = rq && !in_place ? 2 * p.rel_span + 1 : 0, dr = rel_width(d), dq = rel_qwidth(d, dp);
  const bool rel_tiles = rq && p.rel_positions.empty();
  // The pair's scratch arrays, each placed by name below.
  Real *Qs = nullptr, *dOs = nullptr, *dQacc = nullptr, *D = nullptr, *Kt = nullptr, *Vt = nullptr;
  Real *Ks = nullptr, *dKacc = nullptr, *dVacc = nullptr, *P = nullptr, *dS = nullptr, *logn = nullptr;
  Real *factor = nullptr, *bias_dot = nullptr, *F = nullptr, *dF_row = nullptr, *dF_col = nullptr;
  Real *Qr = nullptr, *dQRacc = nullptr, *Kp = nullptr, *dKp = nullptr, *KTr = nullptr, *G = nullptr;
  Real *E = nullptr, *Kr = nullptr, *dQt = nullptr, *dKt = nullptr;
  carve_scratch([&](auto&& take) {
    take(Qs, Lp * dp);  // (Lr, dp): scale * q
    take(dOs, Lp * dp);  // (Lr, dp): dO, zero padded
    take(dQacc, Lp * dp);  // (Lr, dp): sum_u dS[t, u] k_u
    take(D, Lp);  // (L): dO_t . O_t
    take(Kt, dp * kTile);  // (dp, kTile): k of the key tile, transposed
    take(Vt, dp * kTile);  // (dp, kTile): v of the key tile, transposed
    take(Ks, kTile * dp);  // (kTile, dp): k of the key tile
    take(dKacc, kTile * dp);  // (kTile, dp): sum_t dS[t, u] (s q_t)
    take(dVacc, kTile * dp);  // (kTile, dp): sum_t P[t, u] dO_t
    take(P, kTile * kTile);  // (kTile, kTile)
    take(dS, kTile * kTile);  // (kTile, kTile): dP, then dS
    take(logn, Lp);  // (L): SSMax's log n_t
    take(factor, Lp);  // (L): SSMax's s_h log n_t
    take(bias_dot, Lp);  // (L): SSMax, sum_u dS[t, u] (bias[t, u] + F_t - F_u)
    take(F, forget ? Lp : 0);  // (L): the forget term of every row, contiguous
    take(dF_row, forget ? Lp : 0);  // (L): sum_u f_t dS[t, u], F_t's part as the query's
    take(dF_col, forget ? Lp : 0);  // (L): sum_t f_t dS[t, u], minus F_u's part as a key's
    take(Qr, rq ? Lp * dq : 0);  // (Lr, dq): the relative keys' queries, scaled as Qs
    take(dQRacc, rq ? Lp * dq : 0);  // (Lr, dq): sum_u dS[t, u] keys[row(t, u)]
    take(Kp, rel_rows * dr);  // (2 span + 1, dr): a copy of the keys of the pair's distances
    take(dKp, rel_rows * dr);  // (2 span + 1, dr): sum of dS[t, u] Qr_t over the pairs reading each
    // Contiguous positions, per tile pair (E[i, nq - 1 - i + x] = dS[i, x]: dS by distance):
    take(KTr, rel_tiles ? dp * kRelCols : 0);  // (dp, kRelCols): the keys, transposed (tile_scores)
    take(G, rel_tiles ? kTile * kRelCols : 0);  // (kTile, kRelCols): Qr KTr (tile_scores)
    take(E, rel_tiles ? kTile * kRelCols : 0);  // (kTile, kRelCols)
    take(Kr, rel_tiles ? kRelCols * dp : 0);  // (kRelCols, dp): the keys as rows
    take(dQt, rel_tiles ? kTile * dp : 0);  // (kTile, dp): E Kr
    take(dKt, rel_tiles ? kRelCols * dp : 0);  // (kRelCols, dp): E^T Qr
  });
  if (forget) {
    for (int64_t t = 0; t < L; ++t) F[t] = forget[t * p.H];
    std::fill(dF_row, dF_row + L, Real(0));
    std::fill(dF_col, dF_col + L, Real(0));
  }

  copy_padded(q, L, d, ld, p.qscale, Qs, Lr, dp);
  PairRelative rel;
  if (rq) {
    copy_rows8(rq, L, d, ld, p.qscale, Qr, Lr, dq);
    rel.q_stride = dq, rel.KT = KTr, rel.G = G;
    gather_relative_keys(p, h, L, rk, Kp, rel);
    std::fill(dQRacc, dQRacc + Lr * dq, Real(0));
    if (!in_place) std::fill(dKp, dKp + rel.n * dr, Real(0));
  }
  // SSMax: the logits of row t are f_t z[t, u] with f_t = s_h log n_t and z = s q k^T + bias,
  // so dz = f_t dS, and dL/ds_h = sum_t log n_t sum_u dS[t, u] z[t, u]
  //                            = sum_t log n_t (s q_t . dQacc_t + sum_u dS[t, u] bias[t, u]).
  const bool want_scale = sscale && g.dscale;
  if (sscale) {
    p.log_lengths(sscale, b, h, 0, L, logn, factor);
    for (int64_t t = 0; t < L; ++t)
      for (int64_t c = 0; c < dp; ++c) Qs[t * dp + c] *= factor[t];
    if (rq)
      for (int64_t t = 0; t < L; ++t)
        for (int64_t c = 0; c < dq; ++c) Qr[t * dq + c] *= factor[t];
    if (want_scale) std::fill(bias_dot, bias_dot + L, Real(0));
  }
  copy_padded(dO, L, d, ld, 1, dOs, Lr, dp);
  for (int64_t t = 0; t < L; ++t) {  // D_t = dO_t . O_t
    if (d == dp) {  // whole vectors: lanes summed at the end
      VReal a{};
      for (int64_t c = 0; c < d; c += kVec) a += load_vec(dO + t * ld + c) * load_vec(O + t * ld + c);
      Real acc = 0;
      for (int64_t j = 0; j < kVec; ++j) acc += a[j];
      D[t] = acc;
    } else {
      Real acc = 0;
      for (int64_t c = 0; c < d; ++c) acc += dO[t * ld + c] * O[t * ld + c];
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
    copy_transposed(v + u0 * ld, nk, d, ld, Vt, cols);
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
      const Real* dOi = dOs + t0 * dp;
      if (rq) rel.Qr = Qr + t0 * dq;
      tile_scores(p, b, h, bias, forget ? F : nullptr, sscale ? factor + t0 : nullptr, rel, t0, nq, u0, nk, Qi, Kt, P);
      tile_product<false>(rows, cols, d, dOi, dp, 1, Vt, kTile, dS, kTile);  // dP
      // Only rows x cols of P and dS are written; the products below read within them
      // (tile_rows(nk) <= cols), and padded rows and columns hold P = dS = 0.
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
        for (int64_t x = 0; x < cols; ++x) {
          pr[x] = exp2_nonpositive(pr[x] - row_lse);
          ds[x] = pr[x] * (ds[x] - Di);
        }
      }
      // The first query tile of a key tile stores into dKacc, dVacc; u0 = 0 (which every
      // query tile visits) stores into dQacc.
      const int64_t key_rows = tile_rows(nk);
      const bool add_kv = t0 > t_begin, add_q = windowed || u0 > 0;
      if (g.dv) tile_product(add_kv, key_rows, dp, nq, P, 1, kTile, dOi, dp, dVacc, dp);  // P^T dO
      if (g.dk) tile_product(add_kv, key_rows, dp, nq, dS, 1, kTile, Qi, dp, dKacc, dp);  // dS^T (s Q)
      if (g.dq || want_scale) tile_product(add_q, rows, dp, nk, dS, kTile, 1, Ks, dp, dQacc + t0 * dp, dp);  // dS K
      if (g.dbias) {
        for (int64_t i = 0; i < nq; ++i) {
          const int64_t t = t0 + i;
          const int64_t nv = std::clamp<int64_t>(p.key_end(b, t) - u0, 0, nk);
          const int64_t lo = std::min(nv, std::clamp<int64_t>(p.key_begin(t) - u0, 0, nk));
          const Real* __restrict ds = dS + i * kTile;
          Real* __restrict db = g.dbias + p.bias_index(t, u0);
          if (sscale) {  // d bias = f_t dS
            for (int64_t x = lo; x < nv; ++x) db[x] += ds[x] * factor[t];
          } else {
            for (int64_t x = lo; x < nv; ++x) db[x] += ds[x];
          }
        }
      }
      if (rq) {  // the relative keys: dqr_t += dS[t, u] keys[row], dkeys[row] += dS[t, u] Qr_t
        // Keys in place: into dkeys directly, times ln 2 (Qr carries log2(e)), this head's
        // rows only (one thread per head); else into dKp, written below.
        Real* dK = !g.dkeys ? nullptr : in_place ? g.dkeys + rel.n_lo * ld : dKp;
        const int64_t dk_stride = in_place ? ld : dr;
        const Real dk_scale = in_place ? kLn2 : Real(1);
        if (rel_tiles) {  // contiguous: dS by distance (E), then two tile products
          const int64_t W = nq + nk - 1, Wp = round_up(W, kNR), r_max = t0 + nq - 1 - u0 + p.rel_offset;
          for (int64_t i = 0; i < rows; ++i) {
            Real* __restrict e = E + i * kRelCols;
            std::fill(e, e + Wp, Real(0));
            if (i >= nq) continue;
            const int64_t t = t0 + i;
            const int64_t nv = std::clamp<int64_t>(p.key_end(b, t) - u0, 0, nk);
            const int64_t lo = std::min(nv, std::clamp<int64_t>(p.key_begin(t) - u0, 0, nk));
            const Real* __restrict ds = dS + i * kTile;
            for (int64_t x = lo; x < nv; ++x) e[nq - 1 - i + x] = ds[x];
          }
          tile_relative_keys(p, rel, r_max, W, Wp, false, Kr);
          tile_product<false>(rows, dp, Wp, E, kRelCols, 1, Kr, dp, dQt, dp);  // E Kr
          for (int64_t i = 0; i < nq; ++i)
            for (int64_t c = 0; c < d; ++c) dQRacc[(t0 + i) * dq + c] += dQt[i * dp + c];
          if (dK) {
            tile_product<false>(Wp, dp, rows, E, 1, kRelCols, Qr + t0 * dq, dq, dKt, dp);  // E^T Qr
            for (int64_t j = 0; j < W; ++j) {
              Real* __restrict dk = dK + (r_max - j - rel.n_lo) * dk_stride;
              for (int64_t c = 0; c < d; ++c) dk[c] += dk_scale * dKt[j * dp + c];
            }
          }
        } else {
          const int64_t base0 = p.rel_offset - rel.n_lo;
          for (int64_t i = 0; i < nq; ++i) {
            const int64_t t = t0 + i;
            const int64_t nv = std::clamp<int64_t>(p.key_end(b, t) - u0, 0, nk);
            const int64_t lo = std::min(nv, std::clamp<int64_t>(p.key_begin(t) - u0, 0, nk));
            const Real* __restrict ds = dS + i * kTile;
            const Real* __restrict qr = Qr + t * dq;
            Real* __restrict dqr = dQRacc + t * dq;
            const int64_t base = base0 + p.rel_pos(t);
            for (int64_t x = lo; x < nv; ++x) {
              const int64_t row = base - p.rel_pos(u0 + x);
              axpy8(ds[x], rel.K + row * rel.k_stride, dqr, dr);
              if (dK) axpy8(ds[x] * dk_scale, qr, dK + row * dk_stride, dr);
            }
          }
        }
      }
      if ((want_scale && (bias || forget)) || (forget && g.dforget)) {
        for (int64_t i = 0; i < nq; ++i) {
          const int64_t t = t0 + i;
          const int64_t nv = std::clamp<int64_t>(p.key_end(b, t) - u0, 0, nk);
          const int64_t lo = std::min(nv, std::clamp<int64_t>(p.key_begin(t) - u0, 0, nk));
          const Real* __restrict ds = dS + i * kTile;
          if (want_scale) {
            Real acc = 0;
            if (bias) {
              const Real* __restrict br = p.bias_row(bias, h, t, u0);
              for (int64_t x = lo; x < nv; ++x) acc += ds[x] * br[x];
            }
            if (forget)
              for (int64_t x = lo; x < nv; ++x) acc += ds[x] * (F[t] - F[u0 + x]);
            bias_dot[t] += acc;
          }
          if (forget && g.dforget) {  // d(F_t - F_u) = f_t dS[t, u]
            const Real ft = sscale ? factor[t] : Real(1);
            Real row = 0;
            for (int64_t x = lo; x < nv; ++x) {
              row += ds[x];
              dF_col[u0 + x] += ds[x] * ft;
            }
            dF_row[t] += row * ft;
          }
        }
      }
    }
    for (int64_t x = 0; x < nk; ++x) {
      // dKacc summed dS^T (qscale q) = log2(e) dS^T (s q): times ln 2.
      if (g.dk) write_row(g.dk + (u0 + x) * ld, dKacc + x * dp, d, kLn2, g.store_k);
      if (g.dv) write_row(g.dv + (u0 + x) * ld, dVacc + x * dp, d, 1, g.store_v);
    }
  }
  // Keys at or after key_limit get no gradient: zeros when the buffers are new.
  for (int64_t u = key_limit; u < L; ++u) {
    if (g.dk && g.store_k) std::fill(g.dk + u * ld, g.dk + u * ld + d, Real(0));
    if (g.dv && g.store_v) std::fill(g.dv + u * ld, g.dv + u * ld + d, Real(0));
  }
  if (g.dq) {
    if (key_limit > 0 || windowed) {
      for (int64_t t = 0; t < L; ++t)
        write_row(g.dq + t * ld, dQacc + t * dp, d, sscale ? p.scale * factor[t] : p.scale, g.store_q);
    } else if (g.store_q) {  // no key at all: dQacc was never written; the gradient is 0
      for (int64_t t = 0; t < L; ++t) std::fill(g.dq + t * ld, g.dq + t * ld + d, Real(0));
    }
  }
  if (rq && g.dqr)  // dz = f_t dS, and z has scale qr_t . keys[row]
    for (int64_t t = 0; t < L; ++t)
      write_row(g.dqr + t * ld, dQRacc + t * dq, d, sscale ? p.scale * factor[t] : p.scale, g.store_qr);
  if (rq && g.dkeys && !in_place)  // dKp summed dS Qr = log2(e) f_t scale dS qr_t: times ln 2
    for (int64_t r = 0; r < rel.n; ++r) write_row(g.dkeys + (rel.n_lo + r) * ld, dKp + r * dr, d, kLn2, false);
  if (forget && g.dforget)
    for (int64_t t = 0; t < L; ++t) {
      const Real v_t = dF_row[t] - dF_col[t];
      g.dforget[t * p.H] = g.store_forget ? v_t : g.dforget[t * p.H] + v_t;
    }
  if (want_scale && (key_limit > 0 || windowed)) {
    Real acc = 0;
    for (int64_t t = 0; t < L; ++t) {
      Real qdot = 0;
      for (int64_t c = 0; c < d; ++c) qdot += q[t * ld + c] * dQacc[t * dp + c];
      if (rq)
        for (int64_t c = 0; c < d; ++c) qdot += rq[t * ld + c] * dQRacc[t * dq + c];
      acc += logn[t] * (p.scale * qdot + bias_dot[t]);
    }
    *g.dscale += acc;
  }
}

// The checks shared by both layouts, once the plan knows B, L, H, d and the lengths.
void check_plan(Tape& t, Plan& p, const LogitTerms& terms, const Shape& q_shape, const char* op,
                Real scale) {
  const FusedAttentionBias& bias = terms.bias;
  if (terms.log_length_scale) {
    const Shape& s = t.shape(*terms.log_length_scale);
    ORDO_CHECK(s == Shape{p.H}, op, ": the log-length scale (SSMax's s) must be (H) = (", p.H, ") for q ", q_shape,
               ", got ", s);
  }
  if (terms.forget) {
    const Shape& s = t.shape(*terms.forget);
    const Shape expected = q_shape.rank() == 4 ? Shape{q_shape[0], q_shape[1], p.H} : Shape{q_shape[0], p.H};
    ORDO_CHECK(s == expected, op, ": the forget term F must be ", expected, " (q's rows, H) for q ", q_shape,
               ", got ", s);
  }
  ORDO_CHECK(std::isfinite(static_cast<double>(scale)), op, ": scale must be finite, got ", scale);
  p.dp = round_up(std::max<int64_t>(p.d, 1), kVec);
  p.scale = scale;
  p.qscale = scale * kLog2e;
  if (terms.relative_keys) {
    const RelativeKeys& r = *terms.relative_keys;
    ORDO_CHECK(t.shape(r.queries) == q_shape, op, ": the relative keys' queries must have q's shape ", q_shape,
               ", got ", t.shape(r.queries));
    const Shape& ks = t.shape(r.keys);
    ORDO_CHECK(p.d >= 1, op, ": relative keys need d_h >= 1, got q ", q_shape);
    ORDO_CHECK(ks.rank() == 3 && ks[0] >= 1 && ks[1] == p.H && ks[2] == p.d, op,
               ": the relative keys must be (N, H, d_h) = (N, ", p.H, ", ", p.d, ") for q ", q_shape, ", got ", ks);
    ORDO_CHECK(r.positions.empty() || static_cast<int64_t>(r.positions.size()) == p.L, op, ": ",
               r.positions.size(), " relative-key positions for L = ", p.L, " (empty: 0..L-1)");
    for (size_t i = 1; i < r.positions.size(); ++i)
      ORDO_CHECK(r.positions[i] > r.positions[i - 1], op, ": relative-key positions must increase, got ",
                 r.positions[i - 1], " then ", r.positions[i], " at rows ", i - 1, " and ", i);
    p.relative_keys = true;
    // Consecutive positions have the distances of 0..L-1: the contiguous path, so that the
    // bits do not depend on whether such positions are spelled out.
    bool consecutive = true;
    for (size_t i = 1; i < r.positions.size(); ++i) consecutive = consecutive && r.positions[i] == r.positions[i - 1] + 1;
    if (!consecutive) p.rel_positions = r.positions;
    p.rel_offset = r.offset;
    p.rel_span = p.L > 0 ? p.rel_pos(p.L - 1) - p.rel_pos(0) : 0;
    ORDO_CHECK(r.offset - p.rel_span >= 0 && r.offset + p.rel_span < ks[0], op, ": relative-key rows ",
               r.offset - p.rel_span, "..", r.offset + p.rel_span, " (offset ", r.offset, ", positions spanning ",
               p.rel_span, ") fall outside the ", ks[0], " keys");
  }
  if (bias.values) {
    const Shape& s = t.shape(*bias.values);
    const Shape relative_shape{p.H, 2 * p.L - 1}, full_shape{p.H, p.L, p.L};
    if (bias.relative) {
      ORDO_CHECK(s == relative_shape, op, ": a relative bias must be (H, 2L - 1) = (", p.H, ", ",
                 2 * p.L - 1, ") for q ", q_shape, " and L = ", p.L, ", got ", s);
      p.bias_form = BiasForm::relative;
    } else {
      ORDO_CHECK(s == full_shape, op, ": a full bias must be (H, L, L) = (", p.H, ", ", p.L, ", ",
                 p.L, ") for q ", q_shape, " and L = ", p.L, ", got ", s);
      p.bias_form = BiasForm::full;
    }
  }
}

Var attention_with_plan(Tape& t, Var q, Var k, Var v, const LogitTerms& terms, const Plan& p);

}  // namespace

Var fused_attention(Tape& t, Var q, Var k, Var v, const LogitTerms& terms,
                    const std::vector<int32_t>& key_lengths, const AttentionMask& mask, Real scale) {
  Plan p(AttentionGeometry::padded("fused_attention", t.shape(q), t.shape(k), t.shape(v), key_lengths, mask));
  check_plan(t, p, terms, t.shape(q), "fused_attention", scale);
  return attention_with_plan(t, q, k, v, terms, p);
}

Var fused_attention_packed(Tape& t, Var q, Var k, Var v, const LogitTerms& terms,
                           const std::vector<int32_t>& lengths, int64_t L, const AttentionMask& mask, Real scale) {
  Plan p(AttentionGeometry::packed("fused_attention_packed", t.shape(q), t.shape(k), t.shape(v), lengths, L, mask));
  check_plan(t, p, terms, t.shape(q), "fused_attention_packed", scale);
  return attention_with_plan(t, q, k, v, terms, p);
}

namespace {

Var attention_with_plan(Tape& t, Var q, Var k, Var v, const LogitTerms& terms, const Plan& p) {
  const FusedAttentionBias& bias = terms.bias;
  const Tensor& Q = t.value(q);
  const Tensor& K = t.value(k);
  const Tensor& V = t.value(v);
  Tensor O = Tensor::empty(Q.shape());                // (B, L, H, d)
  Tensor lse = Tensor::empty(Shape{p.B, p.H, p.L});   // (B, H, L)
  {
    const Real* bd = bias.values ? t.value(*bias.values).data() : nullptr;
    const Real* sd = terms.log_length_scale ? t.value(*terms.log_length_scale).data() : nullptr;
    const Real* fd = terms.forget ? t.value(*terms.forget).data() : nullptr;
    const Real* rqd = terms.relative_keys ? t.value(terms.relative_keys->queries).data() : nullptr;
    const Real* rkd = terms.relative_keys ? t.value(terms.relative_keys->keys).data() : nullptr;
    const Real *qd = Q.data(), *kd = K.data(), *vd = V.data();
    Real *od = O.data(), *ld = lse.data();
    parallel_for(p.B * p.H, 4 * p.L * p.L * p.d + 1, [&](int64_t bh) {
      const int64_t b = bh / p.H, h = bh % p.H, o = p.offset(b, h);
      forward_pair(p, b, h, qd + o, kd + o, vd + o, bd, sd, fd ? fd + p.forget_offset(b, h) : nullptr,
                   rqd ? rqd + o : nullptr, rkd, od + o, ld + bh * p.L);
    });
  }

  const std::optional<Var> bias_var = bias.values, scale_var = terms.log_length_scale, forget_var = terms.forget;
  const std::optional<Var> rq_var = terms.relative_keys ? std::optional<Var>(terms.relative_keys->queries) : std::nullopt;
  const std::optional<Var> rk_var = terms.relative_keys ? std::optional<Var>(terms.relative_keys->keys) : std::nullopt;
  Tape::Backward backward = [q, k, v, bias_var, scale_var, forget_var, rq_var, rk_var, p, O, lse](Tape& t,
                                                                                               const Tensor& dO) {
    const bool want_q = t.needs_grad(q), want_k = t.needs_grad(k), want_v = t.needs_grad(v);
    const bool want_bias = bias_var && t.needs_grad(*bias_var);
    const bool want_scale = scale_var && t.needs_grad(*scale_var);
    const bool want_forget = forget_var && t.needs_grad(*forget_var);
    const bool want_rq = rq_var && t.needs_grad(*rq_var), want_rk = rk_var && t.needs_grad(*rk_var);
    if (!want_q && !want_k && !want_v && !want_bias && !want_scale && !want_forget && !want_rq && !want_rk) return;
    const Real* bd = bias_var ? t.value(*bias_var).data() : nullptr;
    const Real* sd = scale_var ? t.value(*scale_var).data() : nullptr;
    const Real* fd = forget_var ? t.value(*forget_var).data() : nullptr;
    const Real* rqd = rq_var ? t.value(*rq_var).data() : nullptr;
    const Real* rkd = rk_var ? t.value(*rk_var).data() : nullptr;
    const Real *qd = t.value(q).data(), *kd = t.value(k).data(), *vd = t.value(v).data();
    const Real *od = O.data(), *ld = lse.data(), *dod = dO.data();
    const int64_t W = 2 * p.L - 1, cost = 10 * p.L * p.L * p.d + 1;
    PairGrads all;  // the whole buffers (offset per pair below); null where not wanted
    Real* dbias = nullptr;
    Real* dscale = nullptr;
    Real* dkeys = nullptr;
    // SSMax: each pair's part of dL/ds_h, summed over b in order below.
    std::vector<Real> scale_parts(want_scale ? static_cast<size_t>(p.B * p.H) : 0, Real(0));
    auto run = [&](int64_t b, int64_t h, Real* dbias_row) {
      const int64_t o = p.offset(b, h);
      PairGrads g = all;
      if (g.dq) g.dq += o;
      if (g.dk) g.dk += o;
      if (g.dv) g.dv += o;
      g.dbias = dbias_row;
      g.dscale = want_scale ? scale_parts.data() + b * p.H + h : nullptr;
      if (g.dforget) g.dforget += p.forget_offset(b, h);
      if (g.dqr) g.dqr += o;
      g.dkeys = dkeys ? dkeys + h * p.d : nullptr;
      backward_pair(p, b, h, qd + o, kd + o, vd + o, bd, sd, fd ? fd + p.forget_offset(b, h) : nullptr,
                    rqd ? rqd + o : nullptr, rkd, od + o, ld + (b * p.H + h) * p.L, dod + o, g);
    };
    auto sum_scale_parts = [&] {
      if (!want_scale) return;
      for (int64_t h = 0; h < p.H; ++h) {
        Real acc = 0;
        for (int64_t b = 0; b < p.B; ++b) acc += scale_parts[b * p.H + h];
        dscale[h] += acc;
      }
    };
    auto compute = [&] {
      if ((p.bias_form == BiasForm::full && dbias) || dkeys) {
        // A full bias or relative keys: one head per iteration, batch entries in order,
        // straight into dbias and dkeys (each head's rows, added to).
        parallel_for(p.H, p.B * cost, [&](int64_t h) {
          for (int64_t b = 0; b < p.B; ++b) run(b, h, dbias ? dbias + h * p.bias_per_head() : nullptr);
        });
        return sum_scale_parts();
      }
      // Relative bias: per-(b, h) partial rows, summed over b in order below.
      std::vector<Real> partial(dbias ? static_cast<size_t>(p.B * p.H * W) : 0, Real(0));
      parallel_for(p.B * p.H, cost, [&](int64_t bh) {
        run(bh / p.H, bh % p.H, dbias ? partial.data() + bh * W : nullptr);
      });
      if (dbias)
        for (int64_t h = 0; h < p.H; ++h)
          for (int64_t j = 0; j < W; ++j) {
            Real acc = 0;
            for (int64_t b = 0; b < p.B; ++b) acc += partial[(b * p.H + h) * W + j];
            dbias[h * W + j] += acc;
          }
      sum_scale_parts();
    };
    // Every gradient buffer at hand before the pairs run, one slot each (Tape::grad_slot).
    // Each pair writes whole rows of dq, dk and dv: whether it stores (a new buffer) or adds
    // is taken once per buffer from its slot. When one Var is two of q, k, v
    // (self-attention without projections), the rows of both land in one buffer: the pair
    // would store its dq rows over the dk rows it added, so then every buffer is a summed
    // one, added to throughout. The bias, the relative keys and SSMax's s are sums over
    // pairs.
    const bool shared = q.id == k.id || q.id == v.id || k.id == v.id ||
                        (rq_var && (rq_var->id == q.id || rq_var->id == k.id || rq_var->id == v.id));
    auto slot = [&](bool wanted, const std::optional<Var>& x, bool summed) {
      if (!wanted) return Tape::GradSlot{};
      return summed ? t.grad_slot(*x, Tape::summed) : t.grad_slot(*x);
    };
    const Tape::GradSlot sq = slot(want_q, q, shared), sk = slot(want_k, k, shared), sv = slot(want_v, v, shared);
    const Tape::GradSlot sforget = slot(want_forget, forget_var, shared), sqr = slot(want_rq, rq_var, shared);
    const Tape::GradSlot sbias = slot(want_bias, bias_var, true), skeys = slot(want_rk, rk_var, true);
    const Tape::GradSlot sscale = slot(want_scale, scale_var, true);
    all.dq = sq.data(), all.store_q = sq.store();
    all.dk = sk.data(), all.store_k = sk.store();
    all.dv = sv.data(), all.store_v = sv.store();
    all.dforget = sforget.data(), all.store_forget = sforget.store();
    all.dqr = sqr.data(), all.store_qr = sqr.store();
    dbias = sbias.data(), dkeys = skeys.data(), dscale = sscale.data();
    compute();
  };
  std::vector<Var> inputs{q, k, v};
  if (bias_var) inputs.push_back(*bias_var);
  if (scale_var) inputs.push_back(*scale_var);
  if (forget_var) inputs.push_back(*forget_var);
  if (rq_var) inputs.push_back(*rq_var), inputs.push_back(*rk_var);
  return t.push("fused_attention", std::move(O), std::move(backward), inputs);
}

}  // namespace

}  // namespace ordo
