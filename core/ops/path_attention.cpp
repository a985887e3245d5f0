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
// registers. The backward walks forward, so it needs each key's state: the recomputing walk
// keeps the block of states at every kTile-th key (a checkpoint) and each block of kTile
// keys is walked again from its checkpoint into a (kTile, d, kTile) buffer before the
// adjoint passes over it; the first block, which the recomputing walk reaches last, it
// writes into that buffer as it goes (all of a tile of L <= 64 keys: no second walk).
// Memory per thread O(L kTile + kTile^2 d); no (L, L) tensor.
//
// Bits. The states, the logits, the softmax's sums and the products over keys are taken in
// the reference's order (each dot product over c in order; sums over keys from the farthest),
// so they differ from the reference only through core/fastmath.h's exp (float32; the float64
// build keeps libm's and gives the reference's forward bits). The backward's sums over the
// queries of a tile (dk, dw, dbeta) are taken across lanes (a fixed association per width)
// where the reference adds row after row, and dw's terms are grouped per lane first
// (adjoint_key): the last bits differ there. A pair (b, h) is one
// loop iteration, so any thread count gives the same bits.
#include <algorithm>
#include <cmath>
#include <type_traits>
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

// The per-thread buffers of one pair.
struct PathBuffers {
  int64_t Lk = 0, dp = 0;
  Real *v = nullptr, *dv = nullptr;                  // v, and the dv sums, as (Lk, dp) rows
  Real *dk = nullptr, *dw = nullptr, *db = nullptr;  // dk, dw (Lk, d) and dbeta (Lk) sums
  Real *zt = nullptr, *gt = nullptr;                 // (Lk, kTile): z^T then P^T; g^T then dz^T
  Real *rt = nullptr, *adj = nullptr;                // the lanes' states and adjoints (d, kTile)
  Real *checkpoints = nullptr, *states = nullptr;    // (blocks, d, kTile), (kTile, d, kTile)
  Real *dot = nullptr, *dos = nullptr, *out = nullptr;  // dO^T (dp, kTile); dO, product rows (kTile, dp)

  PathBuffers(const PathPlan& p, bool backward) {
    Lk = round_up(p.L, kVec) + kVec, dp = round_up(p.d, kVec);
    const int64_t lanes = p.d * kTile, blocks = (p.L + kTile - 1) / kTile + 1;
    int64_t n = Lk * dp + 2 * Lk * kTile + lanes + 3 * dp * kTile;
    if (backward) n += Lk * dp + 2 * Lk * p.d + Lk + lanes + blocks * lanes + kTile * lanes;
    thread_local std::vector<Real> buffer;
    if (buffer.size() < static_cast<size_t>(n)) buffer.resize(static_cast<size_t>(n));
    Real* at = buffer.data();
    auto take = [&at](int64_t m) { Real* r = at; at += m; return r; };
    v = take(Lk * dp), zt = take(Lk * kTile), gt = take(Lk * kTile), rt = take(lanes);
    dot = take(dp * kTile), dos = take(dp * kTile), out = take(dp * kTile);
    if (backward) {
      dv = take(Lk * dp), dk = take(Lk * p.d), dw = take(Lk * p.d), db = take(Lk), adj = take(lanes);
      checkpoints = take(blocks * lanes), states = take(kTile * lanes);
    }
  }
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

// The tile's walk from its nearest key back: q^T into rt, then each key's logits into z^T
// (row jj = key klo + jj). Given checkpoints (the backward), also the states at the top of
// every block of kTile keys (block m: keys klo + m kTile ..), taken before that key's step,
// and the states of the first block, walked last, at every key (state jj in
// states + jj d kTile): its adjoint then needs no second walk.
void walk_tile(const PathPlan& p, const PathPair& x, const QueryTile& tl, const Real* q, Real* rt, Real* zt,
               Real* checkpoints, Real* states) {
  const int64_t lanes = p.d * kTile;
  copy_transposed(q + tl.r0 * p.ld, tl.nq, p.d, p.ld, rt, tl.nqp);
  for (int64_t jj = tl.nk - 1; jj >= 0; --jj) {
    if (checkpoints && (jj % kTile == kTile - 1 || jj == tl.nk - 1))
      std::copy(rt, rt + lanes, checkpoints + (jj / kTile) * lanes);
    if (states && jj < kTile) {
      if (jj == std::min(tl.nk, kTile) - 1) std::copy(rt, rt + lanes, states + jj * lanes);
      Real* next = jj > 0 ? states + (jj - 1) * lanes : rt;
      walk_key<true>(x, tl, p.scale, tl.klo + jj, states + jj * lanes, next, zt + jj * kTile);
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

// Lanes [i0, i0 + NV kVec) of a = w_j . r and c = w_j . g (over e in order), in registers.
template <int NV>
inline void adjoint_dots(const Real* __restrict wj, int64_t d, int64_t i0, const Real* __restrict r,
                         const Real* __restrict g, Real* __restrict a, Real* __restrict c) {
  VReal av[NV] = {}, cv[NV] = {};
  for (int64_t e = 0; e < d; ++e)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) {
      av[v] += wj[e] * load_vec(r + e * kTile + i0 + v * kVec);
      cv[v] += wj[e] * load_vec(g + e * kTile + i0 + v * kVec);
    }
  for (int v = 0; v < NV; ++v) store_vec(a + i0 + v * kVec, av[v]), store_vec(c + i0 + v * kVec, cv[v]);
}

// A vector's sum in a fixed association per vector width (8 floats: lane_sum's), so the same
// bits on every thread count.
inline Real vector_sum(VReal v) {
  Real s[kVec];
  store_vec(s, v);
  if constexpr (kVec == 8) {
    return ((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7]));
  } else {
    for (int64_t half = kVec / 2; half > 0; half /= 2)  // halves added pairwise
      for (int64_t l = 0; l < half; ++l) s[l] += s[l + half];
    return s[0];
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
  each_lane_group(begin, end, [&](auto nv, int64_t i0) { adjoint_dots<nv()>(wj, x.d, i0, r, g, a, c); });
  for (int64_t i = begin; i < end; ++i) {
    const Real m = (jj >= tl.lo[i]) & (jj < tl.hi[i]) & (jj > tl.lo[i]) ? Real(1) : Real(0);
    a[i] *= m, alpha[i] = bj * a[i], gamma[i] = m * (bj * c[i]);
  }
  *db_j -= lane_sum<Real>(end - begin, [&](int64_t i) { return a[begin + i] * c[begin + i]; });
  for (int64_t e = 0; e < x.d; ++e) {
    const Real* __restrict re = r + e * kTile;
    Real* __restrict ge = g + e * kTile;
    const Real we = wj[e], ke = kj[e];
    VReal sw{}, sk{};
    for (int64_t v = begin / kVec; v < end / kVec; ++v) {
      const VReal rv = load_vec(re + v * kVec), gv = load_vec(ge + v * kVec);
      const VReal dzv = load_vec(dz + v * kVec), gam = load_vec(gamma + v * kVec);
      sw += load_vec(alpha + v * kVec) * gv + gam * rv;
      sk += dzv * rv;
      store_vec(ge + v * kVec, (gv - gam * we) + dzv * ke);
    }
    dw_j[e] -= vector_sum(sw);
    dk_j[e] += vector_sum(sk);
  }
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
      for (int64_t r0 = 0; r0 < p.rows(b); r0 += kTile) {
        const QueryTile tl(p, b, r0);
        walk_tile(p, x, tl, qd + o, bf.rt, bf.zt, nullptr, nullptr);
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
      const int64_t lanes = p.d * kTile;
      for (int64_t r0 = 0; r0 < rows; r0 += kTile) {
        const QueryTile tl(p, b, r0);
        walk_tile(p, x, tl, qd + o, bf.rt, bf.zt, bf.checkpoints, bf.states);
        softmax_lanes(tl, bf.zt);
        // g^T = V dO^T, then dz^T; dv_j += sum_t P_tj dO_t.
        const Real* dout = dod + o + r0 * p.ld;
        copy_transposed(dout, tl.nq, p.d, p.ld, bf.dot, tl.nqp);
        tile_product(false, tl.mk, tl.nqp, p.d, bf.v + tl.klo * bf.dp, bf.dp, 1, bf.dot, kTile, bf.gt, kTile);
        logit_grads(tl, p.scale, bf.zt, bf.gt);
        copy_padded(dout, tl.nq, p.d, p.ld, Real(1), bf.dos, tl.nqp, bf.dp);
        tile_product(true, tl.mk, bf.dp, tl.nq, bf.zt, kTile, 1, bf.dos, bf.dp, bf.dv + tl.klo * bf.dp, bf.dp);
        // The adjoint walk, a block of keys at a time: its states from the block's checkpoint
        // (walked down from its top key), then the adjoint up through them.
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
            adjoint_key(x, tl, j, state(jj), bf.gt + jj * kTile, bf.adj, bf.dk + j * p.d, bf.dw + j * p.d, bf.db + j);
          }
        }
        for (int64_t i = 0; i < tl.nq; ++i)
          for (int64_t c = 0; c < p.d; ++c) g[0].data()[o + (r0 + i) * p.ld + c] = bf.adj[c * kTile + i];
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
