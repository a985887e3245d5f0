// core/ops/gather.cpp: a gather along the last axis and its scatter-add gradient.
//
//   out[r, k] = x[r, idx[r, k]]                 rows r over the leading dims
//   dx[r, j] += sum_{k : idx[r, k] = j} dout[r, k]
// Rows are independent, so the backward runs rows in parallel, each adding its entries in
// increasing k: the same sums for any thread count.
#include "core/ops.h"
#include "core/parallel.h"

namespace ordo {

Var gather_last(Tape& t, Var x, const TensorI32& idx) {
  const Tensor& X = t.value(x);
  ORDO_CHECK(X.rank() >= 1 && idx.rank() == X.rank(), "gather_last: x ", X.shape(), " and idx ", idx.shape(),
             " must have the same rank");
  for (int i = 0; i + 1 < X.rank(); ++i)
    ORDO_CHECK(X.dim(i) == idx.dim(i), "gather_last: leading dims of x ", X.shape(), " and idx ", idx.shape(),
               " differ");
  const int64_t n = X.shape().last(), m = idx.shape().last(), rows = n > 0 ? X.numel() / n : 0;
  for (int64_t i = 0; i < idx.numel(); ++i)  // validate serially: no exception inside a parallel loop
    ORDO_CHECK(idx[i] >= 0 && idx[i] < n, "gather_last: index ", idx[i], " at ", i, " is outside [0, ", n, ")");
  Tensor out = Tensor::empty(idx.shape());
  const Real* xs = X.data();
  const int32_t* id = idx.data();
  Real* o = out.data();
  parallel_for(rows, m, [&](int64_t r) {
    for (int64_t k = 0; k < m; ++k) o[r * m + k] = xs[r * n + id[r * m + k]];
  });
  TensorI32 saved = idx.clone();  // the caller may reuse its buffer before backward
  return t.push("gather_last", std::move(out), [x, saved, n, m, rows](Tape& t, const Tensor& dout) {
    if (!t.needs_grad(x)) return;
    const Real* g = dout.data();
    const int32_t* id = saved.data();
    t.add_grad(x, Tape::summed, [&](auto, Real* dx) {  // a scatter
      parallel_for(rows, m, [&](int64_t r) {
        for (int64_t k = 0; k < m; ++k) dx[r * n + id[r * m + k]] += g[r * m + k];
      });
    });
  }, {x});
}

}  // namespace ordo
