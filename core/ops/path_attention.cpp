// core/ops/path_attention.cpp: PaTH attention (Yang et al. 2025, arXiv 2505.16381;
// docs/spec.md §2.20), the fast kernel. core/ops/path_reference.cpp computes the same
// formulas one query row at a time (and states them in full); the tests hold this kernel to
// it, forward and backward.
//
// For one (batch entry b, head h), H_l = I - beta_l w_l w_l^T and query t's state walked from
// the nearest key back, r_t = q_t, r_{j-1} = H_j r_j:
//   z_tj = s r_j . k_j,   O_t = sum_j softmax_j(z_t)_j v_j              over the visible keys
// and backward, with P the row's softmax, dz_j = s P_j (dO_t . v_j - sum_m P_m dO_t . v_m):
//   dv_j += P_j dO_t,  dk_j += dz_j r_j,  and the adjoint g of r from the farthest key on:
//   g = 0;  for j = lo .. hi - 1:
//     (j > lo)  a = w_j . r_j, c = w_j . g:  dbeta_j -= a c,  dw_j -= beta_j (a g + c r_j),  g = H_j g
//     g += dz_j k_j
//   dq_t = g.
//
// How it is faster than the row walk. A tile of up to kTile queries walks its keys together,
// one vector lane per query: the states r of the tile are a (d, kTile) block, and each key's
// dot products and update are d vector FMAs over the lanes (k_j, w_j broadcast), where the
// row walk ran one scalar dependency chain per dot product. The logits land key-major (row =
// key, column = query), so the softmax is vertical vector work, and P v, V dO^T and P^T dO
// are tile products (core/ops/fused_attention_tiles.h). A key's step runs over the lanes that
// see the key only (lanes_seeing), four vectors of lanes at a time with their sums in
// registers. Without a window, the keys below a tile's own block of kTile keys go by blocks
// instead (below: "The keys below a tile's own block"): each block's keys carried to its top
// and its map formed once per pair, the tile's logits of the block and its next state are two
// tile products (at L = 1024, 15 of a tile's 16 blocks at most). The walk remains for the
// tile's own block, and for every block under a window (the keys a query sees then begin
// inside a block). The backward walks forward, so it needs each key's state: the recomputing
// walk keeps the block of states at every kTile-th key (a checkpoint; by blocks, the state
// entering each block) and each block of kTile keys is walked again from its checkpoint into
// a (kTile, d, kTile) buffer before the adjoint passes over it; the block the recomputing walk
// reaches last it writes into that buffer as it goes (all of a tile of L <= 64 keys, and the
// tile's own block when the rest go by blocks: no second walk). Memory per thread
// O(L kTile + kTile^2 d) (by blocks, also the blocks' sweeps, O(L d) per pair, and one
// block's steps, O(kTile^2 d)); no (L, L) tensor.
//
// Bits. The walked states, the logits, the softmax's sums and the products over keys are taken
// in the reference's order (each dot product over c in order; sums over keys from the
// farthest), so where the kernel walks (a tile's own block, and every key under a window)
// they differ from the reference only through core/fastmath.h's exp (float32; the float64
// build keeps libm's and gives the reference's forward bits there). By blocks, the logits of the keys below a tile's own block are products with the carried keys,
// H_{a+63} ... H_{j+1} k_j . S where the walk takes k_j . H_{j+1} ... S: the same value in
// another association, so the last bits differ there too. The backward's sums over the
// queries of a tile (dk, dw, dbeta) are taken across lanes (a fixed association per width)
// where the reference adds row after row, and dw's terms are grouped per lane first
// (adjoint_key): the last bits differ there. A pair (b, h) is one
// loop iteration, so any thread count gives the same bits.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/fastmath.h"
#include "core/ops.h"
#include "core/ops/fused_attention_tiles.h"
#include "core/ops/query_tiles.h"
#include "core/ops/path_plan.h"
#include "core/parallel.h"

namespace ordo {
namespace {


// One pair's inputs as the kernel reads them.
struct PathPair {
  const Real *k, *w, *beta;  // rows of ld, beta with stride H
  int64_t ld, H, d;
};

// The per-thread buffers of one pair. dm: d rounded up to the register block's rows (kMR),
// the rows of the states and adjoints the tile products take; nl: the lanes of a block's
// sweep (kTile keys, then dp for the rows of its map).
struct PathBuffers {
  int64_t Lk = 0, dp = 0, dm = 0, nl = 0;
  Real *v = nullptr, *dv = nullptr;                  // v, and the dv sums, as (Lk, dp) rows
  Real *dk = nullptr, *dw = nullptr, *db = nullptr;  // dk, dw (Lk, d) and dbeta (Lk) sums
  Real *zt = nullptr, *gt = nullptr;                 // (Lk, kTile): z^T then P^T; g^T then dz^T
  Real *rt = nullptr, *rt2 = nullptr;                // the lanes' states (dm, kTile), two for the blocks' maps
  Real *adj = nullptr, *adj2 = nullptr;              // their adjoints (dm, kTile), likewise
  Real *checkpoints = nullptr, *states = nullptr;    // (blocks, d, kTile), (kTile, d, kTile)
  Real *dot = nullptr, *dos = nullptr, *out = nullptr;  // dO^T (dp, kTile); dO, product rows (kTile, dp)
  Real *sweeps = nullptr;                            // the older blocks' sweeps (blocks, dm, nl)
  Real *dkt = nullptr, *dmap = nullptr;              // their gradients: keys (blocks, kTile, dp), maps (blocks, dm, dp)
  Real *snaps = nullptr, *dsweep = nullptr;          // one block's sweep before each step and after (kTile + 1, dm, nl); its gradient (dm, nl)
  Real *st = nullptr, *uv = nullptr;                 // a state transposed (kTile lanes, dp; rows kTile apart if d <= kTile); the backward sweep's dots (2 nl)

  PathBuffers(const PathPlan& p, bool backward) {
    Lk = round_up(p.L, kVec) + kVec, dp = round_up(p.d, kVec), dm = round_up(p.d, kMR), nl = kTile + dp;
    const int64_t lanes = p.d * kTile, blocks = (p.L + kTile - 1) / kTile + 1, sweep = dm * nl;
    int64_t n = Lk * dp + 2 * Lk * kTile + 2 * dm * kTile + 3 * dp * kTile + blocks * sweep;
    if (backward)
      n += Lk * dp + 2 * Lk * p.d + Lk + 2 * dm * kTile + blocks * lanes + kTile * lanes +
           blocks * (kTile + dm) * dp + (kTile + 2) * sweep + kTile * std::max(dp, kTile) + 2 * nl;
    thread_local std::vector<Real> buffer;
    if (buffer.size() < static_cast<size_t>(n)) buffer.resize(static_cast<size_t>(n));
    Real* at = buffer.data();
    auto take = [&at](int64_t m) { Real* r = at; at += m; return r; };
    v = take(Lk * dp), zt = take(Lk * kTile), gt = take(Lk * kTile), rt = take(dm * kTile), rt2 = take(dm * kTile);
    dot = take(dp * kTile), dos = take(dp * kTile), out = take(dp * kTile), sweeps = take(blocks * sweep);
    if (backward) {
      dv = take(Lk * dp), dk = take(Lk * p.d), dw = take(Lk * p.d), db = take(Lk);
      adj = take(dm * kTile), adj2 = take(dm * kTile);
      checkpoints = take(blocks * lanes), states = take(kTile * lanes);
      dkt = take(blocks * kTile * dp), dmap = take(blocks * dm * dp);
      snaps = take((kTile + 1) * sweep), dsweep = take(sweep), st = take(kTile * std::max(dp, kTile)), uv = take(2 * nl);
    }
  }
  Real* sweep(int64_t m) const { return sweeps + m * dm * nl; }
};

// One key's step of the walk over the lanes' states (d, kTile), from rin into rout (the same
// block for a walk in place): with `logits`, z^T's row (s r . k_j where the lane sees key j,
// -inf elsewhere); then r <- H_j r where the lane sees j and j is not its farthest key. The
// dot products run over c in order, as the reference's. NV vectors of lanes from i0 at a
// time, their partial sums in registers through the loop over c (written as plain loops over
// all kTile lanes, GCC kept the sums in memory, zeroed them with rep stos and spilled).
template <bool kLogits, int NV>
inline void walk_lanes(const PathPair& x, const QueryTile& tl, Real scale, int64_t j, int64_t i0, const Real* rin,
                       Real* rout, Real* __restrict z_row) {
  const Real* __restrict kj = x.k + j * x.ld;
  const Real* __restrict wj = x.w + j * x.ld;
  VReal z[NV] = {}, f[NV] = {};
  for (int64_t c = 0; c < x.d; ++c) {
    const Real* r = rin + c * kTile + i0;
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) {
      const VReal rv = load_vec(r + v * kVec);
      if constexpr (kLogits) z[v] += rv * kj[c];
      f[v] += wj[c] * rv;
    }
  }
  constexpr int G = NV * int(kVec);
  Real zs[G], fs[G];
  for (int v = 0; v < NV; ++v) store_vec(zs + v * kVec, z[v]), store_vec(fs + v * kVec, f[v]);
  const Real bj = x.beta[j * x.H];
  const int32_t jj = static_cast<int32_t>(j);
  for (int i = 0; i < G; ++i) {
    const bool sees = (jj >= tl.lo[i0 + i]) & (jj < tl.hi[i0 + i]);
    if constexpr (kLogits) z_row[i0 + i] = sees ? scale * zs[i] : -INFINITY;
    fs[i] = sees & (jj > tl.lo[i0 + i]) ? bj * fs[i] : Real(0);
  }
  for (int v = 0; v < NV; ++v) f[v] = load_vec(fs + v * kVec);
  for (int64_t c = 0; c < x.d; ++c) {
    const Real* r = rin + c * kTile + i0;
    Real* out = rout + c * kTile + i0;
    const Real wc = wj[c];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) store_vec(out + v * kVec, load_vec(r + v * kVec) - f[v] * wc);
  }
}

// Lane groups of 4 vectors, then one of the 1 to 3 left, over lanes [begin, end) (multiples
// of kVec).
template <class F>
inline void each_lane_group(int64_t begin, int64_t end, F&& f) {
  int64_t i0 = begin;
  for (; i0 + 4 * kVec <= end; i0 += 4 * kVec) f(std::integral_constant<int, 4>{}, i0);
  switch ((end - i0) / kVec) {
    case 3: f(std::integral_constant<int, 3>{}, i0); break;
    case 2: f(std::integral_constant<int, 2>{}, i0); break;
    case 1: f(std::integral_constant<int, 1>{}, i0); break;
    default: break;
  }
}

// The lanes that see key j, [begin, end) rounded out to whole vectors; empty if none. Outside
// them a key changes nothing (no logit, no step, no adjoint): in a causal tile's own block of
// keys, about half of every key's lanes. PaTH's mask is causal (path_plan refuses others),
// with or without a window, and a real row always sees its own key, so the lanes with keys
// are the first ones (padding rows and the lanes past nq have none) and their [lo, hi) only
// move forward from lane to lane: those that see j begin after the ones whose keys all come
// before j and end before the first whose keys all come after it. Two counts, which vectorise
// (a search did not). (Stick-breaking without the current key has an empty first lane: this
// would not hold there.)
inline std::pair<int64_t, int64_t> lanes_seeing(const QueryTile& tl, int64_t j) {
  const int32_t jj = static_cast<int32_t>(j);
  int32_t before = 0, upto = 0;
  for (int64_t i = 0; i < tl.nqp; ++i) {
    const int32_t has = tl.lo[i] < tl.hi[i];
    before += has & (tl.hi[i] <= jj);
    upto += has & (tl.lo[i] <= jj);
  }
  if (upto <= before) return {0, 0};
  return {before / kVec * kVec, round_up(int64_t{upto}, kVec)};
}

template <bool kLogits>
ORDO_WIDE_LOOPS __attribute__((noinline)) void walk_key(const PathPair& x, const QueryTile& tl, Real scale, int64_t j,
                                                       const Real* rin, Real* rout, Real* __restrict z_row) {
  const auto [begin, end] = lanes_seeing(tl, j);
  each_lane_group(begin, end, [&](auto nv, int64_t i0) { walk_lanes<kLogits, nv()>(x, tl, scale, j, i0, rin, rout, z_row); });
  for (auto [from, to] : {std::pair<int64_t, int64_t>{0, begin}, {end, tl.nqp}}) {  // the lanes it leaves alone
    if constexpr (kLogits) std::fill(z_row + from, z_row + to, -INFINITY);
    if (rin != rout)
      for (int64_t c = 0; c < x.d; ++c)
        for (int64_t i = from; i < to; i += kVec) store_vec(rout + c * kTile + i, load_vec(rin + c * kTile + i));
  }
}

// The tile's walk from its nearest key back to key klo + stop: q^T into rt, then each key's
// logits into z^T (row jj = key klo + jj). Given checkpoints (the backward, stop = 0), also
// the states at the top of every block of kTile keys (block m: keys klo + m kTile ..), taken
// before that key's step; given states, the states of the block [stop, stop + kTile), walked
// last, at every key (state jj in states + (jj - stop) d kTile): its adjoint then needs no
// second walk.
void walk_tile(const PathPlan& p, const PathPair& x, const QueryTile& tl, int64_t stop, const Real* q, Real* rt,
               Real* zt, Real* checkpoints, Real* states) {
  const int64_t lanes = p.d * kTile;
  copy_transposed(q + tl.r0 * p.ld, tl.nq, p.d, p.ld, rt, tl.nqp);
  for (int64_t jj = tl.nk - 1; jj >= stop; --jj) {
    if (checkpoints && (jj % kTile == kTile - 1 || jj == tl.nk - 1))
      std::copy(rt, rt + lanes, checkpoints + (jj / kTile) * lanes);
    if (states && jj < stop + kTile) {
      Real* state = states + (jj - stop) * lanes;
      if (jj == std::min(tl.nk, stop + kTile) - 1) std::copy(rt, rt + lanes, state);
      walk_key<true>(x, tl, p.scale, tl.klo + jj, state, jj > stop ? state - lanes : rt, zt + jj * kTile);
    } else {
      walk_key<true>(x, tl, p.scale, tl.klo + jj, rt, rt, zt + jj * kTile);
    }
  }
}

// z^T to P^T in place: each lane's softmax over its keys (rows past nk zeroed). The sums run
// over the keys from the farthest, as the reference's; a lane that sees no key gets zeros.
ORDO_WIDE_LOOPS void softmax_lanes(const QueryTile& tl, Real* __restrict zt) {
  Real top[kTile], total[kTile];
  for (int64_t i = 0; i < tl.nqp; ++i) top[i] = -INFINITY, total[i] = 0;
  for (int64_t jj = 0; jj < tl.nk; ++jj)
    for (int64_t i = 0; i < tl.nqp; ++i) {
      const Real z = zt[jj * kTile + i];  // not std::max: GCC left that loop scalar, with a branch
      top[i] = z > top[i] ? z : top[i];
    }
  for (int64_t i = 0; i < tl.nqp; ++i) top[i] = top[i] == -INFINITY ? Real(0) : top[i];
  for (int64_t jj = 0; jj < tl.nk; ++jj)
    for (int64_t i = 0; i < tl.nqp; ++i) total[i] += zt[jj * kTile + i] = fast_exp(zt[jj * kTile + i] - top[i]);
  for (int64_t jj = 0; jj < tl.nk; ++jj)
    for (int64_t i = 0; i < tl.nqp; ++i) {
      const Real e = zt[jj * kTile + i];
      zt[jj * kTile + i] = total[i] > 0 ? e / (total[i] > 0 ? total[i] : Real(1)) : Real(0);
    }
  std::fill(zt + tl.nk * kTile, zt + tl.mk * kTile, Real(0));
}

// g^T (V dO^T) to dz^T in place: dz = s P (g - sum_m P_m g_m), the sum from the farthest key.
ORDO_WIDE_LOOPS void logit_grads(const QueryTile& tl, Real scale, const Real* __restrict pt, Real* __restrict gt) {
  Real mean[kTile] = {};
  for (int64_t jj = 0; jj < tl.nk; ++jj)
    for (int64_t i = 0; i < tl.nqp; ++i) mean[i] += pt[jj * kTile + i] * gt[jj * kTile + i];
  for (int64_t jj = 0; jj < tl.nk; ++jj)
    for (int64_t i = 0; i < tl.nqp; ++i)
      gt[jj * kTile + i] = scale * pt[jj * kTile + i] * (gt[jj * kTile + i] - mean[i]);
}

// Lanes [i0, i0 + NV kVec) of a = w . r and c = w . g (over e in order, rows of r and g
// `stride` apart), in registers: the adjoint walk's dots (stride kTile) and a sweep's (stride nl).
template <int NV>
inline void adjoint_dots(const Real* __restrict w, int64_t d, int64_t stride, int64_t i0,
                         const Real* __restrict r, const Real* __restrict g, Real* __restrict a,
                         Real* __restrict c) {
  VReal av[NV] = {}, cv[NV] = {};
  for (int64_t e = 0; e < d; ++e)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) {
      av[v] += w[e] * load_vec(r + e * stride + i0 + v * kVec);
      cv[v] += w[e] * load_vec(g + e * stride + i0 + v * kVec);
    }
  for (int v = 0; v < NV; ++v) store_vec(a + i0 + v * kVec, av[v]), store_vec(c + i0 + v * kVec, cv[v]);
}

// A vector's sum in a fixed association per vector width (8 floats: lane_sum's; otherwise
// halves added pairwise, s[l] + s[l + n/2], down to one), so the same bits on every thread
// count. The halves are taken in registers: the first version added them through a stack
// array, and each add waited on the store before it (store-to-load forwarding), about 40% of
// adjoint_key's samples at the default model.
template <int N, class V>
inline Real halving_sum(V v) {
  if constexpr (N == 2) {
    return v[0] + v[1];
  } else {
    typedef Real Half __attribute__((vector_size(sizeof(V) / 2)));
    Half lo, hi;
    std::memcpy(&lo, &v, sizeof lo);
    std::memcpy(&hi, reinterpret_cast<const char*>(&v) + sizeof lo, sizeof hi);
    return halving_sum<N / 2>(lo + hi);
  }
}

template <class V = VReal>  // a template, so that only the width's own branch is compiled
inline Real vector_sum(V v) {
  if constexpr (kVec == 8) {
    return ((v[0] + v[4]) + (v[1] + v[5])) + ((v[2] + v[6]) + (v[3] + v[7]));
  } else {
    return halving_sum<int(kVec)>(v);
  }
}

// out[i] = vector_sum(v[i]) for kVec vectors at once, the same bits (v is overwritten). With
// 16 floats to a vector the halving trees of all of them run side by side: at each level two
// vectors' groups of 2h lanes become one vector's groups of h (t[l] + t[l + h], each group
// still one vector's), vector i paired with i + n/2 so that the one vector left, v[0], holds
// the sums in order: 15 vector adds where 16 separate trees took 64 (4 levels each). Even with
// vector_sum's halves in registers, adjoint_key's two sums per component e were a large part of
// its time at the default model's d_h = 16.
constexpr int halving_index(int h, bool high, int p) {
  const int q = p / h;  // output group q: group q / 2 of the first vector (q even) or the second
  return (q % 2 ? int(kVec) : 0) + (q / 2) * 2 * h + p % h + (high ? h : 0);
}
template <int H, bool kHigh, class Mask, size_t... P>
constexpr Mask halving_mask(std::index_sequence<P...>) {
  return Mask{halving_index(H, kHigh, int(P))...};
}
template <int H>
inline void halving_level(VReal* v, int n) {
  if constexpr (H >= 1) {
    typedef std::conditional_t<sizeof(Real) == 4, int32_t, int64_t> Index;
    typedef Index Mask __attribute__((vector_size(kVecBytes)));
    constexpr Mask lo = halving_mask<H, false, Mask>(std::make_index_sequence<kVec>{});
    constexpr Mask hi = halving_mask<H, true, Mask>(std::make_index_sequence<kVec>{});
    for (int i = 0; i < n / 2; ++i)
      v[i] = __builtin_shuffle(v[i], v[i + n / 2], lo) + __builtin_shuffle(v[i], v[i + n / 2], hi);
    halving_level<H / 2>(v, n / 2);
  }
}
template <class V = VReal>
inline void vector_sums(V* v, Real* out) {
  if constexpr (kVec == 16) {
    halving_level<int(kVec) / 2>(v, int(kVec));
    store_vec(out, v[0]);
  } else {
    for (int64_t i = 0; i < kVec; ++i) out[i] = vector_sum(v[i]);
  }
}

// One key's step of the adjoint walk (keys from the farthest on), the state r_j of every lane
// in r (d, kTile) and the adjoints in g: the key's dbeta, dw and dk sums over the lanes. With
// m_i = 1 where lane i moves at key j (it sees j, and j is not its farthest key), a = w_j . r,
// c = w_j . g, alpha = m beta_j a and gamma = m beta_j c:
//   dbeta_j -= sum m a c,  dw_j -= sum alpha g + gamma r,  g <- g - gamma w_j (that is, H_j g),
//   dk_j += sum dz r,  g += dz k_j.
// The sums over lanes are vector accumulators, one pass over r and g per component e.
ORDO_WIDE_LOOPS __attribute__((noinline)) void adjoint_key(const PathPair& x, const QueryTile& tl, int64_t j,
                                                          const Real* __restrict r, const Real* __restrict dz,
                                                          Real* __restrict g, Real* __restrict dk_j,
                                                          Real* __restrict dw_j, Real* __restrict db_j) {
  const Real* __restrict kj = x.k + j * x.ld;
  const Real* __restrict wj = x.w + j * x.ld;
  const Real bj = x.beta[j * x.H];
  const int32_t jj = static_cast<int32_t>(j);
  Real a[kTile], c[kTile], alpha[kTile], gamma[kTile];
  const auto [begin, end] = lanes_seeing(tl, j);  // the rest neither move nor have a dz
  each_lane_group(begin, end, [&](auto nv, int64_t i0) { adjoint_dots<nv()>(wj, x.d, kTile, i0, r, g, a, c); });
  for (int64_t i = begin; i < end; ++i) {
    const Real m = (jj >= tl.lo[i]) & (jj < tl.hi[i]) & (jj > tl.lo[i]) ? Real(1) : Real(0);
    a[i] *= m, alpha[i] = bj * a[i], gamma[i] = m * (bj * c[i]);
  }
  *db_j -= lane_sum<Real>(end - begin, [&](int64_t i) { return a[begin + i] * c[begin + i]; });
  for (int64_t e0 = 0; e0 < x.d; e0 += kVec) {  // kVec components at a time, their sums together
    VReal sw[kVec] = {}, sk[kVec] = {};
    const int64_t ne = std::min<int64_t>(kVec, x.d - e0);
    for (int64_t ee = 0; ee < ne; ++ee) {
      const int64_t e = e0 + ee;
      const Real* __restrict re = r + e * kTile;
      Real* __restrict ge = g + e * kTile;
      const Real we = wj[e], ke = kj[e];
      for (int64_t v = begin / kVec; v < end / kVec; ++v) {
        const VReal rv = load_vec(re + v * kVec), gv = load_vec(ge + v * kVec);
        const VReal dzv = load_vec(dz + v * kVec), gam = load_vec(gamma + v * kVec);
        sw[ee] += load_vec(alpha + v * kVec) * gv + gam * rv;
        sk[ee] += dzv * rv;
        store_vec(ge + v * kVec, (gv - gam * we) + dzv * ke);
      }
    }
    Real ws[kVec], ks[kVec];
    vector_sums(sw, ws), vector_sums(sk, ks);
    for (int64_t ee = 0; ee < ne; ++ee) dw_j[e0 + ee] -= ws[ee], dk_j[e0 + ee] += ks[ee];
  }
}

// ---- The keys below a tile's own block, a block of kTile at a time (no window) ----
//
// Without a window every real query of a tile whose first row is r0 sees every key below r0,
// and the blocks of kTile keys there (block m: keys a = m kTile .. a + kTile - 1) are the same
// for every tile above them. Walking block m from its top key takes a state S to
//   S_out = P_m S,   P_m = H_a H_{a+1} ... H_{a+kTile-1},
// and gives key j the logit s (H_{j+1} ... H_{a+kTile-1} S) . k_j = s S . kt_j, where
//   kt_j = H_{a+kTile-1} ... H_{j+1} k_j
// is the key carried to the block's top. One sweep per pair and block forms both
// (sweep_block); a tile then takes each block below its own with two tile products, the
// logits Kt S and the next state P_m S, where the walk took 3 d multiply-adds per query and
// key on vector lanes: the authors' chunked form (their UT transform builds the same P_m),
// with the walk kept for the tile's own block, whose keys its queries see in part. Backward,
// with g the adjoint of S_out (from the farther blocks) and dz the block's logit gradients
// (the scale folded in, as adjoint_key's):
//   dS = Kt^T dz + P_m^T g,   dKt += dz S^T,   dP_m += g S^T,
// and the sweep's own backward (sweep_block_backward) takes dKt and dP_m to dk, dw, dbeta.
//
// A sweep's lanes (bf.nl = kTile + dp, rows c < dm; rows past d zero): lane jj the key
// a + jj, joining after the step of its own key (zero before); lane kTile + r the row r of
// P_m, e_r at the start (P_m^T = H_{a+kTile-1} ... H_a, so its columns are P_m's rows):
//   for s = a .. a + kTile - 1:  x <- x - beta_s w_s (w_s . x) on every lane;  lane s - a = k_s.
// Block 0's first step (key 0, no query's state ever steps there) is left out.

// x <- x - beta (w . x) w on the lanes [l0, l0 + NV kVec) of a sweep (rows of nl lanes).
template <int NV>
inline void reflect_lanes(const Real* __restrict w, Real beta, int64_t d, int64_t nl, int64_t l0, Real* __restrict x) {
  VReal u[NV] = {}, u2[NV] = {};  // two chains of sums (even and odd c): a step is latency-bound
  int64_t c = 0;
  for (; c + 1 < d; c += 2)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) {
      u[v] += w[c] * load_vec(x + c * nl + l0 + v * kVec);
      u2[v] += w[c + 1] * load_vec(x + (c + 1) * nl + l0 + v * kVec);
    }
  if (c < d)
    for (int v = 0; v < NV; ++v) u[v] += w[c] * load_vec(x + c * nl + l0 + v * kVec);
  for (int v = 0; v < NV; ++v) u[v] = beta * (u[v] + u2[v]);
  for (c = 0; c < d; ++c)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) {
      Real* at = x + c * nl + l0 + v * kVec;
      store_vec(at, load_vec(at) - u[v] * w[c]);
    }
}

// The lanes a sweep's step s - a = ss changes: the keys before it, [0, ss) rounded out to
// whole vectors (the lanes past ss are zero and stay so), and the map's rows. f(group, l0)
// on groups of vectors (each_lane_group), or g(l) on each vector.
template <class F>
inline void sweep_lanes(int64_t ss, int64_t nl, F&& f) {
  each_lane_group(0, round_up(ss, kVec), f);
  each_lane_group(kTile, nl, f);
}
template <class G>
inline void sweep_vectors(int64_t ss, int64_t nl, G&& g) {
  for (int64_t l = 0; l < round_up(ss, kVec); l += kVec) g(l);
  for (int64_t l = kTile; l < nl; l += kVec) g(l);
}

// Block m's sweep into x (dm, nl); given snaps, x before each step ss into snaps + ss dm nl.
ORDO_WIDE_LOOPS __attribute__((noinline)) void sweep_block(const PathPair& p, int64_t m, int64_t dm, int64_t nl,
                                                          Real* x, Real* snaps) {
  const int64_t a = m * kTile;
  std::fill(x, x + dm * nl, Real(0));
  for (int64_t r = 0; r < p.d; ++r) x[r * nl + kTile + r] = 1;
  for (int64_t ss = 0; ss < kTile; ++ss) {
    const int64_t s = a + ss;
    if (snaps) std::copy(x, x + dm * nl, snaps + ss * dm * nl);
    if (s > 0) {
      const Real* w = p.w + s * p.ld;
      const Real beta = p.beta[s * p.H];
      sweep_lanes(ss, nl, [&](auto nv, int64_t l0) { reflect_lanes<nv()>(w, beta, p.d, nl, l0, x); });
    }
    for (int64_t c = 0; c < p.d; ++c) x[c * nl + ss] = p.k[s * p.ld + c];
  }
}

// The sweep's backward: dx (dm, nl), the gradient of its result, taken back through the steps
// to dk, dw and dbeta (added to theirs, rows from the pair's row 0). With x a lane before step
// s, u = w_s . x and t = w_s . g (g the lane's gradient after the step):
//   dbeta_s -= sum u t,   dw_s -= beta_s sum (t x + u g),   g <- g - beta_s t w_s,
// the sums over the lanes in vector accumulators (vector_sum's association).
ORDO_WIDE_LOOPS __attribute__((noinline)) void sweep_block_backward(const PathPair& p, int64_t m, int64_t dm,
                                                                   int64_t nl, Real* snaps, Real* dx, Real* uv,
                                                                   Real* dk, Real* dw, Real* db) {
  const int64_t a = m * kTile;
  sweep_block(p, m, dm, nl, snaps + kTile * dm * nl, snaps);  // the result itself is not needed
  Real* __restrict u = uv;
  Real* __restrict t = uv + nl;
  for (int64_t ss = kTile - 1; ss >= 0; --ss) {
    const int64_t s = a + ss;
    for (int64_t c = 0; c < p.d; ++c) dk[s * p.d + c] += dx[c * nl + ss], dx[c * nl + ss] = 0;
    if (s == 0) continue;
    const Real* __restrict w = p.w + s * p.ld;
    const Real beta = p.beta[s * p.H];
    const Real* __restrict x = snaps + ss * dm * nl;
    sweep_lanes(ss, nl, [&](auto nv, int64_t l0) { adjoint_dots<nv()>(w, p.d, nl, l0, x, dx, u, t); });
    VReal sb{};
    sweep_vectors(ss, nl, [&](int64_t l) { sb += load_vec(u + l) * load_vec(t + l); });
    db[s] -= vector_sum(sb);
    for (int64_t c0 = 0; c0 < p.d; c0 += kVec) {  // kVec components at a time, their sums together
      VReal sw[kVec] = {};
      const int64_t nc = std::min<int64_t>(kVec, p.d - c0);
      for (int64_t cc = 0; cc < nc; ++cc) {
        const int64_t c = c0 + cc;
        const Real wc = w[c];
        sweep_vectors(ss, nl, [&](int64_t l) {
          const VReal tl = load_vec(t + l), gl = load_vec(dx + c * nl + l);
          sw[cc] += tl * load_vec(x + c * nl + l) + load_vec(u + l) * gl;
          store_vec(dx + c * nl + l, gl - (beta * tl) * wc);
        });
      }
      Real ws[kVec];
      vector_sums(sw, ws);
      for (int64_t cc = 0; cc < nc; ++cc) dw[s * p.d + c0 + cc] -= beta * ws[cc];
    }
  }
}

// The older rows of a tile's z^T (keys [0, r0)): s z where the lane sees the key, -inf
// elsewhere (the lanes of padding rows and past nq).
ORDO_WIDE_LOOPS void scale_older(const QueryTile& tl, Real scale, Real* __restrict zt) {
  for (int64_t jj = 0; jj < tl.r0; ++jj)
    for (int64_t i = 0; i < tl.nqp; ++i) {
      const bool sees = (jj >= tl.lo[i]) & (jj < tl.hi[i]);
      zt[jj * kTile + i] = sees ? scale * zt[jj * kTile + i] : -INFINITY;
    }
}

// The tile's logits of the keys below its own block, the farther blocks in turn from the
// state rt that its own block's walk left; given checkpoints, the state entering each block
// (block m's in checkpoints + m d kTile).
void older_logits(const PathPlan& p, const QueryTile& tl, PathBuffers& bf, Real* checkpoints) {
  Real *s = bf.rt, *next = bf.rt2;
  for (int64_t i = 0; i < tl.nqp; ++i)  // lanes without keys (padding rows) carry zeros, not their q
    if (tl.lo[i] >= tl.hi[i])
      for (int64_t c = 0; c < p.d; ++c) s[c * kTile + i] = 0;
  for (int64_t m = tl.r0 / kTile - 1; m >= 0; --m) {
    const Real* x = bf.sweep(m);
    if (checkpoints) std::copy(s, s + p.d * kTile, checkpoints + m * p.d * kTile);
    tile_product(false, kTile, tl.nqp, p.d, x, 1, bf.nl, s, kTile, bf.zt + m * kTile * kTile, kTile);
    if (m > 0) {
      tile_product(false, bf.dm, tl.nqp, p.d, x + kTile, 1, bf.nl, s, kTile, next, kTile);
      std::swap(s, next);
    }
  }
  scale_older(tl, p.scale, bf.zt);
}

// Their backward: the adjoint carried up from the farthest block (into the returned buffer,
// bf.adj or bf.adj2), the sums of the blocks' dKt and dP_m.
Real* older_adjoint(const PathPlan& p, const QueryTile& tl, PathBuffers& bf) {
  Real *g = bf.adj, *next = bf.adj2;
  std::fill(g, g + bf.dm * kTile, Real(0));
  for (int64_t m = 0; m < tl.r0 / kTile; ++m) {
    const Real* x = bf.sweep(m);
    const Real* s = bf.checkpoints + m * p.d * kTile;
    const Real* dz = bf.gt + m * kTile * kTile;
    // S^T (lanes, dp; row stride ls): the 8 x 8 register transposes where d <= kTile
    const int64_t ls = p.d <= kTile ? kTile : bf.dp;
    if (p.d <= kTile) {
      copy_transposed(s, p.d, tl.nqp, kTile, bf.st, bf.dp);
    } else {
      for (int64_t i = 0; i < tl.nqp; ++i) {
        for (int64_t c = 0; c < p.d; ++c) bf.st[i * ls + c] = s[c * kTile + i];
        for (int64_t c = p.d; c < bf.dp; ++c) bf.st[i * ls + c] = 0;
      }
    }
    tile_product(true, kTile, bf.dp, tl.nqp, dz, kTile, 1, bf.st, ls, bf.dkt + m * kTile * bf.dp, bf.dp);
    tile_product(false, bf.dm, tl.nqp, kTile, x, bf.nl, 1, dz, kTile, next, kTile);
    if (m > 0) {
      tile_product(true, bf.dm, bf.dp, tl.nqp, g, kTile, 1, bf.st, ls, bf.dmap + m * bf.dm * bf.dp, bf.dp);
      tile_product(true, bf.dm, tl.nqp, p.d, x + kTile, bf.nl, 1, g, kTile, next, kTile);
    }
    std::swap(g, next);
  }
  return g;
}

// The blocks below the last tile with queries that see keys (no window): their count.
int64_t older_blocks(const PathPlan& p, int64_t b) {
  if (p.mask.window > 0) return 0;
  const int64_t n = std::min<int64_t>(p.rows(b), p.key_lengths[b]);
  return n > 0 ? (n - 1) / kTile : 0;
}

Var path_with_plan(Tape& t, Var q, Var k, Var v, Var w, Var beta, const PathPlan& p) {
  Tensor O = Tensor::zeros(t.value(q).shape());
  {
    const Real *qd = t.value(q).data(), *kd = t.value(k).data(), *vd = t.value(v).data();
    const Real *wd = t.value(w).data(), *bd = t.value(beta).data();
    Real* od = O.data();
    parallel_for(p.B * p.H, 3 * p.L * p.L * p.d + 1, [&](int64_t bh) {
      const int64_t b = bh / p.H, h = bh % p.H, o = p.offset(b, h);
      const PathPair x{kd + o, wd + o, bd + p.beta_offset(b, h), p.ld, p.H, p.d};
      PathBuffers bf(p, false);
      copy_padded(vd + o, p.rows(b), p.d, p.ld, Real(1), bf.v, bf.Lk, bf.dp);
      const int64_t nb = older_blocks(p, b);
      for (int64_t m = 0; m < nb; ++m) sweep_block(x, m, bf.dm, bf.nl, bf.sweep(m), nullptr);
      for (int64_t r0 = 0; r0 < p.rows(b); r0 += kTile) {
        const QueryTile tl(p, b, r0);
        const int64_t own = nb > 0 && tl.nk > 0 ? r0 : 0;  // the keys below go by blocks
        walk_tile(p, x, tl, own, qd + o, bf.rt, bf.zt, nullptr, nullptr);
        if (own > 0) older_logits(p, tl, bf, nullptr);
        softmax_lanes(tl, bf.zt);
        product_over_keys(tl, bf.zt, bf.v + tl.klo * bf.dp, bf.dp, bf.out);
        for (int64_t i = 0; i < tl.nq; ++i)
          std::copy(bf.out + i * bf.dp, bf.out + i * bf.dp + p.d, od + o + (r0 + i) * p.ld);
      }
    });
  }

  Tape::Backward backward = [q, k, v, w, beta, p](Tape& t, const Tensor& dO) {
    const Var in[5] = {q, k, v, w, beta};
    if (std::none_of(in, in + 5, [&](Var x) { return t.needs_grad(x); })) return;
    // Summed buffers: the inputs may share a Var. Each pair writes only its own head's columns.
    Tensor g[5];
    for (int i = 0; i < 5; ++i) g[i] = Tensor::zeros(t.shape(in[i]));
    const Real *qd = t.value(q).data(), *kd = t.value(k).data(), *vd = t.value(v).data();
    const Real *wd = t.value(w).data(), *bd = t.value(beta).data(), *dod = dO.data();
    parallel_for(p.B * p.H, 8 * p.L * p.L * p.d + 1, [&](int64_t bh) {
      const int64_t b = bh / p.H, h = bh % p.H, o = p.offset(b, h), ob = p.beta_offset(b, h), rows = p.rows(b);
      const PathPair x{kd + o, wd + o, bd + ob, p.ld, p.H, p.d};
      PathBuffers bf(p, true);
      copy_padded(vd + o, rows, p.d, p.ld, Real(1), bf.v, bf.Lk, bf.dp);
      std::fill(bf.dv, bf.dv + bf.Lk * bf.dp, Real(0));
      std::fill(bf.dk, bf.dk + bf.Lk * p.d, Real(0));
      std::fill(bf.dw, bf.dw + bf.Lk * p.d, Real(0));
      std::fill(bf.db, bf.db + bf.Lk, Real(0));
      const int64_t lanes = p.d * kTile, nb = older_blocks(p, b);
      for (int64_t m = 0; m < nb; ++m) sweep_block(x, m, bf.dm, bf.nl, bf.sweep(m), nullptr);
      std::fill(bf.dkt, bf.dkt + nb * kTile * bf.dp, Real(0));
      std::fill(bf.dmap, bf.dmap + nb * bf.dm * bf.dp, Real(0));
      for (int64_t r0 = 0; r0 < rows; r0 += kTile) {
        const QueryTile tl(p, b, r0);
        const int64_t own = nb > 0 && tl.nk > 0 ? r0 : 0;  // the keys below go by blocks
        walk_tile(p, x, tl, own, qd + o, bf.rt, bf.zt, own > 0 ? nullptr : bf.checkpoints, bf.states);
        if (own > 0) older_logits(p, tl, bf, bf.checkpoints);
        softmax_lanes(tl, bf.zt);
        // g^T = V dO^T, then dz^T; dv_j += sum_t P_tj dO_t.
        const Real* dout = dod + o + r0 * p.ld;
        copy_transposed(dout, tl.nq, p.d, p.ld, bf.dot, tl.nqp);
        tile_product(false, tl.mk, tl.nqp, p.d, bf.v + tl.klo * bf.dp, bf.dp, 1, bf.dot, kTile, bf.gt, kTile);
        logit_grads(tl, p.scale, bf.zt, bf.gt);
        copy_padded(dout, tl.nq, p.d, p.ld, Real(1), bf.dos, tl.nqp, bf.dp);
        tile_product(true, tl.mk, bf.dp, tl.nq, bf.zt, kTile, 1, bf.dos, bf.dp, bf.dv + tl.klo * bf.dp, bf.dp);
        // The adjoint: the blocks below the tile's own by their maps, then its own block's
        // keys one at a time from the states its walk kept.
        Real* adj = bf.adj;
        if (own > 0) {
          adj = older_adjoint(p, tl, bf);
          for (int64_t j = own; j < tl.nk; ++j)
            adjoint_key(x, tl, j, bf.states + (j - own) * lanes, bf.gt + j * kTile, adj, bf.dk + j * p.d,
                        bf.dw + j * p.d, bf.db + j);
        } else {  // the adjoint walk, a block of keys at a time: its states from the block's
                  // checkpoint (walked down from its top key), then the adjoint up through them
          std::fill(bf.adj, bf.adj + lanes, Real(0));
          for (int64_t m = 0; m < tl.blocks(); ++m) {
            const int64_t first = m * kTile, last = std::min(tl.nk, first + kTile);  // jj in [first, last)
            auto state = [&](int64_t jj) { return bf.states + (jj - first) * lanes; };  // key klo + jj's
            if (m > 0) {  // the first block's states are walk_tile's
              std::copy(bf.checkpoints + m * lanes, bf.checkpoints + (m + 1) * lanes, state(last - 1));
              for (int64_t jj = last - 1; jj > first; --jj)
                walk_key<false>(x, tl, p.scale, tl.klo + jj, state(jj), state(jj - 1), nullptr);
            }
            for (int64_t jj = first; jj < last; ++jj) {
              const int64_t j = tl.klo + jj;
              adjoint_key(x, tl, j, state(jj), bf.gt + jj * kTile, bf.adj, bf.dk + j * p.d, bf.dw + j * p.d,
                          bf.db + j);
            }
          }
        }
        for (int64_t i = 0; i < tl.nq; ++i)
          for (int64_t c = 0; c < p.d; ++c) g[0].data()[o + (r0 + i) * p.ld + c] = adj[c * kTile + i];
      }
      for (int64_t m = 0; m < nb; ++m) {  // the blocks' dKt and dP_m through their sweeps
        for (int64_t c = 0; c < bf.dm; ++c) {
          Real* row = bf.dsweep + c * bf.nl;
          for (int64_t jj = 0; jj < kTile; ++jj) row[jj] = bf.dkt[(m * kTile + jj) * bf.dp + c];
          for (int64_t r = 0; r < bf.dp; ++r) row[kTile + r] = r < bf.dm ? bf.dmap[(m * bf.dm + r) * bf.dp + c] : Real(0);
        }
        sweep_block_backward(x, m, bf.dm, bf.nl, bf.snaps, bf.dsweep, bf.uv, bf.dk, bf.dw, bf.db);
      }
      for (int64_t j = 0; j < rows; ++j) {
        std::copy(bf.dk + j * p.d, bf.dk + (j + 1) * p.d, g[1].data() + o + j * p.ld);
        std::copy(bf.dv + j * bf.dp, bf.dv + j * bf.dp + p.d, g[2].data() + o + j * p.ld);
        std::copy(bf.dw + j * p.d, bf.dw + (j + 1) * p.d, g[3].data() + o + j * p.ld);
        g[4].data()[ob + j * p.H] = bf.db[j];
      }
    });
    add_path_grads(t, in, g);
  };
  return t.push("path_attention", std::move(O), std::move(backward), {q, k, v, w, beta});
}

}  // namespace

Var path_attention(Tape& t, Var q, Var k, Var v, Var w, Var beta, const std::vector<int32_t>& key_lengths,
                   const AttentionMask& mask, Real scale) {
  return path_with_plan(t, q, k, v, w, beta,
                        path_plan("path_attention", t.shape(q), t.shape(k), t.shape(v), t.shape(w), t.shape(beta),
                                  key_lengths, std::nullopt, mask, scale));
}

Var path_attention_packed(Tape& t, Var q, Var k, Var v, Var w, Var beta, const std::vector<int32_t>& lengths,
                          int64_t L, const AttentionMask& mask, Real scale) {
  return path_with_plan(t, q, k, v, w, beta,
                        path_plan("path_attention_packed", t.shape(q), t.shape(k), t.shape(v), t.shape(w),
                                  t.shape(beta), lengths, L, mask, scale));
}

}  // namespace ordo
