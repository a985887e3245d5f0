// core/ops/layernorm.cpp: affine layer normalisation over the last axis (llm.c style).
//
// Forward, per row of x (..., d):
//   mean = sum_j x_j / d,  var = sum_j (x_j - mean)^2 / d,  rstd = 1 / sqrt(var + eps)
//   xhat_j = (x_j - mean) rstd,  y_j = xhat_j gamma_j + beta_j
// and saves mean and rstd (one pair per row), so the backward recomputes xhat cheaply.
// Backward, with dnorm_j = dy_j gamma_j:
//   dx_j     = rstd (dnorm_j - mean_k dnorm_k - xhat_j mean_k (dnorm_k xhat_k))
//   dgamma_j = sum_rows dy_j xhat_j,   dbeta_j = sum_rows dy_j
// The column sums are reduced deterministically: rows are cut into chunks of kChunkRows (a
// constant, never the thread count); each chunk's partial sums are written by one loop
// iteration and the partials are then added chunk by chunk in a fixed order.
//
// Precision: every sum over a row (mean, variance, the two backward means) is taken in
// double over 8 lanes (row_sum and friends); the elementwise work (xhat, y, dx) is in Real,
// from the Real mean and rstd. Doing it all in double made LayerNorm 6.5% of a tiny step.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/fastmath.h"
#include "core/ops.h"
#include "core/parallel.h"

namespace ordo {
namespace {

constexpr int64_t kChunkRows = 32;
constexpr int64_t kGroupRows = 16;  // rows computed step by step together (forward)

// Row sums in double with lane_sum's association (core/fastmath.h: 8 lanes, lane l taking
// the elements j = l mod 8, combined ((0 + 4) + (1 + 5)) + ((2 + 6) + (3 + 7))), written with
// two 4-double vectors (lanes 0-3 and 4-7) for rows of a multiple of 8 floats: GCC had
// vectorised lane_sum's lanes only partly, extracting them every row (layernorm took 18
// instructions per element, forward and backward). The same bits either way.
#ifndef ORDO_REAL_DOUBLE
using V4f = float __attribute__((vector_size(16)));
using V4d = double __attribute__((vector_size(32)));

// Elements j .. j + 7 of x as lanes 0-3 and 4-7, in double.
inline void load_lanes(const float* x, V4d& lo, V4d& hi) {
  V4f a, b;
  std::memcpy(&a, x, sizeof a);
  std::memcpy(&b, x + 4, sizeof b);
  lo = __builtin_convertvector(a, V4d);
  hi = __builtin_convertvector(b, V4d);
}
inline double combine_lanes(V4d lo, V4d hi) {
  const V4d s = lo + hi;  // lanes (0 + 4), (1 + 5), (2 + 6), (3 + 7)
  return (s[0] + s[1]) + (s[2] + s[3]);
}
#endif

// sum_j x_j
double row_sum(const Real* x, int64_t d) {
#ifndef ORDO_REAL_DOUBLE
  if (d % 8 == 0) {
    V4d lo{}, hi{};
    for (int64_t j = 0; j < d; j += 8) {
      V4d a, b;
      load_lanes(x + j, a, b);
      lo += a, hi += b;
    }
    return combine_lanes(lo, hi);
  }
#endif
  return lane_sum<double>(d, [&](int64_t j) { return static_cast<double>(x[j]); });
}

// sum_j (x_j - m)^2
double row_sum_sq_dev(const Real* x, double m, int64_t d) {
#ifndef ORDO_REAL_DOUBLE
  if (d % 8 == 0) {
    V4d lo{}, hi{};
    for (int64_t j = 0; j < d; j += 8) {
      V4d a, b;
      load_lanes(x + j, a, b);
      a -= m, b -= m;
      lo += a * a, hi += b * b;
    }
    return combine_lanes(lo, hi);
  }
#endif
  return lane_sum<double>(d, [&](int64_t j) {
    const double c = x[j] - m;
    return c * c;
  });
}

// sum_j a_j b_j, in double
double row_sum_dot(const Real* a, const Real* b, int64_t d) {
#ifndef ORDO_REAL_DOUBLE
  if (d % 8 == 0) {
    V4d lo{}, hi{};
    for (int64_t j = 0; j < d; j += 8) {
      V4d a0, a1, b0, b1;
      load_lanes(a + j, a0, a1);
      load_lanes(b + j, b0, b1);
      lo += a0 * b0, hi += a1 * b1;
    }
    return combine_lanes(lo, hi);
  }
#endif
  return lane_sum<double>(d, [&](int64_t j) { return static_cast<double>(a[j]) * b[j]; });
}

// Per-thread scratch of at least n Reals, reused across calls.
Real* row_scratch(int64_t n) {
  thread_local std::vector<Real> buffer;
  if (static_cast<int64_t>(buffer.size()) < n) buffer.resize(static_cast<size_t>(n));
  return buffer.data();
}

}  // namespace

Var layernorm(Tape& t, Var x, Var gamma, Var beta, Real eps) {
  const Tensor& X = t.value(x);      // (..., d)
  const Tensor& G = t.value(gamma);  // (d)
  const Tensor& B = t.value(beta);   // (d)
  ORDO_CHECK(X.rank() >= 1, "layernorm: x must have rank >= 1, got a scalar");
  const int64_t d = X.shape().last();
  ORDO_CHECK(d >= 1, "layernorm: the normalised axis of x ", X.shape(), " is empty");
  ORDO_CHECK(G.shape() == Shape({d}), "layernorm: gamma must be (d) = (", d, ") for x ",
             X.shape(), ", got ", G.shape());
  ORDO_CHECK(B.shape() == Shape({d}), "layernorm: beta must be (d) = (", d, ") for x ",
             X.shape(), ", got ", B.shape());
  ORDO_CHECK(eps > 0, "layernorm: eps must be > 0, got ", eps);
  const int64_t rows = X.numel() / d;

  Tensor Y = Tensor::empty(X.shape());     // (..., d)
  Tensor mean = Tensor::empty(Shape{rows});  // (rows)
  Tensor rstd = Tensor::empty(Shape{rows});  // (rows)
  const Real* xd = X.data();
  const Real* g = G.data();
  const Real* b = B.data();
  Real* yd = Y.data();
  Real* mean_d = mean.data();
  Real* rstd_d = rstd.data();
  // Groups of kGroupRows rows, each step over all rows of the group before the next: one row
  // is a serial chain (mean, variance, sqrt, division, then the row), and row after row kept
  // too few rows in flight; step by step, the rows' chains overlap (4096 rows of 64 on 2
  // threads: 0.132 -> 0.112 ms). The arithmetic of a row is the same either way.
  parallel_for((rows + kGroupRows - 1) / kGroupRows, kGroupRows * 6 * d, [&](int64_t grp) {
    const int64_t r0 = grp * kGroupRows, n = std::min(kGroupRows, rows - r0);
    double m[kGroupRows], v[kGroupRows];
    // Sums in double over 8 interleaved lanes (row_sum): vectorised, fixed association.
    for (int64_t i = 0; i < n; ++i) m[i] = row_sum(xd + (r0 + i) * d, d) / static_cast<double>(d);
    // Two passes: no cancellation when |mean| >> std.
    for (int64_t i = 0; i < n; ++i) v[i] = row_sum_sq_dev(xd + (r0 + i) * d, m[i], d) / static_cast<double>(d);
    for (int64_t i = 0; i < n; ++i) {
      mean_d[r0 + i] = static_cast<Real>(m[i]);
      rstd_d[r0 + i] = static_cast<Real>(1.0 / std::sqrt(v[i] + static_cast<double>(eps)));
    }
    for (int64_t i = 0; i < n; ++i) {
      const Real* xr = xd + (r0 + i) * d;
      Real* yr = yd + (r0 + i) * d;
      const Real mr = mean_d[r0 + i], sr = rstd_d[r0 + i];
      for (int64_t j = 0; j < d; ++j) yr[j] = (xr[j] - mr) * sr * g[j] + b[j];
    }
  });

  return t.push("layernorm", std::move(Y),
                [x, gamma, beta, mean, rstd, rows, d](Tape& t, const Tensor& dY) {
    const bool want_x = t.needs_grad(x), want_g = t.needs_grad(gamma), want_b = t.needs_grad(beta);
    const Real* xd = t.value(x).data();      // (rows, d)
    const Real* g = t.value(gamma).data();   // (d)
    const Real* dy = dY.data();              // (rows, d)
    const Real* mean_d = mean.data();
    const Real* rstd_d = rstd.data();
    bool fresh = false;
    Real* dx = want_x ? t.grad_to_write(x, fresh).data() : nullptr;  // (rows, d)
    const int64_t chunks = (rows + kChunkRows - 1) / kChunkRows;
    // Per-chunk partial column sums: (chunks, d) each, filled by one iteration per chunk.
    std::vector<double> dgamma_part(want_g ? chunks * d : 0), dbeta_part(want_b ? chunks * d : 0);
    parallel_for(chunks, kChunkRows * 10 * d, [&](int64_t c) {
      double* dg_c = want_g ? dgamma_part.data() + c * d : nullptr;
      double* db_c = want_b ? dbeta_part.data() + c * d : nullptr;
      const int64_t end = std::min(rows, (c + 1) * kChunkRows);
      Real* xhat = row_scratch(2 * d);  // (d): this row's xhat, then (d): dy gamma
      Real* dnorm = xhat + d;
      for (int64_t r = c * kChunkRows; r < end; ++r) {
        const Real* xr = xd + r * d;
        const Real* dyr = dy + r * d;
        const Real m = mean_d[r], s = rstd_d[r];
        for (int64_t j = 0; j < d; ++j) {
          xhat[j] = (xr[j] - m) * s;
          dnorm[j] = dyr[j] * g[j];
        }
        const Real dnorm_mean = static_cast<Real>(row_sum(dnorm, d) / static_cast<double>(d));
        const Real dnorm_xhat_mean = static_cast<Real>(row_sum_dot(dnorm, xhat, d) / static_cast<double>(d));
        if (dg_c)
          for (int64_t j = 0; j < d; ++j) dg_c[j] += static_cast<double>(dyr[j] * xhat[j]);
        if (db_c)
          for (int64_t j = 0; j < d; ++j) db_c[j] += dyr[j];
        if (!dx) continue;
        Real* dxr = dx + r * d;
        if (fresh) {
          for (int64_t j = 0; j < d; ++j) dxr[j] = s * (dnorm[j] - dnorm_mean - xhat[j] * dnorm_xhat_mean);
        } else {
          for (int64_t j = 0; j < d; ++j) dxr[j] += s * (dnorm[j] - dnorm_mean - xhat[j] * dnorm_xhat_mean);
        }
      }
    });
    // Add the partials chunk by chunk, in chunk order, one column per iteration.
    if (want_g) {
      Real* dgamma = t.grad(gamma).data();  // (d)
      parallel_for(d, chunks, [&](int64_t j) {
        double acc = 0;
        for (int64_t c = 0; c < chunks; ++c) acc += dgamma_part[c * d + j];
        dgamma[j] += static_cast<Real>(acc);
      });
    }
    if (want_b) {
      Real* dbeta = t.grad(beta).data();  // (d)
      parallel_for(d, chunks, [&](int64_t j) {
        double acc = 0;
        for (int64_t c = 0; c < chunks; ++c) acc += dbeta_part[c * d + j];
        dbeta[j] += static_cast<Real>(acc);
      });
    }
  }, {x, gamma, beta});
}

}  // namespace ordo
