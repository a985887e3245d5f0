// core/ops/pack.cpp: packing a padded batch of sequences into their real rows, and back.
//
// x (B, L, ...) holds B left-aligned sequences, sequence b real at rows t < lengths[b].
// pack_rows keeps those rows, sequence after sequence: (T, ...) with T = sum_b lengths[b],
// sequence b at rows [start_b, start_b + lengths[b]), start_b = sum_{c < b} lengths[c].
// unpack_rows is its inverse, with zeros at the padding. Row-wise layers (linear, layernorm,
// the feed-forward) then skip the padding instead of computing it and masking it away.
//
// Each is the other's backward. Every output row is written by one loop iteration (a copy
// or zeros), so the results do not depend on the thread count.
#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>

#include "core/ops.h"
#include "core/parallel.h"

namespace ordo {
namespace {

// Row starts of the packed layout; checks the lengths against L.
std::vector<int64_t> packed_starts(const char* op, const std::vector<int32_t>& lengths, int64_t L) {
  std::vector<int64_t> starts(lengths.size() + 1, 0);
  for (size_t b = 0; b < lengths.size(); ++b) {
    ORDO_CHECK(lengths[b] >= 0 && lengths[b] <= L, op, ": lengths[", b, "] = ", lengths[b],
               " outside [0, L = ", L, "]");
    starts[b + 1] = starts[b] + lengths[b];
  }
  return starts;
}

// (B, L, w) <-> (T, w) row copies; `to_packed` picks the direction. The padded side's
// padding rows are zeroed when it is the destination.
void copy_rows(const Real* src, Real* dst, const std::vector<int64_t>& starts, int64_t L, int64_t w,
               bool to_packed) {
  const int64_t B = static_cast<int64_t>(starts.size()) - 1;
  parallel_for(B, L * w, [&](int64_t b) {
    const int64_t n = starts[b + 1] - starts[b];
    const Real* padded_src = src + b * L * w;
    Real* padded_dst = dst + b * L * w;
    if (to_packed) {
      if (n > 0) std::memcpy(dst + starts[b] * w, padded_src, sizeof(Real) * n * w);
    } else {
      if (n > 0) std::memcpy(padded_dst, src + starts[b] * w, sizeof(Real) * n * w);
      std::fill(padded_dst + n * w, padded_dst + L * w, Real(0));
    }
  });
}

Var pack_impl(Tape& t, Var x, const std::vector<int32_t>& lengths) {
  const Tensor& X = t.value(x);
  ORDO_CHECK(X.rank() >= 2 && X.dim(0) == static_cast<int64_t>(lengths.size()),
             "pack_rows: x must be (B, L, ...) with B = the number of lengths (", lengths.size(), "), got ",
             X.shape());
  const int64_t L = X.dim(1), w = X.numel() / std::max<int64_t>(X.dim(0) * L, 1);
  const std::vector<int64_t> starts = packed_starts("pack_rows", lengths, L);
  std::vector<int64_t> dims = X.shape().dims();
  dims.erase(dims.begin());
  dims[0] = starts.back();
  Tensor out = Tensor::empty(Shape(dims));
  copy_rows(X.data(), out.data(), starts, L, w, true);
  return t.push("pack_rows", std::move(out), [x, lengths, L](Tape& t, const Tensor& dy) {
    if (!t.needs_grad(x)) return;
    const Shape& xs = t.shape(x);
    const int64_t w = xs.numel() / std::max<int64_t>(xs[0] * L, 1);
    const std::vector<int64_t> starts = packed_starts("pack_rows", lengths, L);
    Tensor g = Tensor::empty(xs);
    copy_rows(dy.data(), g.data(), starts, L, w, false);
    t.add_grad(x, std::move(g));
  }, {x});
}

Var unpack_impl(Tape& t, Var x, const std::vector<int32_t>& lengths, int64_t L) {
  const Tensor& X = t.value(x);
  ORDO_CHECK(L >= 0, "unpack_rows: L must be >= 0, got ", L);
  const std::vector<int64_t> starts = packed_starts("unpack_rows", lengths, L);
  ORDO_CHECK(X.rank() >= 1 && X.dim(0) == starts.back(), "unpack_rows: x must be (T, ...) with T = the sum of the lengths (",
             starts.back(), "), got ", X.shape());
  std::vector<int64_t> dims = X.shape().dims();
  // The row width from the shape, not numel / T: with every length 0 (T = 0) that was 0, and
  // the padded output was left unwritten.
  const int64_t B = static_cast<int64_t>(lengths.size());
  const int64_t w = std::accumulate(dims.begin() + 1, dims.end(), int64_t{1}, std::multiplies<int64_t>());
  dims[0] = L;
  dims.insert(dims.begin(), B);
  Tensor out = Tensor::empty(Shape(dims));
  copy_rows(X.data(), out.data(), starts, L, w, false);
  return t.push("unpack_rows", std::move(out), [x, starts, L, w](Tape& t, const Tensor& dy) {
    if (!t.needs_grad(x)) return;
    Tensor g = Tensor::empty(t.shape(x));
    copy_rows(dy.data(), g.data(), starts, L, w, true);
    t.add_grad(x, std::move(g));
  }, {x});
}

}  // namespace

Var pack_rows(Tape& t, Var x, const std::vector<int32_t>& lengths) { return pack_impl(t, x, lengths); }
Var unpack_rows(Tape& t, Var x, const std::vector<int32_t>& lengths, int64_t L) {
  return unpack_impl(t, x, lengths, L);
}

}  // namespace ordo
