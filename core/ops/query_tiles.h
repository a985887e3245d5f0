// core/ops/query_tiles.h: what the kernels that walk keys with one vector lane per query
// share (stick-breaking, core/ops/stickbreaking_attention.cpp; PaTH, core/ops/path_attention.cpp):
// a tile of queries and the keys they see, laid out key-major (row = key, column = query),
// the product of such a tile with key rows, and the attribute that gives their elementwise
// loops whole AVX-512 registers. Built on core/ops/fused_attention_tiles.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

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

}  // namespace
}  // namespace ordo
