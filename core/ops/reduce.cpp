// core/ops/reduce.cpp: sums and means, over everything or over the last axis, and running sums.
//
//   sum(a)      = sum_i a_i                 da_i += dout
//   mean(a)     = sum(a) / n                da_i += dout / n
//   sum_last(a) = sum_j a[r, j]   (r rows)  da[r, j] += dout[r]
//   mean_last   = sum_last / n              da[r, j] += dout[r] / n
//   running_sum(a, segments): a (T, n) as consecutive runs of rows (segments[s] rows each);
//     out[r] = sum of a's rows from the start of r's run to r      da[r] += sum_{r' >= r in the run} dout[r']
//   suffix_sum_last(a) = sum_{t >= j} a[r, t]  (r rows)              da[r, t] += sum_{j <= t} dout[r, j]
//
// Determinism: a full sum adds fixed-size chunks (sequentially, in double) and then the chunk
// sums in chunk order; a row sum, a suffix sum and a prefix sum are one sequential loop per row. Neither depends on the
// thread count.
#include <algorithm>
#include <vector>

#include "core/ops.h"
#include "core/parallel.h"

namespace ordo {
namespace {


// The sum of all n values in a fixed association: chunks of kElementChunk, then chunk sums in order.
double total(const Real* x, int64_t n) {
  const int64_t nc = (n + kElementChunk - 1) / kElementChunk;
  std::vector<double> partial(nc, 0.0);
  parallel_for(nc, kElementChunk, [&](int64_t c) {
    double s = 0;
    for (int64_t i = c * kElementChunk, e = std::min(n, i + kElementChunk); i < e; ++i) s += x[i];
    partial[c] = s;
  });
  double s = 0;
  for (double p : partial) s += p;
  return s;
}

// da += g everywhere (the gradient of a full reduction).
void add_constant(Real* da, int64_t n, Real g) {
  const int64_t nc = (n + kElementChunk - 1) / kElementChunk;
  parallel_for(nc, kElementChunk, [&](int64_t c) {
    const int64_t i0 = c * kElementChunk, i1 = std::min(n, i0 + kElementChunk);
#pragma omp simd
    for (int64_t i = i0; i < i1; ++i) da[i] += g;
  });
}

Var reduce_all(Tape& t, const char* op, Var a, bool average) {
  const Tensor& A = t.value(a);
  const int64_t n = A.numel();
  ORDO_CHECK(!average || n > 0, op, ": mean of an empty tensor of shape ", A.shape());
  const double s = total(A.data(), n);
  Tensor out = Tensor::scalar(static_cast<Real>(average ? s / static_cast<double>(n) : s));
  return t.push(op, std::move(out), [a, n, average](Tape& t, const Tensor& dout) {
    if (!t.needs_grad(a)) return;
    const Real g = average ? dout[0] / static_cast<Real>(n) : dout[0];
    t.add_grad(a, Tape::summed, [&](auto, Real* da) { add_constant(da, n, g); });
  }, {a});
}

Var reduce_last(Tape& t, const char* op, Var a, bool average) {
  const Tensor& A = t.value(a);
  ORDO_CHECK(A.rank() >= 1, op, ": needs a tensor of rank >= 1, got shape ", A.shape());
  const int64_t n = A.shape().last();
  ORDO_CHECK(!average || n > 0, op, ": mean over an empty last axis, shape ", A.shape());
  std::vector<int64_t> dims = A.shape().dims();
  dims.pop_back();
  const int64_t rows = n == 0 ? Shape(dims).numel() : A.numel() / n;
  Tensor out = Tensor::empty(Shape(dims));  // (...)
  {
    const Real* x = A.data();  // (rows, n)
    Real* y = out.data();      // (rows)
    const Real count = static_cast<Real>(n);
    parallel_for(rows, n, [&](int64_t r) {
      Real s = 0;
      for (int64_t j = 0; j < n; ++j) s += x[r * n + j];
      y[r] = average ? s / count : s;
    });
  }
  return t.push(op, std::move(out), [a, n, rows, average](Tape& t, const Tensor& dout) {
    if (!t.needs_grad(a)) return;
    const Real* d = dout.data();  // (rows)
    const Real count = static_cast<Real>(n);
    t.add_grad(a, Tape::summed, [&](auto, Real* da) {  // (rows, n)
      parallel_for(rows, n, [&](int64_t r) {
        const Real g = average ? d[r] / count : d[r];
        Real* row = da + r * n;
#pragma omp simd
        for (int64_t j = 0; j < n; ++j) row[j] += g;
      });
    });
  }, {a});
}

}  // namespace

Var sum(Tape& t, Var a) { return reduce_all(t, "sum", a, false); }
Var mean(Tape& t, Var a) { return reduce_all(t, "mean", a, true); }
Var running_sum(Tape& t, Var a, const std::vector<int64_t>& segments) {
  const Tensor& A = t.value(a);
  ORDO_CHECK(A.rank() >= 1, "running_sum: a must have rows, got a scalar");
  const int64_t T = A.dim(0), n = A.numel() / std::max<int64_t>(T, 1);
  int64_t total_rows = 0;
  for (int64_t len : segments) {
    ORDO_CHECK(len >= 0, "running_sum: a segment of ", len, " rows");
    total_rows += len;
  }
  ORDO_CHECK(total_rows == T, "running_sum: the segments cover ", total_rows, " rows, a has ", T, " (", A.shape(), ")");
  std::vector<int64_t> starts(segments.size(), 0);
  for (size_t s = 1; s < segments.size(); ++s) starts[s] = starts[s - 1] + segments[s - 1];
  // One segment per iteration, its rows in order: the same sums for any thread count.
  Tensor out = Tensor::empty(A.shape());
  parallel_for(static_cast<int64_t>(segments.size()), n * 16, [&](int64_t s) {
    const Real* x = A.data() + starts[s] * n;
    Real* y = out.data() + starts[s] * n;
    for (int64_t r = 0; r < segments[s]; ++r)
      for (int64_t j = 0; j < n; ++j) y[r * n + j] = (r > 0 ? y[(r - 1) * n + j] : Real(0)) + x[r * n + j];
  });
  return t.push("running_sum", std::move(out), [a, segments, starts, n](Tape& t, const Tensor& dy) {
    if (!t.needs_grad(a)) return;
    t.add_grad(a, [&](auto into, Real* dx) {  // the running sum from each run's end backwards
      parallel_for(static_cast<int64_t>(segments.size()), n * 16, [&](int64_t s) {
        const Real* g = dy.data() + starts[s] * n;
        Real* d = dx + starts[s] * n;
        std::vector<Real> acc(static_cast<size_t>(n), Real(0));
        for (int64_t r = segments[s] - 1; r >= 0; --r)
          for (int64_t j = 0; j < n; ++j) {
            acc[j] += g[r * n + j];
            into(d[r * n + j], acc[j]);
          }
      });
    });
  }, {a});
}

Var suffix_sum_last(Tape& t, Var a) {
  const Tensor& A = t.value(a);
  ORDO_CHECK(A.rank() >= 1, "suffix_sum_last: needs a tensor of rank >= 1, got shape ", A.shape());
  const int64_t n = A.shape().last(), rows = n == 0 ? 0 : A.numel() / n;
  Tensor out = Tensor::empty(A.shape());
  {
    const Real* x = A.data();  // (rows, n)
    Real* y = out.data();      // (rows, n)
    parallel_for(rows, n, [&](int64_t r) {  // from the row's end backwards
      Real s = 0;
      for (int64_t j = n - 1; j >= 0; --j) y[r * n + j] = s += x[r * n + j];
    });
  }
  return t.push("suffix_sum_last", std::move(out), [a, n, rows](Tape& t, const Tensor& dout) {
    if (!t.needs_grad(a)) return;
    const Real* d = dout.data();  // (rows, n)
    t.add_grad(a, [&](auto into, Real* da) {  // the prefix sums of dout, from the row's start
      parallel_for(rows, n, [&](int64_t r) {
        Real s = 0;
        for (int64_t j = 0; j < n; ++j) into(da[r * n + j], s += d[r * n + j]);
      });
    });
  }, {a});
}

Var sum_last(Tape& t, Var a) { return reduce_last(t, "sum_last", a, false); }
Var mean_last(Tape& t, Var a) { return reduce_last(t, "mean_last", a, true); }

}  // namespace ordo
