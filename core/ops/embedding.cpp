// core/ops/embedding.cpp: row lookup and its scatter-add gradient.
//
//   out[p, :] = table[ids[p], :]          for every position p of ids (...)
//   dtable[v, :] += sum_{p : ids[p] = v} dout[p, :]
// The backward groups positions by id (a counting sort, which keeps positions in
// increasing order), then one loop iteration per table row adds that row's positions in
// that order: no atomics, no races, and the same sum for any thread count.
#include <vector>

#include "core/ops.h"
#include "core/parallel.h"

namespace ordo {

Var embedding(Tape& t, Var table, const TensorI32& ids) {
  const Tensor& E = t.value(table);  // (V, d)
  ORDO_CHECK(E.rank() == 2, "embedding: table must be (V, d), got ", E.shape());
  ORDO_CHECK(ids.defined(), "embedding: ids are undefined");
  const int64_t V = E.dim(0), d = E.dim(1), n = ids.numel();
  ORDO_CHECK(ids.rank() + 1 <= Shape::kMaxRank, "embedding: ids of shape ", ids.shape(),
             " would give an output of rank ", ids.rank() + 1, " > ", Shape::kMaxRank);
  for (int64_t p = 0; p < n; ++p)  // validate serially: no exception inside a parallel loop
    ORDO_CHECK(ids[p] >= 0 && ids[p] < V, "embedding: id ", ids[p], " at position ", p,
               " is outside [0, V) with V = ", V);

  std::vector<int64_t> out_dims = ids.shape().dims();
  out_dims.push_back(d);
  Tensor out = Tensor::empty(Shape(out_dims));  // (..., d)
  const Real* e = E.data();
  const int32_t* id = ids.data();
  Real* o = out.data();
  parallel_for(n, d, [&](int64_t p) {
    const Real* src = e + static_cast<int64_t>(id[p]) * d;
    Real* dst = o + p * d;
    for (int64_t j = 0; j < d; ++j) dst[j] = src[j];
  });

  TensorI32 saved_ids = ids.clone();  // the caller may reuse its buffer before backward
  return t.push("embedding", std::move(out), [table, saved_ids, V, d, n](Tape& t, const Tensor& dout) {
    if (!t.needs_grad(table)) return;
    // Counting sort of positions by id: positions of id v are order[start[v] .. start[v+1]).
    const int32_t* id = saved_ids.data();
    std::vector<int64_t> start(V + 1, 0), order(n);
    for (int64_t p = 0; p < n; ++p) ++start[id[p] + 1];
    for (int64_t v = 0; v < V; ++v) start[v + 1] += start[v];
    std::vector<int64_t> next(start.begin(), start.end() - 1);
    for (int64_t p = 0; p < n; ++p) order[next[id[p]]++] = p;  // increasing p within each id

    const Real* g = dout.data();     // (..., d)
    t.add_grad(table, Tape::summed, [&](auto, Real* dE) {  // (V, d): a scatter of rows
      parallel_for(V, d * (n / (V > 0 ? V : 1) + 1), [&](int64_t v) {
        Real* dst = dE + v * d;
        for (int64_t k = start[v]; k < start[v + 1]; ++k) {
          const Real* src = g + order[k] * d;
          for (int64_t j = 0; j < d; ++j) dst[j] += src[j];
        }
      });
    });
  }, {table});
}

}  // namespace ordo
