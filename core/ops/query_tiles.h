// core/ops/query_tiles.h: what the kernels that walk keys with one vector lane per query
// share (stick-breaking, core/ops/stickbreaking_attention.cpp; PaTH, core/ops/path_attention.cpp;
// CoPE, core/ops/cope_attention.cpp):
// a tile of queries and the keys they see, laid out key-major (row = key, column = query),
// the product of such a tile with key rows, and the attribute that gives their elementwise
// loops whole AVX-512 registers. Built on core/ops/fused_attention_tiles.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/ops/fused_attention_tiles.h"

namespace ordo {
namespace {

// A kernel's lane loops in whole AVX-512 registers: GCC's default for the target is 256-bit
// vectors, half as wide as the machine (stick-breaking's default-model step went from 1.23x
// none's to 1.13x with it). noinline: inlined into its caller, a loop takes the caller's width.
#if defined(__GNUC__) && !defined(__clang__) && defined(__AVX512F__)
#define ORDO_WIDE_LOOPS __attribute__((target("prefer-vector-width=512"), noinline))
#else
#define ORDO_WIDE_LOOPS
#endif

// One tile: queries [r0, r0 + nq) (nqp lanes, a multiple of kVec; those past nq see no key)
// and the keys [klo, klo + nk) they see (mk rows, a multiple of kMR; those past nk zero).
// Plan: a kernel's plan with rows(b), L and keys(b, t) -> [lo, hi).
struct QueryTile {
  int64_t r0 = 0, nq = 0, nqp = 0, klo = 0, nk = 0, mk = 0;
  int32_t lo[kTile], hi[kTile];  // lane i's keys: [lo[i], hi[i])

  template <class Plan>
  QueryTile(const Plan& p, int64_t b, int64_t row0) : r0(row0) {
    nq = std::min(kTile, p.rows(b) - r0);
    nqp = round_up(nq, kVec);
    int64_t first = p.L, last = 0;
    for (int64_t i = 0; i < kTile; ++i) {
      const auto [l, h] = i < nq ? p.keys(b, r0 + i) : std::pair<int64_t, int64_t>{0, 0};
      lo[i] = static_cast<int32_t>(l), hi[i] = static_cast<int32_t>(h);
      if (h > l) first = std::min(first, l), last = std::max(last, h);
    }
    klo = last > first ? first : 0;
    nk = last > first ? last - first : 0;
    mk = round_up(nk, kMR);
  }
  int64_t blocks() const { return (nk + kTile - 1) / kTile; }  // of kTile keys, from klo
};

// Which lanes see which keys, by blocks of kMR (docs/spec.md's masks: a lane's keys [lo, hi)
// never fall as the lane rises, so the lanes that see a key are an interval, and so are the
// keys a lane block sees). Per block r of the tile's kMR key rows (klo + r kMR on):
//   lane_begin[r], lane_end[r]   the lanes [a, b) that see one of its keys (b <= nq; a = b:
//                                none), the inner range of a product summed over lanes;
//   col_begin[r], col_end[r]     the same rounded out to whole vectors (at most nqp), the
//                                columns of a key-major product that anyone reads.
// On the causal diagonal tile about half of each. A sum that leaves the rest out leaves out
// zeros (the weights and logit gradients of keys a lane does not see), so every element it
// computes is the same chain of FMAs over the same nonzero terms: for finite inputs the same
// bits (a sum that starts at +0 is never -0, so adding a zero changes nothing; 0 x inf was
// NaN).
// The storage is the thread's: one KeyBands alive per thread at a time.
struct KeyBands {
  const int64_t *lane_begin = nullptr, *lane_end = nullptr, *col_begin = nullptr, *col_end = nullptr;
  explicit KeyBands(const QueryTile& tl) {
    const int64_t n = tl.mk / kMR;
    thread_local std::vector<int64_t> store;
    if (store.size() < static_cast<size_t>(4 * n)) store.resize(static_cast<size_t>(4 * n));
    int64_t *lb = store.data(), *le = lb + n, *cb = le + n, *ce = cb + n;
    lane_begin = lb, lane_end = le, col_begin = cb, col_end = ce;
    int64_t a = 0, b = 0;  // both rise with the block
    for (int64_t r = 0; r < n; ++r) {
      const int64_t j0 = tl.klo + r * kMR, j1 = j0 + kMR;
      while (a < tl.nq && tl.hi[a] <= j0) ++a;  // lanes before a see no key >= j0
      b = std::max(a, b);
      while (b < tl.nq && tl.lo[b] < j1) ++b;   // lanes from b on see no key < j1
      // [a, b) holds every lane that sees one of the keys; an empty lane there (a window
      // shorter than the block, or none of the keys real) only widens it.
      lb[r] = a, le[r] = b;
      cb[r] = b > a ? a / kVec * kVec : 0;
      ce[r] = b > a ? std::min(round_up(b, kVec), tl.nqp) : 0;
    }
  }
};

// xt (mk, kTile) = A (mk key rows, row stride lda) B (K, nqp; row stride kTile) over each
// key block's columns only (KeyBands): a key-major product of the tile, such as z^T = K q^T.
// The columns left out are not written.
inline void key_major_product(const QueryTile& tl, const KeyBands& bands, int64_t K, const Real* a, int64_t lda,
                              const Real* b, Real* xt) {
  for (int64_t r = 0; r * kMR < tl.mk; ++r) {
    const int64_t c0 = bands.col_begin[r], c1 = bands.col_end[r];
    if (c1 > c0)
      tile_product<false>(kMR, c1 - c0, K, a + r * kMR * lda, lda, 1, b + c0, kTile, xt + r * kMR * kTile + c0, kTile);
  }
}

// out (nqp, dp) = X Y over the tile's keys, X^T the key-major tile xt and Y the key rows y
// (row stride dp) from klo on, in the order of the keys. Taken kTile keys at a time, so that
// the slices of xt and y every register block sweeps stay in L1 (one product over all nk
// keys re-read both from L2 for each block: stick-breaking at L = 1024, 1.3x slower).
inline void product_over_keys(const QueryTile& tl, const Real* xt, const Real* y, int64_t dp, Real* out) {
  if (tl.nk == 0) std::fill(out, out + tl.nqp * dp, Real(0));
  for (int64_t k0 = 0; k0 < tl.nk; k0 += kTile)
    tile_product(k0 > 0, tl.nqp, dp, std::min(kTile, tl.nk - k0), xt + k0 * kTile, 1, kTile, y + k0 * dp, dp, out,
                 dp);
}

// product_over_keys where xt is zero at every key a lane does not see: each block of kMR
// lanes sums over the keys one of them sees only (the causal diagonal tile: about half),
// leaving out zeros, so for finite inputs the same bits.
inline void product_over_seen_keys(const QueryTile& tl, const Real* xt, const Real* y, int64_t dp, Real* out) {
  if (tl.nk == 0) std::fill(out, out + tl.nqp * dp, Real(0));
  int64_t first[kTile / kMR], last[kTile / kMR];  // each lane block's keys [first, last), from klo
  for (int64_t r = 0; r * kMR < tl.nqp; ++r) {
    first[r] = tl.nk, last[r] = 0;
    for (int64_t i = r * kMR; i < std::min(tl.nq, (r + 1) * kMR); ++i)
      if (tl.hi[i] > tl.lo[i]) first[r] = std::min(first[r], tl.lo[i] - tl.klo), last[r] = std::max(last[r], tl.hi[i] - tl.klo);
  }
  int64_t k_begin[kTile / kMR], k_end[kTile / kMR];
  for (int64_t k0 = 0; k0 < tl.nk; k0 += kTile) {
    const int64_t kc = std::min(kTile, tl.nk - k0);
    for (int64_t r = 0; r * kMR < tl.nqp; ++r)
      k_begin[r] = std::clamp(first[r] - k0, int64_t(0), kc), k_end[r] = std::clamp(last[r] - k0, int64_t(0), kc);
    tile_product_bands(k0 > 0, tl.nqp, dp, kc, Bands{nullptr, k_begin, k_end}, xt + k0 * kTile, 1, kTile, y + k0 * dp,
                       dp, out, dp);
  }
}

}  // namespace
}  // namespace ordo
