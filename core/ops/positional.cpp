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
// The kernels write each output element from exactly one loop iteration in a fixed
// order, so results are bit-identical for any thread count.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/ops.h"
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
  // The angles with the phase, once per (position, component).
  Tensor C = cos, S = sin;
  if (phase) {
    C = Tensor::empty(Shape{L, D}), S = Tensor::empty(Shape{L, D});
    const Real* p = t.value(*phase).data();
    for (int64_t l = 0; l < L; ++l)
      for (int64_t c = 0; c < D; ++c) {
        const double cp = std::cos(double(p[c])), sp = std::sin(double(p[c]));
        const double ca = cos[l * D + c], sa = sin[l * D + c];
        C[l * D + c] = static_cast<Real>(ca * cp - sa * sp);
        S[l * D + c] = static_cast<Real>(sa * cp + ca * sp);
      }
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
      t.add_grad(*phase, [&](auto into, Real* dp) {
        parallel_for(D, 4 * rows, [&](int64_t c) {  // each component's sum over the rows, in row order
          Real acc = 0;
          for (int64_t r = 0; r < rows; ++r) {
            const int64_t a = (r % L) * D + c;
            acc += md[r * D + c] * (dy[r * 2 * D + 2 * c + 1] * cd[a] - dy[r * 2 * D + 2 * c] * sd[a]);
          }
          into(dp[c], acc);
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

}  // namespace ordo
