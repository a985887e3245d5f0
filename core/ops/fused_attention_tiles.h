// core/ops/fused_attention_tiles.h: the fast building blocks of the fused attention
// (core/ops/fused_attention.cpp and its logit terms, core/ops/attention_terms/): the tile sizes, the register-blocked
// tile product, the padded and transposed tile copies, and the row max and exponentials of
// the online softmax. Everything that depends on the vector width, and every intrinsic and
// asm statement of the op, is here; fused_attention.cpp composes these into the forward and
// backward, and core/ops/attention_reference.cpp is the plain version of the whole that the
// tests hold the two to.
//
// Internal linkage (an unnamed namespace): each kernel that composes these
// (fused_attention.cpp, stickbreaking_attention.cpp) compiles its own copy, inlined where it
// is used.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#if defined(__AVX__) && !defined(ORDO_REAL_DOUBLE)
#include <immintrin.h>
#endif

#include "core/fastmath.h"
#include "core/tensor.h"

namespace ordo {
namespace {

constexpr int64_t kTile = 64;                          // queries (and keys) per tile
constexpr int64_t kMR = 4;                             // register block: rows
#if defined(__AVX512F__) && !defined(ORDO_REAL_DOUBLE)
constexpr int64_t kVecBytes = 64;                      // one AVX-512 register
#else
constexpr int64_t kVecBytes = 32;                      // one AVX2 register
#endif
constexpr int64_t kNR = 2 * kVecBytes / int64_t(sizeof(Real));  // register block: two vectors

inline int64_t round_up(int64_t n, int64_t m) { return (n + m - 1) / m * m; }

// The softmax is taken in base 2: scores are scaled by log2(e) (folded into the q scale and
// the bias), so p = 2^(s' - m') with s' = log2(e) s, and 2^x for x <= 0 is core/fastmath.h's
// fast_exp2_nonpositive: 14 operations where exp took 19 (exp was 30% of a forward pair at
// L = 64, d = 16). -inf gives exactly 0.
constexpr Real kLog2e = static_cast<Real>(1.44269504088896340736);
constexpr Real kLn2 = static_cast<Real>(0.69314718055994530942);
inline Real exp2_nonpositive(Real x) { return fast_exp2_nonpositive(x); }

// One vector register of Reals (GCC/Clang vector extension). The register block of
// tile_product is written with it because the auto-vectoriser, at -O3, turns the plain-loop
// version's k loop into in-order (fold-left) reductions and spills the block.
using VReal = Real __attribute__((vector_size(kVecBytes)));
constexpr int64_t kVec = kVecBytes / int64_t(sizeof(Real));
inline VReal load_vec(const Real* p) {
  VReal v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store_vec(Real* p, VReal v) { std::memcpy(p, &v, sizeof v); }

// dst[0, d) = src[0, d), a head's row, by vector moves: std::copy of a row of 16 floats was a
// call into memmove, 2% of a CoPE step at the default model.
inline void copy_row(const Real* __restrict src, int64_t d, Real* __restrict dst) {
  int64_t c = 0;
  for (; c + kVec <= d; c += kVec) store_vec(dst + c, load_vec(src + c));
  for (; c < d; ++c) dst[c] = src[c];
}

// Keeps a vector in a register. In tile_product's k loop GCC otherwise folds the B row into
// every FMA as a memory operand (kMR reloads per vector, 12 loads per 8 FMAs), and the loop
// becomes load-port bound: pinning B made the fused attention 1.3-1.6x faster (long config:
// 260 -> 178 ms per step). An empty asm with a register operand: no instruction is emitted.
inline void pin_in_register([[maybe_unused]] VReal& v) {
#if defined(__GNUC__) && defined(__AVX__)
  asm("" : "+v"(v));
#endif
}

// One MR x NV-vector block of C (row stride ldc) (+)= A (MR, K) B (K, NV vectors; row stride
// ldb), A's element (r, k) at a[r * a_rs + k * a_cs]. The block lives in MR NV registers for
// the whole k loop: per k, NV loads of B, MR broadcasts of A and MR NV FMAs.
template <int MR, int NV, bool kAccumulate>
inline void register_block(int64_t K, const Real* __restrict a, int64_t a_rs, int64_t a_cs,
                           const Real* __restrict b, int64_t ldb, Real* __restrict c, int64_t ldc) {
  VReal acc[MR][NV];
#pragma GCC unroll 8
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 2
    for (int v = 0; v < NV; ++v) acc[r][v] = kAccumulate ? load_vec(c + r * ldc + v * kVec) : VReal{};
  for (int64_t kk = 0; kk < K; ++kk) {
    VReal bv[NV];
#pragma GCC unroll 2
    for (int v = 0; v < NV; ++v) {
      bv[v] = load_vec(b + kk * ldb + v * kVec);
      pin_in_register(bv[v]);
    }
#pragma GCC unroll 8
    for (int r = 0; r < MR; ++r) {
      const Real ar = a[r * a_rs + kk * a_cs];
#pragma GCC unroll 2
      for (int v = 0; v < NV; ++v) acc[r][v] += ar * bv[v];
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 2
    for (int v = 0; v < NV; ++v) store_vec(c + r * ldc + v * kVec, acc[r][v]);
}

// C (M, N; row stride ldc) (+)= A (M, K) B (K, N; row stride ldb), where A's element (i, k)
// is a[i * a_rs + k * a_cs] (so A may be a transposed view). M must be a multiple of kMR
// and N of kVec (the callers pad their tiles with zeros); K is free. Column pairs of vectors
// run as kMR x 2-vector blocks; a last single vector column (d_h = 16 with AVX-512, a tile of
// 8-16 or 33-48 keys, term.h's tile_cols) as 2 kMR x 1-vector blocks, so that it too has
// 2 kMR FMAs in flight. Every element is the same chain of FMAs in any block shape.
template <bool kAccumulate>
void tile_product(int64_t M, int64_t N, int64_t K, const Real* __restrict a, int64_t a_rs,
                  int64_t a_cs, const Real* __restrict b, int64_t ldb, Real* __restrict c,
                  int64_t ldc) {
  static_assert(kNR == 2 * kVec, "the register block is two vectors wide");
  const int64_t N2 = N / kNR * kNR;
  for (int64_t i = 0; i < M; i += kMR)
    for (int64_t j = 0; j < N2; j += kNR)
      register_block<kMR, 2, kAccumulate>(K, a + i * a_rs, a_rs, a_cs, b + j, ldb, c + i * ldc + j, ldc);
  if (N2 == N) return;
  int64_t i = 0;
  for (; i + 2 * kMR <= M; i += 2 * kMR)
    register_block<2 * kMR, 1, kAccumulate>(K, a + i * a_rs, a_rs, a_cs, b + N2, ldb, c + i * ldc + N2, ldc);
  if (i < M) register_block<kMR, 1, kAccumulate>(K, a + i * a_rs, a_rs, a_cs, b + N2, ldb, c + i * ldc + N2, ldc);
}

// The part of a tile product that a mask leaves: per block of kMR rows of C (index r), the
// columns [0, n_end[r]) (a multiple of kVec; null: all N) and the inner sum over
// k in [k_begin[r], k_end[r]) (null: 0 and K). A caller passes these where the terms left out
// are exact zeros (a masked key's p or dS) and the columns left out are masked after (scores
// set to -inf): an element computed is then the same chain of FMAs over the same nonzero terms
// as tile_product's, so the same bits. A block with an empty inner range still stores (zeros).
// A last single vector column runs as 2 kMR x 1 blocks over the union of the two blocks'
// inner ranges (the extra terms are zeros too), keeping 2 kMR FMAs in flight.
struct Bands {
  const int64_t* n_end = nullptr;
  const int64_t* k_begin = nullptr;
  const int64_t* k_end = nullptr;
};

template <bool kAccumulate>
void tile_product_bands(int64_t M, int64_t N, int64_t K, const Bands& bands, const Real* __restrict a, int64_t a_rs,
                        int64_t a_cs, const Real* __restrict b, int64_t ldb, Real* __restrict c, int64_t ldc) {
  static_assert(kNR == 2 * kVec, "the register block is two vectors wide");
  auto n_of = [&](int64_t r) { return bands.n_end ? bands.n_end[r] : N; };
  auto kb_of = [&](int64_t r) { return bands.k_begin ? bands.k_begin[r] : int64_t(0); };
  auto ke_of = [&](int64_t r) { return bands.k_end ? bands.k_end[r] : K; };
  for (int64_t i = 0, r = 0; i < M; i += kMR, ++r) {
    const int64_t n2 = n_of(r) / kNR * kNR, k0 = kb_of(r), k1 = std::max(k0, ke_of(r));
    for (int64_t j = 0; j < n2; j += kNR)
      register_block<kMR, 2, kAccumulate>(k1 - k0, a + i * a_rs + k0 * a_cs, a_rs, a_cs, b + k0 * ldb + j, ldb,
                                          c + i * ldc + j, ldc);
  }
  // The single vector columns left: a block whose n_end is an odd number of vectors.
  int64_t i = 0, r = 0;
  for (; i + 2 * kMR <= M; i += 2 * kMR, r += 2) {
    const int64_t na = n_of(r), nb = n_of(r + 1);
    if (na % kNR == 0 && nb % kNR == 0) continue;
    if (na == nb) {  // both: one 2 kMR x 1 block over both inner ranges
      const int64_t k0 = std::min(kb_of(r), kb_of(r + 1)), k1 = std::max({k0, ke_of(r), ke_of(r + 1)});
      const int64_t j = na / kNR * kNR;
      register_block<2 * kMR, 1, kAccumulate>(k1 - k0, a + i * a_rs + k0 * a_cs, a_rs, a_cs, b + k0 * ldb + j, ldb,
                                              c + i * ldc + j, ldc);
      continue;
    }
    for (int64_t h = 0; h < 2; ++h) {
      const int64_t n = n_of(r + h);
      if (n % kNR == 0) continue;
      const int64_t k0 = kb_of(r + h), k1 = std::max(k0, ke_of(r + h)), j = n / kNR * kNR, row = i + h * kMR;
      register_block<kMR, 1, kAccumulate>(k1 - k0, a + row * a_rs + k0 * a_cs, a_rs, a_cs, b + k0 * ldb + j, ldb,
                                          c + row * ldc + j, ldc);
    }
  }
  for (; i < M; i += kMR, ++r) {
    const int64_t n = n_of(r);
    if (n % kNR == 0) continue;
    const int64_t k0 = kb_of(r), k1 = std::max(k0, ke_of(r)), j = n / kNR * kNR;
    register_block<kMR, 1, kAccumulate>(k1 - k0, a + i * a_rs + k0 * a_cs, a_rs, a_cs, b + k0 * ldb + j, ldb,
                                        c + i * ldc + j, ldc);
  }
}

inline void tile_product_bands(bool accumulate, int64_t M, int64_t N, int64_t K, const Bands& bands, const Real* a,
                               int64_t a_rs, int64_t a_cs, const Real* b, int64_t ldb, Real* c, int64_t ldc) {
  if (accumulate) tile_product_bands<true>(M, N, K, bands, a, a_rs, a_cs, b, ldb, c, ldc);
  else tile_product_bands<false>(M, N, K, bands, a, a_rs, a_cs, b, ldb, c, ldc);
}

// tile_product storing (the first contribution to C) or accumulating (the later ones).
inline void tile_product(bool accumulate, int64_t M, int64_t N, int64_t K, const Real* a, int64_t a_rs,
                         int64_t a_cs, const Real* b, int64_t ldb, Real* c, int64_t ldc) {
  if (accumulate) tile_product<true>(M, N, K, a, a_rs, a_cs, b, ldb, c, ldc);
  else tile_product<false>(M, N, K, a, a_rs, a_cs, b, ldb, c, ldc);
}

// dst (rows_out, dp) = s * src (n rows of d, row stride ld), zero padded (n <= rows_out,
// d <= dp). Plain row loops: the single masked loop this replaced compiled to vmaskmovps
// loads that were 8% of a tiny step's forward attention.
inline void copy_padded(const Real* __restrict src, int64_t n, int64_t d, int64_t ld, Real s,
                 Real* __restrict dst, int64_t rows_out, int64_t dp) {
  if (d == dp) {  // whole vectors, no padding: (with s = 1 the plain loop became a memcpy call per row)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t c = 0; c < d; c += kVec) store_vec(dst + i * dp + c, s * load_vec(src + i * ld + c));
  } else {
    for (int64_t i = 0; i < n; ++i) {
      const Real* __restrict sr = src + i * ld;
      Real* __restrict dr = dst + i * dp;
      for (int64_t c = 0; c < d; ++c) dr[c] = s * sr[c];
      for (int64_t c = d; c < dp; ++c) dr[c] = 0;
    }
  }
  std::fill(dst + n * dp, dst + rows_out * dp, Real(0));
}

// dst (d, cols; row stride kTile) = src (n rows of d, row stride ld)^T, columns n..cols
// zero (n <= cols <= kTile). The products read rows < d and columns < cols only. float32
// with AVX: 8 x 8 blocks transposed in registers (unpack, shuffle, permute: 24 shuffles per
// 64 values); the rest element by element. GCC's own vectorisation of the plain loop used
// gathers and took 2.4 us for a 64 x 16 tile, the blocks 0.1 us.
inline void transpose_scalar(const Real* __restrict src, int64_t x0, int64_t x1, int64_t c0, int64_t c1,
                      int64_t ld, Real* __restrict dst) {
  for (int64_t c = c0; c < c1; ++c)
    for (int64_t x = x0; x < x1; ++x) dst[c * kTile + x] = src[x * ld + c];
}

inline void copy_transposed(const Real* __restrict src, int64_t n, int64_t d, int64_t ld,
                     Real* __restrict dst, int64_t cols) {
  int64_t n8 = 0, d8 = 0;  // the part covered by 8 x 8 blocks
#if defined(__AVX__) && !defined(ORDO_REAL_DOUBLE)
  {
    n8 = n / 8 * 8, d8 = d / 8 * 8;
    for (int64_t x0 = 0; x0 < n8; x0 += 8)
      for (int64_t c0 = 0; c0 < d8; c0 += 8) {
        __m256 r[8], t[8];
        for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(src + (x0 + i) * ld + c0);
        for (int i = 0; i < 8; i += 2) {
          t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
          t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
        }
        for (int i = 0; i < 8; i += 4) {
          r[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
          r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
          r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
          r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
        }
        for (int i = 0; i < 4; ++i) {
          _mm256_storeu_ps(dst + (c0 + i) * kTile + x0, _mm256_permute2f128_ps(r[i], r[i + 4], 0x20));
          _mm256_storeu_ps(dst + (c0 + i + 4) * kTile + x0, _mm256_permute2f128_ps(r[i], r[i + 4], 0x31));
        }
      }
  }
#endif
  transpose_scalar(src, 0, n8, d8, d, ld, dst);  // the columns right of the blocks
  transpose_scalar(src, n8, n, 0, d, ld, dst);   // the rows below them
  if (n < cols)
    for (int64_t c = 0; c < d; ++c) std::fill(dst + c * kTile + n, dst + c * kTile + cols, Real(0));
}

// max of one score row (n entries, a multiple of kVec), one vector of partial maxima
// (4x faster than the lane-array loop it replaced, which GCC did not vectorise).
inline Real row_max(const Real* __restrict s, int64_t n) {
  VReal m = load_vec(s);
  for (int64_t x = kVec; x < n; x += kVec) {
    const VReal v = load_vec(s + x);
    m = m < v ? v : m;
  }
  Real r = m[0];
  for (int64_t j = 1; j < kVec; ++j) r = r < m[j] ? m[j] : r;
  return r;
}

// s = exp(s - shift) over one row (n entries, a multiple of kLanes); part = the row's sum as
// kLanes partial sums, lane j summing s[j], s[j + kLanes], ... in order. The caller adds the
// lanes (lanes_sum): the row sum in a fixed association.
constexpr int64_t kLanes = 8;
inline void exp_row(Real* __restrict s, int64_t n, Real shift, Real* __restrict part) {
  for (int64_t j = 0; j < kLanes; ++j) part[j] = 0;
  for (int64_t x = 0; x < n; x += kLanes)
    for (int64_t j = 0; j < kLanes; ++j) {
      s[x + j] = exp2_nonpositive(s[x + j] - shift);
      part[j] += s[x + j];
    }
}
inline Real lanes_sum(const Real* part) {
  Real sum = 0;
  for (int64_t j = 0; j < kLanes; ++j) sum += part[j];
  return sum;
}

}  // namespace
}  // namespace ordo
