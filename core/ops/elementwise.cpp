// core/ops/elementwise.cpp: add, sub, mul, div and scale with NumPy broadcasting.
//
//   out = f(a, b)          a, b broadcast to out (shapes aligned on their last axes)
//   da  = sum over the axes a was stretched along of  dout * df/da
//   db  = sum over the axes b was stretched along of  dout * df/db
//
// Every pair of shapes is first reduced to a BroadcastPlan: the output's dimensions with
// size-1 axes dropped and neighbouring axes merged whenever both inputs stay contiguous
// across them, plus the element strides of a and b (0 = stretched). The hot cases collapse
// to at most two axes: same shape -> (n); bias (M, N) + (N) -> (M, N) with b strides (0, 1);
// (B, L, d) + (L, d) -> (B, L*d); (B, L, d) * (B, L, 1) -> (B*L, d) with b strides (1, 0).
// The innermost stride of an input is then 0 or 1, and each kernel is compiled for the four
// combinations, so the inner loops vectorise.
//
// Determinism: the forward writes each output element once. A broadcast gradient sums rows
// in fixed-size chunks (sized from the shape alone) and then adds the chunk sums in chunk
// order, so the result does not depend on the thread count.
#include <algorithm>
#include <array>
#include <type_traits>

#include "core/ops.h"
#include "core/parallel.h"

namespace ordo {
namespace {

constexpr int kMaxRank = Shape::kMaxRank;
constexpr int64_t kReduceChunk = 8192;   // elements summed per chunk of a broadcast gradient

struct BroadcastPlan {
  int rank = 0;                               // >= 1
  std::array<int64_t, kMaxRank> dim{};        // output dims (merged, no size-1 axes)
  std::array<int64_t, kMaxRank> stride_out{}; // contiguous strides of the output
  std::array<int64_t, kMaxRank> sa{}, sb{};   // strides of a and b; 0 = stretched
  int64_t numel = 0;

  int64_t inner() const { return dim[rank - 1]; }
  int64_t rows() const { return numel / std::max<int64_t>(inner(), 1); }
};

// The natural (contiguous) strides of `s` laid out on the `rank` trailing-aligned axes of the
// output; a missing or size-1 axis gets stride 0.
std::array<int64_t, kMaxRank> aligned_strides(const Shape& s, int rank) {
  std::array<int64_t, kMaxRank> st{};
  int64_t running = 1;
  for (int i = s.rank() - 1; i >= 0; --i) {
    st[rank - s.rank() + i] = s[i] == 1 ? 0 : running;
    running *= s[i];
  }
  return st;
}

BroadcastPlan make_plan(const Shape& a, const Shape& b, const Shape& out) {
  const int R = out.rank();
  const auto sa = aligned_strides(a, R), sb = aligned_strides(b, R);
  BroadcastPlan p;
  for (int i = 0; i < R; ++i) {
    if (out[i] == 1) continue;  // size-1 axes carry no offset
    const int k = p.rank;
    // Merge with the previous axis when both inputs are contiguous across the boundary.
    if (k > 0 && p.sa[k - 1] == sa[i] * out[i] && p.sb[k - 1] == sb[i] * out[i]) {
      p.dim[k - 1] *= out[i];
      p.sa[k - 1] = sa[i], p.sb[k - 1] = sb[i];
      continue;
    }
    p.dim[k] = out[i], p.sa[k] = sa[i], p.sb[k] = sb[i];
    ++p.rank;
  }
  if (p.rank == 0) p.rank = 1, p.dim[0] = 1, p.sa[0] = 0, p.sb[0] = 0;
  int64_t running = 1;
  for (int i = p.rank - 1; i >= 0; --i) p.stride_out[i] = running, running *= p.dim[i];
  p.numel = running;
  return p;
}

// Offsets of output row `row` (all axes but the last) in out, a and b.
struct Offsets {
  int64_t out = 0, a = 0, b = 0;
};
Offsets row_offsets(const BroadcastPlan& p, int64_t row) {
  Offsets o;
  for (int i = p.rank - 2; i >= 0; --i) {
    const int64_t idx = row % p.dim[i];
    row /= p.dim[i];
    o.out += idx * p.stride_out[i], o.a += idx * p.sa[i], o.b += idx * p.sb[i];
  }
  return o;
}

// Calls fn(integral_constant<SA>, integral_constant<SB>) with the inner strides (0 or 1)
// as compile-time constants.
template <class Fn>
void dispatch_inner(int64_t sa, int64_t sb, Fn&& fn) {
  using One = std::integral_constant<int64_t, 1>;
  using Zero = std::integral_constant<int64_t, 0>;
  if (sa && sb) fn(One{}, One{});
  else if (sa) fn(One{}, Zero{});
  else if (sb) fn(Zero{}, One{});
  else fn(Zero{}, Zero{});
}

// out[i] = f(a, b), every output element once.
template <class F>
void forward_kernel(const BroadcastPlan& p, const Real* a, const Real* b, Real* out, F f) {
  const int64_t inner = p.inner(), nc = (inner + kElementChunk - 1) / kElementChunk;
  parallel_for(p.rows() * nc, std::min(inner, kElementChunk), [&](int64_t item) {
    const int64_t row = item / nc, j0 = (item % nc) * kElementChunk, j1 = std::min(inner, j0 + kElementChunk);
    const Offsets o = row_offsets(p, row);
    dispatch_inner(p.sa[p.rank - 1], p.sb[p.rank - 1], [&](auto SA, auto SB) {
      const Real* ap = a + o.a;
      const Real* bp = b + o.b;
      Real* op = out + o.out;
#pragma omp simd
      for (int64_t j = j0; j < j1; ++j) op[j] = f(ap[j * SA], bp[j * SB]);
    });
  });
}

// Whether x = a (which == 0) or b (which == 1) has the output's layout, so that each element
// of dx gets one value; otherwise x was stretched and dx sums over the stretched axes.
bool dx_like_out(const BroadcastPlan& p, int which) {
  if (p.numel == 0) return false;
  const auto& sx = which == 0 ? p.sa : p.sb;
  for (int i = 0; i < p.rank; ++i)
    if (sx[i] == 0) return false;
  return true;
}

// dx += reduce_to_x(g(dout, a, b)) where x is a (which == 0) or b (which == 1) and
// g(d, av, bv) is d times the partial derivative of f with respect to x. When dx is like
// the output, each element is delivered once through `into` (Tape::add_grad); otherwise
// dx came from Tape::summed and the sums are added to it.
template <class Into, class G>
void backward_kernel(const BroadcastPlan& p, int which, const Real* dout, const Real* a,
                     const Real* b, Into into, Real* dx, G g) {
  if (p.numel == 0) return;
  const auto& sx = which == 0 ? p.sa : p.sb;
  const int last = p.rank - 1;
  const int64_t inner = p.inner();
  // Outer axes split into kept ones (x varies along them) and reduced ones (x stretched).
  std::array<int, kMaxRank> kept{}, reduced{};
  int nk = 0, nr = 0;
  int64_t kept_count = 1, reduced_count = 1;
  for (int i = 0; i < last; ++i) {
    if (sx[i] != 0) kept[nk++] = i, kept_count *= p.dim[i];
    else reduced[nr++] = i, reduced_count *= p.dim[i];
  }
  const bool inner_kept = sx[last] != 0;
  if (dx_like_out(p, which)) {
    const int64_t nc = (inner + kElementChunk - 1) / kElementChunk;
    parallel_for(p.rows() * nc, std::min(inner, kElementChunk), [&](int64_t item) {
      const int64_t row = item / nc, j0 = (item % nc) * kElementChunk, j1 = std::min(inner, j0 + kElementChunk);
      const Offsets o = row_offsets(p, row);
      dispatch_inner(p.sa[last], p.sb[last], [&](auto SA, auto SB) {
        const Real* dp = dout + o.out;
        const Real* ap = a + o.a;
        const Real* bp = b + o.b;
        Real* xp = dx + o.out;
#pragma omp simd
        for (int64_t j = j0; j < j1; ++j) into(xp[j], g(dp[j], ap[j * SA], bp[j * SB]));
      });
    });
    return;
  }
  const int64_t seg = inner_kept ? inner : 1;  // x elements per kept index
  const int64_t chunk_rows = std::max<int64_t>(1, kReduceChunk / std::max<int64_t>(inner, 1));
  const int64_t n_chunks = (reduced_count + chunk_rows - 1) / chunk_rows;

  // Sums the rows [q0, q1) of kept index k into acc[0, seg).
  auto sum_rows = [&](int64_t k, int64_t q0, int64_t q1, Real* acc) {
    std::array<int64_t, kMaxRank> idx{};
    for (int i = nk - 1; i >= 0; --i) idx[kept[i]] = k % p.dim[kept[i]], k /= p.dim[kept[i]];
    for (int64_t q = q0; q < q1; ++q) {
      int64_t r = q;
      for (int i = nr - 1; i >= 0; --i) idx[reduced[i]] = r % p.dim[reduced[i]], r /= p.dim[reduced[i]];
      int64_t oo = 0, oa = 0, ob = 0;
      for (int i = 0; i < last; ++i)
        oo += idx[i] * p.stride_out[i], oa += idx[i] * p.sa[i], ob += idx[i] * p.sb[i];
      const Real* dp = dout + oo;
      const Real* ap = a + oa;
      const Real* bp = b + ob;
      dispatch_inner(p.sa[last], p.sb[last], [&](auto SA, auto SB) {
        if (inner_kept) {
#pragma omp simd
          for (int64_t j = 0; j < inner; ++j) acc[j] += g(dp[j], ap[j * SA], bp[j * SB]);
        } else {
          Real s = 0;
          for (int64_t j = 0; j < inner; ++j) s += g(dp[j], ap[j * SA], bp[j * SB]);
          acc[0] += s;
        }
      });
    }
  };

  if (n_chunks <= 1) {  // one pass per kept index, straight into dx
    parallel_for(kept_count, reduced_count * inner, [&](int64_t k) {
      sum_rows(k, 0, reduced_count, dx + k * seg);
    });
    return;
  }
  // Partial sums per chunk: partial[c][k * seg + j], then added in chunk order.
  const int64_t xn = kept_count * seg;
  Tensor partial = Tensor::zeros(Shape{n_chunks, xn});
  Real* pp = partial.data();
  parallel_for(kept_count * n_chunks, chunk_rows * inner, [&](int64_t item) {
    const int64_t k = item / n_chunks, c = item % n_chunks;
    sum_rows(k, c * chunk_rows, std::min(reduced_count, (c + 1) * chunk_rows), pp + c * xn + k * seg);
  });
  const int64_t nb = (xn + kElementChunk - 1) / kElementChunk;
  parallel_for(nb, kElementChunk * n_chunks, [&](int64_t blk) {
    const int64_t e0 = blk * kElementChunk, e1 = std::min(xn, e0 + kElementChunk);
    for (int64_t c = 1; c < n_chunks; ++c) {
      const Real* src = pp + c * xn;
#pragma omp simd
      for (int64_t e = e0; e < e1; ++e) pp[e] += src[e];
    }
#pragma omp simd
    for (int64_t e = e0; e < e1; ++e) dx[e] += pp[e];
  });
}

// The shared body of the four binary ops. Da / Db give d * df/da and d * df/db. When
// df/da = 1 (add, sub) and a has the output's shape, da is dout itself: a is given dout's
// buffer (Tape::add_grad) instead of a copy (a residual connection's add copied 1 MB per
// backward in a tiny step).
template <class F, class Da, class Db>
Var binary(Tape& t, const char* op, Var a, Var b, F f, Da da, Db db, bool da_is_dout = false) {
  const Tensor& A = t.value(a);
  const Tensor& B = t.value(b);
  const Shape out_shape = broadcast_shape(op, A.shape(), B.shape());
  const BroadcastPlan p = make_plan(A.shape(), B.shape(), out_shape);
  Tensor out = Tensor::empty(out_shape);
  if (p.numel > 0) forward_kernel(p, A.data(), B.data(), out.data(), f);
  return t.push(op, std::move(out), [a, b, p, da, db, da_is_dout](Tape& t, const Tensor& dout) {
    const Real* Ad = t.value(a).data();
    const Real* Bd = t.value(b).data();
    auto deliver = [&](Var x, int which, auto g) {
      auto write = [&](auto into, Real* dx) { backward_kernel(p, which, dout.data(), Ad, Bd, into, dx, g); };
      if (dx_like_out(p, which)) t.add_grad(x, write);
      else t.add_grad(x, Tape::summed, write);
    };
    if (da_is_dout && t.needs_grad(a) && t.shape(a) == dout.shape()) {
      t.add_grad(a, dout);  // b == a is fine: b then adds dout into the buffer it reads
    } else if (t.needs_grad(a)) {
      deliver(a, 0, da);
    }
    if (t.needs_grad(b)) deliver(b, 1, db);
  }, {a, b});
}

}  // namespace

Shape broadcast_shape(const char* op, const Shape& a, const Shape& b) {
  const int R = std::max(a.rank(), b.rank());
  std::vector<int64_t> dims(R);
  for (int i = 0; i < R; ++i) {
    const int ia = i - (R - a.rank()), ib = i - (R - b.rank());
    const int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    ORDO_CHECK(da == db || da == 1 || db == 1, op, ": shapes do not broadcast: ", a, " vs ", b);
    dims[i] = da == 1 ? db : da;
  }
  return Shape(dims);
}

Var add(Tape& t, Var a, Var b) {
  return binary(t, "add", a, b, [](Real x, Real y) { return x + y; },
                [](Real d, Real, Real) { return d; }, [](Real d, Real, Real) { return d; }, true);
}

Var sub(Tape& t, Var a, Var b) {
  return binary(t, "sub", a, b, [](Real x, Real y) { return x - y; },
                [](Real d, Real, Real) { return d; }, [](Real d, Real, Real) { return -d; }, true);
}

Var mul(Tape& t, Var a, Var b) {
  return binary(t, "mul", a, b, [](Real x, Real y) { return x * y; },
                [](Real d, Real, Real y) { return d * y; },   // d(xy)/dx = y
                [](Real d, Real x, Real) { return d * x; });  // d(xy)/dy = x
}

Var div(Tape& t, Var a, Var b) {
  return binary(t, "div", a, b, [](Real x, Real y) { return x / y; },
                [](Real d, Real, Real y) { return d / y; },                 // 1 / y
                [](Real d, Real x, Real y) { return -d * x / (y * y); });  // -x / y^2
}

Var scale(Tape& t, Var a, Real s) {
  const Tensor& A = t.value(a);
  Tensor out = Tensor::empty(A.shape());
  const int64_t n = A.numel(), nc = (n + kElementChunk - 1) / kElementChunk;
  {
    const Real* x = A.data();
    Real* y = out.data();
    parallel_for(nc, kElementChunk, [&](int64_t c) {
      const int64_t i0 = c * kElementChunk, i1 = std::min(n, i0 + kElementChunk);
#pragma omp simd
      for (int64_t i = i0; i < i1; ++i) y[i] = s * x[i];
    });
  }
  return t.push("scale", std::move(out), [a, s, n, nc](Tape& t, const Tensor& dout) {
    if (!t.needs_grad(a)) return;
    const Real* d = dout.data();
    t.add_grad(a, [&](auto into, Real* da) {
      parallel_for(nc, kElementChunk, [&](int64_t c) {
        const int64_t i0 = c * kElementChunk, i1 = std::min(n, i0 + kElementChunk);
#pragma omp simd
        for (int64_t i = i0; i < i1; ++i) into(da[i], s * d[i]);
      });
    });
  }, {a});
}

}  // namespace ordo
