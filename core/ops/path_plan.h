// core/ops/path_plan.h: what both PaTH kernels share, the fast one
// (core/ops/path_attention.cpp) and the plain reference the tests hold it to
// (core/ops/path_reference.cpp): the geometry, the scale, the keys each query takes and the
// checks of w and beta.
#pragma once

#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "core/ops.h"
#include "core/ops/attention_geometry.h"

namespace ordo {

// The geometry (core/ops/attention_geometry.h) and what PaTH adds to it.
struct PathPlan : AttentionGeometry {
  Real scale = 1;

  int64_t beta_offset(int64_t b, int64_t h) const { return row0(b) * H + h; }  // beta, stride H
  // The keys query t takes, [lo, hi) with hi = t + 1 for a real row; empty for padding.
  std::pair<int64_t, int64_t> keys(int64_t b, int64_t t) const {
    if (t >= key_lengths[b]) return {0, 0};
    return {mask.key_begin(t), mask.key_end(t, key_lengths[b])};
  }
};

// A checked plan: q, k, v (B, L, H, d) with key_lengths (B), or, given packed_L, packed
// (T, H, d) with the lengths of sequences of at most packed_L rows; w of q's shape, beta of
// its rows and heads, a causal mask, a finite scale. Errors name `op`.
inline PathPlan path_plan(const char* op, const Shape& q, const Shape& k, const Shape& v, const Shape& w,
                          const Shape& beta, const std::vector<int32_t>& lengths, std::optional<int64_t> packed_L,
                          const AttentionMask& mask, Real scale) {
  const PathPlan p{packed_L ? AttentionGeometry::packed(op, q, k, v, lengths, *packed_L, mask)
                            : AttentionGeometry::padded(op, q, k, v, lengths, mask),
                   scale};
  const Shape qs = p.packed() ? Shape{p.starts.back(), p.H, p.d} : Shape{p.B, p.L, p.H, p.d};
  ORDO_CHECK(w == qs, op, ": w must have q's shape ", qs, ", got ", w);
  const Shape rows = p.packed() ? Shape{p.starts.back(), p.H} : Shape{p.B, p.L, p.H};
  ORDO_CHECK(beta == rows, op, ": beta must be ", rows, " (q's rows and heads), got ", beta);
  ORDO_CHECK(p.mask.causal, op, ": PaTH transforms each key by the tokens between it and the query: it needs a "
             "causal mask");
  ORDO_CHECK(std::isfinite(static_cast<double>(p.scale)), op, ": scale must be finite, got ", p.scale);
  return p;
}

// The summed gradients of a backward (the inputs may share a Var) to those that take one.
inline void add_path_grads(Tape& t, const Var (&in)[5], Tensor (&g)[5]) {
  for (int i = 0; i < 5; ++i)
    if (t.needs_grad(in[i])) t.add_grad(in[i], std::move(g[i]));
}

}  // namespace ordo
