// core/ops/positional.cpp: the ops positional encodings are built from.
//
// rotate_pairs (RoPE): each interleaved pair (x0, x1) = (x[2i], x[2i+1]) of the last axis
// is rotated by the angle theta[l, i] of its position l:
//   y0 = x0 cos - x1 sin,   y1 = x0 sin + x1 cos          (y = R(theta) x)
// R is orthogonal, so the backward is the rotation by -theta:
//   dx0 = dy0 cos + dy1 sin,   dx1 = -dy0 sin + dy1 cos    (dx = R(theta)^T dy)
//
// expand_relative (ALiBi, T5): a Toeplitz expansion of a relative bias,
//   out[h, t, u] = rel[h, (u - t) + Lq - 1]
// so every entry of rel feeds one diagonal of out, and the backward sums that diagonal:
//   drel[h, j] = sum_t dout[h, t, t + j - (Lq - 1)]    (over the t that keep u in [0, Lk))
//
// polar (PoPE): magnitude m_c and angle a_c + p_c (p a learned phase, or 0) become the pair
//   y0 = m cos(a + p),   y1 = m sin(a + p)      (cos(a + p) = cos a cos p - sin a sin p, ...)
// and the backward is the pair's gradient along the unit vector (its radial part) onto m,
// and across it (its angular part, times m) onto p, summed over the rows:
//   dm = dy0 cos + dy1 sin,   dp += m (dy1 cos - dy0 sin)
//
// relative_logits (Transformer-XL): each head's query against the relative key of the
// pair's distance, rel holding one row per distance and idx naming the row of (t, u):
//   out[b, h, t, u] = q[b, h, t, :] . rel[idx[t, u], h, :]
//   dq[b, h, t, :] = sum_u dout[b, h, t, u] rel[idx[t, u], h, :]
//   drel[n, h, :]  = sum over (b, t, u) with idx[t, u] = n of dout[b, h, t, u] q[b, h, t, :]
// The keys of a query row (h, t) are the same for every b: gathered once, transposed, and
// each b's row of logits is then d passes along contiguous memory. drel is a scatter: each
// head's slice is summed by one thread, over b for each (t, u), then in (t, u) order.
//
// scalar_mlp (FIRE): a 1 -> K -> H MLP with ReLU on every entry x = x[r, c] of a grid,
//   a_k = w1[k] x + b1[k],   z_k = relu(a_k),   y[h, r, c] = b2[h] + sum_k w2[k, h] z_k
// and, with g[h] = dy[h, r, c] and s_k = [a_k > 0] sum_h w2[k, h] g[h],
//   dx = sum_k w1[k] s_k,  dw1[k] += x s_k,  db1[k] += s_k,  dw2[k, h] += z_k g[h],  db2[h] += g[h]
// One op where the composition (linear, relu, linear, permute) stored the hidden layer and
// its gradient, K values per entry (FIRE at L = 1024: 4 M entries x 32 = 128 MB per pass):
// here a row of the grid at a time, one vector of entries at a time (VReal, whole registers:
// the auto-vectoriser shuffled the plain loops' lanes), k inner, the backward recomputing
// a_k. The weights' gradients are summed per row in a vector each, across its lanes at the
// row's end, then over the rows in order.
//
// lookup_ratio (FIRE's normalised distance): two lookups and a quotient in one pass,
//   x[e] = sign[e] num[a[e]] / den[b[e]]
//   dnum[a[e]] += dx[e] sign[e] / den[b[e]],   dden[b[e]] -= dx[e] x[e] / den[b[e]]
// (the backward multiplies by 1 / den, one reciprocal per entry of den). The entries run in
// chunks of a fixed size on the threads; the scatters of each chunk go to its own partial
// sums (entry order), added chunk after chunk (one thread took all 12.7 ms of them, forward
// and backward, at FIRE's L = 1024); the chunks go to the threads first and last alternately.
//
// The kernels write each output element from exactly one loop iteration in a fixed
// order, so results are bit-identical for any thread count.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "core/ops.h"
#include "core/ops/fused_attention_tiles.h"
#include "core/ops/rotate_rows.h"
#include "core/parallel.h"

namespace ordo {
namespace {

// How rotate_pairs maps a row of x to a row of the angle tables.
struct RotatePlan {
  int64_t rows;           // rows of x viewed as (rows, D)
  int64_t L, half;        // positions, pairs per row (D / 2)
  int64_t rows_per_batch; // rows of one batch entry when the angles differ per sequence
  bool per_batch;         // angles (B, L, D/2) instead of (L, D/2)
};

RotatePlan plan_rotate(const Shape& x, const Shape& c, const Shape& s) {
  ORDO_CHECK(x.rank() >= 2, "rotate_pairs: x needs shape (..., L, D), got ", x);
  ORDO_CHECK(x.last() % 2 == 0, "rotate_pairs: the last axis of x ", x,
             " must be even (it holds pairs (2i, 2i+1))");
  check_same_shape("rotate_pairs (cos vs sin)", c, s);
  const int64_t L = x[-2], half = x.last() / 2;
  ORDO_CHECK((c.rank() == 2 || c.rank() == 3) && c[-2] == L && c[-1] == half,
             "rotate_pairs: cos/sin must be (L, D/2) or (B, L, D/2) for x ", x, ", got ", c);
  RotatePlan p{x.rows(), L, half, 0, c.rank() == 3};
  if (p.per_batch) {
    ORDO_CHECK(x.rank() >= 3 && x[0] == c[0], "rotate_pairs: per-sequence angles ", c,
               " need x of shape (B, ..., L, D) with the same B, got ", x);
    p.rows_per_batch = p.rows / x[0];
  }
  return p;
}

// Offset of the angle row used by row r of x.
inline int64_t angle_row(const RotatePlan& p, int64_t r) {
  const int64_t l = r % p.L;
  return p.per_batch ? ((r / p.rows_per_batch) * p.L + l) * p.half : l * p.half;
}

// Head h's keys of one query row, transposed: gt[c * Lk + u] = rel[ids[u], h, c].
void gather_keys_transposed(const Real* rel, const int32_t* ids, int64_t H, int64_t h, int64_t d, int64_t Lk, Real* gt) {
  for (int64_t u = 0; u < Lk; ++u) {
    const Real* r = rel + (static_cast<int64_t>(ids[u]) * H + h) * d;
    for (int64_t c = 0; c < d; ++c) gt[c * Lk + u] = r[c];
  }
}

}  // namespace

Var rotate_pairs(Tape& t, Var x, const Tensor& cos, const Tensor& sin) {
  const Tensor& X = t.value(x);  // (..., L, D)
  const RotatePlan p = plan_rotate(X.shape(), cos.shape(), sin.shape());
  Tensor Y = Tensor::empty(X.shape());
  {
    const Real* xd = X.data();
    const Real *cd = cos.data(), *sd = sin.data();
    Real* yd = Y.data();
    parallel_for(p.rows, 4 * p.half, [&](int64_t r) {
      const Real* xr = xd + r * 2 * p.half;
      Real* yr = yd + r * 2 * p.half;
      rotate_row(xr, yr, cd + angle_row(p, r), sd + angle_row(p, r), p.half);
    });
  }
  return t.push("rotate_pairs", std::move(Y), [x, p, cos, sin](Tape& t, const Tensor& dY) {
    if (!t.needs_grad(x)) return;
    const Real* dyd = dY.data();
    const Real *cd = cos.data(), *sd = sin.data();
    t.add_grad(x, [&](auto into, Real* dxd) {
      parallel_for(p.rows, 4 * p.half, [&](int64_t r) {
        const Real* dyr = dyd + r * 2 * p.half;
        Real* dxr = dxd + r * 2 * p.half;
        rotate_row_back(dyr, dxr, cd + angle_row(p, r), sd + angle_row(p, r), p.half, into);  // dx (+)= R^T dy
      });
    });
  }, {x});
}

Var polar(Tape& t, Var m, const Tensor& cos, const Tensor& sin, std::optional<Var> phase) {
  const Tensor& M = t.value(m);  // (..., L, D)
  ORDO_CHECK(M.rank() >= 2, "polar: m needs shape (..., L, D), got ", M.shape());
  check_same_shape("polar (cos vs sin)", cos.shape(), sin.shape());
  const int64_t L = M.dim(-2), D = M.shape().last(), rows = M.numel() / D;
  ORDO_CHECK(cos.rank() == 2 && cos.dim(0) == L && cos.dim(1) == D, "polar: cos/sin must be (L, D) = (", L, ", ", D,
             ") for m ", M.shape(), ", got ", cos.shape());
  if (phase)
    ORDO_CHECK(t.shape(*phase) == Shape{D}, "polar: the phase must be (D) = (", D, "), got ", t.shape(*phase));
  // The angles with the phase, once per (position, component): the phase's cos and sin once
  // per component (they were taken per position too: 2 L D calls of libm's cos and sin, one
  // thread, 10 ms of PoPE's step at L = 1024), then the sums of angles, rows in parallel.
  Tensor C = cos, S = sin;
  if (phase) {
    C = Tensor::empty(Shape{L, D}), S = Tensor::empty(Shape{L, D});
    const Real* p = t.value(*phase).data();
    std::vector<double> cp(static_cast<size_t>(D)), sp(static_cast<size_t>(D));
    for (int64_t c = 0; c < D; ++c) cp[c] = std::cos(double(p[c])), sp[c] = std::sin(double(p[c]));
    const Real *cd = cos.data(), *sd = sin.data();
    Real *Cd = C.data(), *Sd = S.data();
    parallel_for(L, 8 * D, [&](int64_t l) {
      for (int64_t c = 0; c < D; ++c) {
        const double ca = cd[l * D + c], sa = sd[l * D + c];
        Cd[l * D + c] = static_cast<Real>(ca * cp[c] - sa * sp[c]);
        Sd[l * D + c] = static_cast<Real>(sa * cp[c] + ca * sp[c]);
      }
    });
  }
  std::vector<int64_t> dims = M.shape().dims();
  dims.back() = 2 * D;
  Tensor Y = Tensor::empty(Shape(dims));
  {
    const Real *md = M.data(), *cd = C.data(), *sd = S.data();
    Real* yd = Y.data();
    parallel_for(rows, 2 * D, [&](int64_t r) {
      const Real *mr = md + r * D, *cr = cd + (r % L) * D, *sr = sd + (r % L) * D;
      Real* yr = yd + r * 2 * D;
      for (int64_t c = 0; c < D; ++c) {
        yr[2 * c] = mr[c] * cr[c];
        yr[2 * c + 1] = mr[c] * sr[c];
      }
    });
  }
  std::vector<Var> inputs{m};
  if (phase) inputs.push_back(*phase);
  return t.push("polar", std::move(Y), [m, phase, C, S, L, D, rows](Tape& t, const Tensor& dY) {
    const Real *dy = dY.data(), *cd = C.data(), *sd = S.data();
    if (t.needs_grad(m)) {
      t.add_grad(m, [&](auto into, Real* dm) {
        parallel_for(rows, 2 * D, [&](int64_t r) {
          const Real *dyr = dy + r * 2 * D, *cr = cd + (r % L) * D, *sr = sd + (r % L) * D;
          for (int64_t c = 0; c < D; ++c) into(dm[r * D + c], dyr[2 * c] * cr[c] + dyr[2 * c + 1] * sr[c]);
        });
      });
    }
    if (phase && t.needs_grad(*phase)) {
      const Real* md = t.value(m).data();
      // Each component's sum over the rows, in row order; kPhaseBlock components side by side,
      // so that a pass reads each row once (a component at a time read every row's cache
      // lines once per component).
      constexpr int64_t kPhaseBlock = 16;
      t.add_grad(*phase, [&](auto into, Real* dp) {
        parallel_for((D + kPhaseBlock - 1) / kPhaseBlock, 4 * rows * kPhaseBlock, [&](int64_t blk) {
          const int64_t c0 = blk * kPhaseBlock, n = std::min(kPhaseBlock, D - c0);
          Real acc[kPhaseBlock] = {};
          for (int64_t r = 0; r < rows; ++r) {
            const Real *mr = md + r * D + c0, *dyr = dy + r * 2 * D + 2 * c0;
            const Real *cr = cd + (r % L) * D + c0, *sr = sd + (r % L) * D + c0;
            for (int64_t c = 0; c < n; ++c) acc[c] += mr[c] * (dyr[2 * c + 1] * cr[c] - dyr[2 * c] * sr[c]);
          }
          for (int64_t c = 0; c < n; ++c) into(dp[c0 + c], acc[c]);
        });
      });
    }
  }, inputs);
}

Var expand_relative(Tape& t, Var rel, int64_t Lq, int64_t Lk) {
  const Tensor& R = t.value(rel);  // (H, Lq + Lk - 1)
  ORDO_CHECK(Lq > 0 && Lk > 0, "expand_relative: lengths must be positive, got Lq = ", Lq,
             ", Lk = ", Lk);
  ORDO_CHECK(R.rank() == 2 && R.dim(1) == Lq + Lk - 1, "expand_relative: rel must be (H, Lq + Lk - 1) = (H, ",
             Lq + Lk - 1, ") for Lq = ", Lq, ", Lk = ", Lk, ", got ", R.shape());
  const int64_t H = R.dim(0), W = Lq + Lk - 1;
  Tensor out = Tensor::empty(Shape{H, Lq, Lk});
  {
    const Real* rd = R.data();
    Real* od = out.data();
    parallel_for(H * Lq, Lk, [&](int64_t row) {  // row = h * Lq + t
      const int64_t h = row / Lq, q = row % Lq;
      // out[h, q, u] = rel[h, u - q + Lq - 1]: a contiguous window of rel.
      const Real* src = rd + h * W + (Lq - 1 - q);
      std::copy(src, src + Lk, od + row * Lk);
    });
  }
  return t.push("expand_relative", std::move(out), [rel, H, Lq, Lk, W](Tape& t, const Tensor& dout) {
    if (!t.needs_grad(rel)) return;
    const Real* dd = dout.data();  // (H, Lq, Lk)
    t.add_grad(rel, [&](auto into, Real* dr) {
      parallel_for(H * W, Lq, [&](int64_t e) {  // e = h * W + j, j = (u - q) + Lq - 1
        const int64_t h = e / W, j = e % W, offset = j - (Lq - 1);  // u = q + offset
        const int64_t q_begin = std::max<int64_t>(0, -offset);
        const int64_t q_end = std::min<int64_t>(Lq, Lk - offset);
        Real acc = 0;
        for (int64_t q = q_begin; q < q_end; ++q) acc += dd[(h * Lq + q) * Lk + q + offset];
        into(dr[e], acc);
      });
    });
  }, {rel});
}

Var relative_logits(Tape& t, Var q, Var rel, const TensorI32& idx) {
  const Tensor& Q = t.value(q);    // (B, H, Lq, d)
  const Tensor& R = t.value(rel);  // (N, H, d)
  ORDO_CHECK(Q.rank() == 4, "relative_logits: q must be (B, H, Lq, d), got ", Q.shape());
  const int64_t B = Q.dim(0), H = Q.dim(1), Lq = Q.dim(2), d = Q.dim(3);
  ORDO_CHECK(R.rank() == 3 && R.dim(1) == H && R.dim(2) == d, "relative_logits: rel must be (N, ", H, ", ", d,
             ") for q ", Q.shape(), ", got ", R.shape());
  ORDO_CHECK(idx.rank() == 2 && idx.dim(0) == Lq, "relative_logits: idx must be (Lq, Lk) with Lq = ", Lq,
             ", got ", idx.shape());
  const int64_t N = R.dim(0), Lk = idx.dim(1);
  for (int64_t i = 0; i < Lq * Lk; ++i)  // validate serially: no exception inside a parallel loop
    ORDO_CHECK(idx[i] >= 0 && idx[i] < N, "relative_logits: idx entry ", idx[i], " at (", i / Lk, ", ", i % Lk,
               ") is outside the ", N, " rows of rel");
  Tensor out = Tensor::empty(Shape{B, H, Lq, Lk});
  {
    const Real *qd = Q.data(), *rd = R.data();
    const int32_t* id = idx.data();
    Real* od = out.data();
    // One (h, t) per item: its keys G^T (d, Lk), the same for every b, then for each b the
    // row out[b, h, t, :] = sum_c q[b, h, t, c] G^T[c, :], in c order, along contiguous rows.
    parallel_for(H * Lq, B * Lk * d, [&](int64_t ht) {
      const int64_t h = ht / Lq, tq = ht % Lq;
      std::vector<Real> gt(static_cast<size_t>(d * Lk));
      gather_keys_transposed(rd, id + tq * Lk, H, h, d, Lk, gt.data());
      for (int64_t b = 0; b < B; ++b) {
        const int64_t row = (b * H + h) * Lq + tq;
        const Real* qr = qd + row * d;
        Real* o = od + row * Lk;
        std::fill(o, o + Lk, Real(0));
        for (int64_t c = 0; c < d; ++c) {
          const Real qc = qr[c];
          const Real* g = gt.data() + c * Lk;
          for (int64_t u = 0; u < Lk; ++u) o[u] += qc * g[u];
        }
      }
    });
  }
  TensorI32 saved = idx.clone();  // the caller may reuse its buffer before backward
  return t.push("relative_logits", std::move(out), [q, rel, saved, B, H, Lq, Lk, d](Tape& t, const Tensor& dout) {
    const Tensor &Q = t.value(q), &R = t.value(rel);
    const Real *qd = Q.data(), *rd = R.data(), *gd = dout.data();
    const int32_t* id = saved.data();
    if (t.needs_grad(q))
      t.add_grad(q, [&](auto into, Real* dq) {
        // dq[b, h, t, :] = sum_u dout[b, h, t, u] G[u, :], in u order, along the key rows.
        parallel_for(B * H * Lq, Lk * d, [&](int64_t row) {
          const int64_t h = (row / Lq) % H, tq = row % Lq;
          Real acc[64];
          for (int64_t c0 = 0; c0 < d; c0 += 64) {  // the head's width in blocks of 64
            const int64_t w = std::min<int64_t>(64, d - c0);
            std::fill(acc, acc + w, Real(0));
            for (int64_t u = 0; u < Lk; ++u) {
              const Real g = gd[row * Lk + u];
              const Real* rr = rd + (static_cast<int64_t>(id[tq * Lk + u]) * H + h) * d + c0;
              for (int64_t c = 0; c < w; ++c) acc[c] += g * rr[c];
            }
            for (int64_t c = 0; c < w; ++c) into(dq[row * d + c0 + c], acc[c]);
          }
        });
      });
    if (t.needs_grad(rel))
      t.add_grad(rel, Tape::summed, [&](auto, Real* dr) {
        // Per head (one thread each), per t: dG[u, :] = sum_b dout[b, h, t, u] q[b, h, t, :]
        // in b order, then added to the row of rel that (t, u) took, in (t, u) order.
        parallel_for(H, B * Lq * Lk * d, [&](int64_t h) {
          std::vector<Real> dg(static_cast<size_t>(Lk * d));
          for (int64_t tq = 0; tq < Lq; ++tq) {
            std::fill(dg.begin(), dg.end(), Real(0));
            for (int64_t b = 0; b < B; ++b) {
              const int64_t row = (b * H + h) * Lq + tq;
              const Real* qr = qd + row * d;
              const Real* g = gd + row * Lk;
              for (int64_t u = 0; u < Lk; ++u) {
                Real* dst = dg.data() + u * d;
                for (int64_t c = 0; c < d; ++c) dst[c] += g[u] * qr[c];
              }
            }
            for (int64_t u = 0; u < Lk; ++u) {
              Real* dst = dr + (static_cast<int64_t>(id[tq * Lk + u]) * H + h) * d;
              const Real* src = dg.data() + u * d;
              for (int64_t c = 0; c < d; ++c) dst[c] += src[c];
            }
          }
        });
      });
  }, {q, rel});
}

namespace {

// The item a loop iteration takes, of n: first and last alternately (0, n - 1, 1, n - 2, ...),
// so that with a lower triangle (few entries in the first rows or chunks, many in the last)
// each thread's contiguous share of iterations (schedule(static)) holds about as many
// entries: in order, of two threads, the second had three quarters of them.
int64_t ends_first(int64_t i, int64_t n) { return i % 2 ? n - 1 - i / 2 : i / 2; }

// The m <= kVec values at p as a vector, zeros past m (a whole vector is one load).
VReal load_partial(const Real* p, int64_t m) {
  if (m == kVec) return load_vec(p);
  Real buffer[kVec] = {};
  for (int64_t l = 0; l < m; ++l) buffer[l] = p[l];
  return load_vec(buffer);
}
// Its first m lanes to p.
void store_partial(Real* p, VReal v, int64_t m) {
  if (m == kVec) return store_vec(p, v);
  for (int64_t l = 0; l < m; ++l) p[l] = v[l];
}

// scalar_mlp's rows with the head count kH known at compile time (the per-head sums and
// gradients of a vector of entries then live in registers: with H at run time they went to
// memory and back at every k), or kH = 0 for any H (held in memory). The same operations in
// the same order either way.
struct MlpWeights {
  const Real *w1, *b1, *w2, *b2;
  int64_t K, H;
};

template <int kH>
void scalar_mlp_row(const MlpWeights& p, const Real* __restrict xr, int64_t n, Real* __restrict yr,
                    int64_t head_stride) {
  const int64_t H = kH > 0 ? kH : p.H;
  VReal fixed[kH > 0 ? kH : 1];
  std::vector<VReal> dynamic(kH > 0 ? 0 : static_cast<size_t>(H));
  VReal* acc = kH > 0 ? fixed : dynamic.data();  // y of the chunk, one vector per head
  for (int64_t i0 = 0; i0 < n; i0 += kVec) {
    const int64_t m = std::min(kVec, n - i0);
    const VReal xv = load_partial(xr + i0, m);
    for (int64_t h = 0; h < H; ++h) acc[h] = VReal{} + p.b2[h];
    for (int64_t k = 0; k < p.K; ++k) {
      const VReal a = p.w1[k] * xv + p.b1[k];
      const VReal z = a > 0 ? a : VReal{};
      for (int64_t h = 0; h < H; ++h) acc[h] += p.w2[k * H + h] * z;
    }
    for (int64_t h = 0; h < H; ++h) store_partial(yr + h * head_stride + i0, acc[h], m);
  }
}

// One row's backward: dx into dxr (if given) and the weights' gradients summed per lane into
// lanes (dw1 K, db1 K, dw2 K H, db2 H vectors; if given).
template <int kH>
void scalar_mlp_row_backward(const MlpWeights& p, const Real* __restrict xr, int64_t n, const Real* __restrict dyr,
                             int64_t head_stride, Real* __restrict dxr, VReal* __restrict lanes) {
  const int64_t H = kH > 0 ? kH : p.H, K = p.K;
  VReal fixed[kH > 0 ? kH : 1];
  std::vector<VReal> dynamic(kH > 0 ? 0 : static_cast<size_t>(H));
  VReal* g = kH > 0 ? fixed : dynamic.data();  // dy of the chunk, one vector per head
  VReal *dw1 = lanes, *db1 = lanes + K, *dw2 = lanes + 2 * K, *db2 = lanes + 2 * K + K * H;
  for (int64_t i0 = 0; i0 < n; i0 += kVec) {
    const int64_t m = std::min(kVec, n - i0);
    const VReal xv = load_partial(xr + i0, m);
    for (int64_t h = 0; h < H; ++h) {
      g[h] = load_partial(dyr + h * head_stride + i0, m);  // zero past m: the padded lanes add nothing
      if (lanes) db2[h] += g[h];
    }
    VReal dx{};
    for (int64_t k = 0; k < K; ++k) {
      const VReal a = p.w1[k] * xv + p.b1[k];
      VReal s{};  // s_k = [a_k > 0] sum_h w2[k, h] g[h]
      for (int64_t h = 0; h < H; ++h) s += p.w2[k * H + h] * g[h];
      s = a > 0 ? s : VReal{};
      dx += p.w1[k] * s;
      if (!lanes) continue;
      dw1[k] += xv * s;
      db1[k] += s;
      const VReal z = a > 0 ? a : VReal{};
      for (int64_t h = 0; h < H; ++h) dw2[k * H + h] += z * g[h];
    }
    if (dxr) store_partial(dxr + i0, dx, m);
  }
}

// f(std::integral_constant<int, kH>) for the head counts the models use, kH = 0 for the rest.
template <class F>
void with_heads(int64_t H, F&& f) {
  switch (H) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 8: return f(std::integral_constant<int, 8>{});
    case 16: return f(std::integral_constant<int, 16>{});
    default: return f(std::integral_constant<int, 0>{});
  }
}

}  // namespace

Var scalar_mlp(Tape& t, Var x, Var w1, Var b1, Var w2, Var b2, bool lower_triangle) {
  const Tensor& X = t.value(x);
  ORDO_CHECK(X.rank() == 2, "scalar_mlp: x must be a grid (R, C), got ", X.shape());
  const int64_t R = X.dim(0), C = X.dim(1);
  const Shape &s1 = t.shape(w1), &sb1 = t.shape(b1), &s2 = t.shape(w2), &sb2 = t.shape(b2);
  ORDO_CHECK(s1.rank() == 2 && s1[0] == 1 && s1[1] >= 1, "scalar_mlp: w1 must be (1, K), got ", s1);
  const int64_t K = s1[1];
  ORDO_CHECK(sb1 == Shape{K}, "scalar_mlp: b1 must be (K) = (", K, "), got ", sb1);
  ORDO_CHECK(s2.rank() == 2 && s2[0] == K && s2[1] >= 1, "scalar_mlp: w2 must be (K, H) with K = ", K, ", got ", s2);
  const int64_t H = s2[1];
  ORDO_CHECK(sb2 == Shape{H}, "scalar_mlp: b2 must be (H) = (", H, "), got ", sb2);
  // Row r's computed entries: [0, width(r)), taken one vector (kVec entries) at a time, the
  // last one zero-padded.
  auto width = [C, lower_triangle](int64_t r) { return lower_triangle ? std::min(r + 1, C) : C; };
  Tensor Y = Tensor::empty(Shape{H, R, C});
  {
    const Real* xd = X.data();
    const MlpWeights mw{t.value(w1).data(), t.value(b1).data(), t.value(w2).data(), t.value(b2).data(), K, H};
    Real* yd = Y.data();
    with_heads(H, [&](auto kH) {
      parallel_for(R, 2 * K * (H + 1) * C, [&](int64_t i) {
        const int64_t r = lower_triangle ? ends_first(i, R) : i, n = width(r);
        scalar_mlp_row<kH()>(mw, xd + r * C, n, yd + r * C, R * C);
        for (int64_t h = 0; h < H; ++h) std::fill(yd + (h * R + r) * C + n, yd + (h * R + r + 1) * C, Real(0));
      });
    });
  }
  return t.push("scalar_mlp", std::move(Y), [x, w1, b1, w2, b2, R, C, K, H, width, lower_triangle](Tape& t, const Tensor& dY) {
    const bool want_x = t.needs_grad(x);
    const bool want_w = t.needs_grad(w1) || t.needs_grad(b1) || t.needs_grad(w2) || t.needs_grad(b2);
    if (!want_x && !want_w) return;
    const Real *xd = t.value(x).data(), *dy = dY.data();
    const MlpWeights mw{t.value(w1).data(), t.value(b1).data(), t.value(w2).data(), t.value(b2).data(), K, H};
    // The weights' gradients, dw1 (K), db1 (K), dw2 (K H), db2 (H): per row in one vector
    // each, summed across its lanes at the row's end, then over the rows in order below.
    const int64_t P = 2 * K + K * H + H;
    std::vector<Real> parts(want_w ? static_cast<size_t>(R * P) : 0);
    Tensor dX = want_x ? Tensor::empty(Shape{R, C}) : Tensor();
    with_heads(H, [&](auto kH) {
      parallel_for(R, 4 * K * (H + 2) * C, [&](int64_t i) {
        const int64_t r = lower_triangle ? ends_first(i, R) : i, n = width(r);
        Real* dxr = want_x ? dX.data() + r * C : nullptr;
        if (dxr) std::fill(dxr + n, dxr + C, Real(0));  // entries past the triangle get no gradient
        std::vector<VReal> lanes(want_w ? static_cast<size_t>(P) : 0, VReal{});
        scalar_mlp_row_backward<kH()>(mw, xd + r * C, n, dy + r * C, R * C, dxr, want_w ? lanes.data() : nullptr);
        if (want_w)
          for (int64_t j = 0; j < P; ++j) {
            Real sum = 0;
            for (int64_t l = 0; l < kVec; ++l) sum += lanes[j][l];
            parts[r * P + j] = sum;
          }
      });
    });
    if (want_x) t.add_grad(x, std::move(dX));
    if (!want_w) return;
    std::vector<Real> total(static_cast<size_t>(P), Real(0));
    for (int64_t r = 0; r < R; ++r)
      for (int64_t j = 0; j < P; ++j) total[j] += parts[r * P + j];
    auto deliver = [&](Var v, int64_t from, int64_t count) {
      if (!t.needs_grad(v)) return;
      t.add_grad(v, [&](auto into, Real* d) {
        for (int64_t j = 0; j < count; ++j) into(d[j], total[from + j]);
      });
    };
    deliver(w1, 0, K);
    deliver(b1, K, K);
    deliver(w2, 2 * K, K * H);
    deliver(b2, 2 * K + K * H, H);
  }, {x, w1, b1, w2, b2});
}

namespace {

// lookup_ratio's entries per partial sum of its scatters: 16,384, or more for grids past 64
// such chunks (the partial sums, (nn + nd) values a chunk, stay O(L) rows); a function of the
// grid's size only, so that the sums' order, and with it the bits, do not depend on the thread
// count.
int64_t ratio_chunk(int64_t n) { return std::max(int64_t{1} << 14, (n + 63) / 64); }

// f(e0, e1) for each run of computed entries in [begin, end): all of them, or with a lower
// triangle those of row r (C entries a row) at columns c <= r.
template <class F>
void each_computed_run(int64_t begin, int64_t end, int64_t C, bool lower_triangle, F&& f) {
  if (!lower_triangle) return f(begin, end);
  for (int64_t e = begin; e < end;) {
    const int64_t r = e / C, row_end = std::min(end, (r + 1) * C);
    const int64_t last = std::min(row_end, r * C + r + 1);
    if (e < last) f(e, last);
    e = row_end;
  }
}

}  // namespace

Var lookup_ratio(Tape& t, Var num, Var den, const TensorI32& a, const TensorI32& b, const Tensor& sign,
                 bool lower_triangle) {
  const Tensor &N = t.value(num), &D = t.value(den);
  ORDO_CHECK(N.rank() == 1 && D.rank() == 1, "lookup_ratio: num and den must be vectors, got ", N.shape(), " and ",
             D.shape());
  ORDO_CHECK(b.shape() == a.shape() && sign.shape() == a.shape(), "lookup_ratio: the index grids and the signs must "
             "have one shape, got ", a.shape(), ", ", b.shape(), " and ", sign.shape());
  ORDO_CHECK(!lower_triangle || a.rank() == 2, "lookup_ratio: a lower triangle needs grids (R, C), got ", a.shape());
  const int64_t n = a.numel(), nn = N.numel(), nd = D.numel(), C = lower_triangle ? a.dim(1) : n;
  const int32_t *ad = a.data(), *bd = b.data();
  Tensor X = lower_triangle ? Tensor::zeros(a.shape()) : Tensor::empty(a.shape());
  const int64_t chunk = ratio_chunk(n), chunks = (n + chunk - 1) / chunk;
  auto chunk_runs = [n, C, lower_triangle, chunk](int64_t c, auto&& f) {
    each_computed_run(c * chunk, std::min(n, (c + 1) * chunk), C, lower_triangle, f);
  };
  {
    const Real *num_d = N.data(), *den_d = D.data(), *sd = sign.data();
    Real* xd = X.data();
    std::vector<char> in_range(static_cast<size_t>(chunks));
    parallel_for(chunks, 4 * chunk, [&](int64_t i) {
      const int64_t c = ends_first(i, chunks);
      bool ok = true;
      chunk_runs(c, [&](int64_t e0, int64_t e1) {
        for (int64_t e = e0; e < e1; ++e) ok &= ad[e] >= 0 && ad[e] < nn && bd[e] >= 0 && bd[e] < nd;
      });
      in_range[c] = ok;
      if (ok)
        chunk_runs(c, [&](int64_t e0, int64_t e1) {
          for (int64_t e = e0; e < e1; ++e) xd[e] = sd[e] * num_d[ad[e]] / den_d[bd[e]];
        });
    });
    for (int64_t c = 0; c < chunks; ++c)  // the first entry out of range, if a chunk had one
      if (!in_range[c])
        chunk_runs(c, [&](int64_t e0, int64_t e1) {
          for (int64_t e = e0; e < e1; ++e)
            ORDO_CHECK(ad[e] >= 0 && ad[e] < nn && bd[e] >= 0 && bd[e] < nd, "lookup_ratio: entry ", e,
                       " reads num[", ad[e], "] of ", nn, " and den[", bd[e], "] of ", nd);
        });
  }
  // The backward keeps the grids as they are (shared, not copied: core/ops.h says so).
  return t.push("lookup_ratio", X, [num, den, a, b, sign, chunk, chunks, X, chunk_runs](Tape& t, const Tensor& dx) {
    const bool want_num = t.needs_grad(num), want_den = t.needs_grad(den);
    if (!want_num && !want_den) return;
    const Real *dd = t.value(den).data(), *sd = sign.data(), *xd = X.data(), *g = dx.data();
    const int32_t *ad = a.data(), *bd = b.data();
    const int64_t nn = t.value(num).numel(), nd = t.value(den).numel();
    std::vector<Real> inv(static_cast<size_t>(nd));
    for (int64_t j = 0; j < nd; ++j) inv[j] = Real(1) / dd[j];
    // Each chunk's sums in its own partial row (entry order), the rows then added in order.
    std::vector<Real> part(static_cast<size_t>(chunks * (nn + nd)), Real(0));
    parallel_for(chunks, 6 * chunk, [&](int64_t i) {
      const int64_t c = ends_first(i, chunks);
      Real *pn = part.data() + c * (nn + nd), *pd = pn + nn;
      chunk_runs(c, [&](int64_t e0, int64_t e1) {
        for (int64_t e = e0; e < e1; ++e) {
          const Real r = inv[bd[e]];
          pn[ad[e]] += g[e] * sd[e] * r;
          pd[bd[e]] -= g[e] * xd[e] * r;
        }
      });
    });
    auto deliver = [&](Var v, int64_t from, int64_t count) {
      t.add_grad(v, Tape::summed, [&](auto, Real* d) {
        for (int64_t c = 0; c < chunks; ++c)
          for (int64_t j = 0; j < count; ++j) d[j] += part[c * (nn + nd) + from + j];
      });
    };
    if (want_num) deliver(num, 0, nn);
    if (want_den) deliver(den, nn, nd);
  }, {num, den});
}

}  // namespace ordo
