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
// Precision: the sums over a row (mean, variance, the two backward means) are taken in Real
// over 8 interleaved lanes (lane_sum's association); mean and variance by the corrected
// two-pass algorithm (no cancellation when |mean| >> std, and the mean as exact as a float
// can hold it); rstd = 1 / sqrt(var + eps) in double. Each lane sums d / 8 terms; the
// gradient check runs all of it in float64. Sums in double had twice the instructions (a
// conversion per element; callgrind, 5 calls on 4096 x 64: 25.3M -> 14.7M, forward and
// backward, with the backward's row sums and column sums now in one pass): LayerNorm was
// 6.3% of a tiny step.
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

// Row sums over 8 interleaved lanes, lane l taking the elements j = l mod 8, combined
// ((0 + 4) + (1 + 5)) + ((2 + 6) + (3 + 7)) (lane_sum's association, core/fastmath.h). Rows of
// a multiple of 8 run on one 8-wide vector of Real (GCC had vectorised lane_sum's lanes only
// partly, extracting them every row); the same bits either way.
using V8 = Real __attribute__((vector_size(8 * sizeof(Real))));

// (By reference: in the float64 build V8 is 64 bytes, which by value is an AVX-512 ABI.)
inline void load8(const Real* x, V8& v) { std::memcpy(&v, x, sizeof v); }
inline Real combine_lanes(const V8& a) { return ((a[0] + a[4]) + (a[1] + a[5])) + ((a[2] + a[6]) + (a[3] + a[7])); }

// sum_j x_j
Real row_sum(const Real* x, int64_t d) {
  if (d % 8 == 0) {
    V8 acc{};
    for (int64_t j = 0; j < d; j += 8) {
      V8 v;
      load8(x + j, v);
      acc += v;
    }
    return combine_lanes(acc);
  }
  return lane_sum<Real>(d, [&](int64_t j) { return x[j]; });
}

// The second pass of the mean and variance (the corrected two-pass algorithm, Chan, Golub
// and LeVeque 1983): with c_j = x_j - m around the first pass's mean m, returns sum_j c_j
// (the first pass's rounding error times d) and sets sq = sum_j c_j^2.
Real row_sums_dev(const Real* x, Real m, int64_t d, Real& sq) {
  if (d % 8 == 0) {
    V8 acc{}, acc_sq{};
    for (int64_t j = 0; j < d; j += 8) {
      V8 c;
      load8(x + j, c);
      c -= m;
      acc += c;
      acc_sq += c * c;
    }
    sq = combine_lanes(acc_sq);
    return combine_lanes(acc);
  }
  sq = lane_sum<Real>(d, [&](int64_t j) {
    const Real c = x[j] - m;
    return c * c;
  });
  return lane_sum<Real>(d, [&](int64_t j) { return x[j] - m; });
}

// sum_j a_j b_j
Real row_sum_dot(const Real* a, const Real* b, int64_t d) {
  if (d % 8 == 0) {
    V8 acc{};
    for (int64_t j = 0; j < d; j += 8) {
      V8 u, v;
      load8(a + j, u);
      load8(b + j, v);
      acc += u * v;
    }
    return combine_lanes(acc);
  }
  return lane_sum<Real>(d, [&](int64_t j) { return a[j] * b[j]; });
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
    Real m[kGroupRows], v[kGroupRows];
    // Sums over 8 interleaved lanes (row_sum): vectorised, fixed association.
    for (int64_t i = 0; i < n; ++i) m[i] = row_sum(xd + (r0 + i) * d, d) / static_cast<Real>(d);
    // A second pass around m: no cancellation when |mean| >> std, and the mean corrected by
    // the deviations' own mean, which removes the first pass's rounding error (rows of
    // 1000 + 0.01 z: xhat 0.013 -> 0.005 from float64's, the float mean's own resolution).
    for (int64_t i = 0; i < n; ++i) {
      Real sq;
      const Real dm = row_sums_dev(xd + (r0 + i) * d, m[i], d, sq) / static_cast<Real>(d);
      m[i] += dm;
      v[i] = std::max(sq / static_cast<Real>(d) - dm * dm, Real(0));
    }
    for (int64_t i = 0; i < n; ++i) {
      mean_d[r0 + i] = m[i];
      rstd_d[r0 + i] = static_cast<Real>(1.0 / std::sqrt(static_cast<double>(v[i]) + static_cast<double>(eps)));
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
    const int64_t chunks = (rows + kChunkRows - 1) / kChunkRows;
    // Per-chunk partial column sums: (chunks, d) each, filled by one iteration per chunk.
    // A chunk's 32 rows are summed in Real, the chunks' partials in double.
    std::vector<Real> dgamma_part(want_g ? chunks * d : 0), dbeta_part(want_b ? chunks * d : 0);
    // One pass over the rows: dx (rows, d) through `into` when x needs it, and the partials.
    auto pass = [&](auto into, Real* dx) {
      parallel_for(chunks, kChunkRows * 10 * d, [&](int64_t c) {
        Real* dg_c = want_g ? dgamma_part.data() + c * d : nullptr;
        Real* db_c = want_b ? dbeta_part.data() + c * d : nullptr;
        const int64_t end = std::min(rows, (c + 1) * kChunkRows);
        Real* xhat = row_scratch(2 * d);  // (d): this row's xhat, then (d): dy gamma
        Real* dnorm = xhat + d;
        for (int64_t r = c * kChunkRows; r < end; ++r) {
          const Real* xr = xd + r * d;
          const Real* dyr = dy + r * d;
          const Real m = mean_d[r], s = rstd_d[r];
          Real dnorm_mean, dnorm_xhat_mean;
          if (d % 8 == 0) {
            // One pass: xhat, dnorm, their two row sums (row_sum's lanes) and the chunk's
            // column sums, 8 columns at a time.
            V8 sum_dn{}, sum_dot{};
            for (int64_t j = 0; j < d; j += 8) {
              V8 xv, dyv, gv;
              load8(xr + j, xv);
              load8(dyr + j, dyv);
              load8(g + j, gv);
              const V8 xh = (xv - m) * s, dn = dyv * gv;
              std::memcpy(xhat + j, &xh, sizeof xh);
              std::memcpy(dnorm + j, &dn, sizeof dn);
              sum_dn += dn;
              sum_dot += dn * xh;
              if (dg_c) {
                V8 acc;
                load8(dg_c + j, acc);
                acc += dyv * xh;
                std::memcpy(dg_c + j, &acc, sizeof acc);
              }
              if (db_c) {
                V8 acc;
                load8(db_c + j, acc);
                acc += dyv;
                std::memcpy(db_c + j, &acc, sizeof acc);
              }
            }
            dnorm_mean = combine_lanes(sum_dn) / static_cast<Real>(d);
            dnorm_xhat_mean = combine_lanes(sum_dot) / static_cast<Real>(d);
          } else {
            for (int64_t j = 0; j < d; ++j) {
              xhat[j] = (xr[j] - m) * s;
              dnorm[j] = dyr[j] * g[j];
            }
            dnorm_mean = row_sum(dnorm, d) / static_cast<Real>(d);
            dnorm_xhat_mean = row_sum_dot(dnorm, xhat, d) / static_cast<Real>(d);
            if (dg_c)
              for (int64_t j = 0; j < d; ++j) dg_c[j] += dyr[j] * xhat[j];
            if (db_c)
              for (int64_t j = 0; j < d; ++j) db_c[j] += dyr[j];
          }
          if (!dx) continue;
          Real* dxr = dx + r * d;
          for (int64_t j = 0; j < d; ++j) into(dxr[j], s * (dnorm[j] - dnorm_mean - xhat[j] * dnorm_xhat_mean));
        }
      });
    };
    if (want_x) t.add_grad(x, pass);
    else pass(Tape::Add{}, nullptr);
    // Add the partials chunk by chunk, in chunk order, one column per iteration.
    if (want_g) t.add_grad(gamma, [&](auto into, Real* dgamma) {  // (d)
      parallel_for(d, chunks, [&](int64_t j) {
        double acc = 0;
        for (int64_t c = 0; c < chunks; ++c) acc += dgamma_part[c * d + j];
        into(dgamma[j], static_cast<Real>(acc));
      });
    });
    if (want_b) t.add_grad(beta, [&](auto into, Real* dbeta) {  // (d)
      parallel_for(d, chunks, [&](int64_t j) {
        double acc = 0;
        for (int64_t c = 0; c < chunks; ++c) acc += dbeta_part[c * d + j];
        into(dbeta[j], static_cast<Real>(acc));
      });
    });
  }, {x, gamma, beta});
}

}  // namespace ordo
