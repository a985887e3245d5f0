// core/ops/stickbreaking_plan.h: what both stick-breaking kernels share, the fast one
// (core/ops/stickbreaking_attention.cpp) and the plain reference the tests hold it to
// (core/ops/stickbreaking_reference.cpp): the geometry, the scale, the rule and the keys each
// query takes.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "core/ops.h"
#include "core/ops/attention_geometry.h"

namespace ordo {

// The geometry (core/ops/attention_geometry.h) and what stick-breaking adds to it.
struct SbPlan : AttentionGeometry {
  Real scale = 1;
  StickBreakingRule rule;

  // The keys query t takes: [lo, hi).
  std::pair<int64_t, int64_t> keys(int64_t b, int64_t t) const {
    const int64_t lo = mask.key_begin(t);
    int64_t hi = mask.key_end(t, key_lengths[b]);
    if (!rule.attend_current) hi = std::min(hi, t);
    return {lo, std::max(hi, lo)};
  }
};

// A checked plan for q, k, v (B, L, H, d) with key_lengths (B), or, given packed_L, packed
// (T, H, d) with the lengths of sequences of at most packed_L rows; errors name `op`.
inline SbPlan sb_plan(const char* op, Tape& t, Var q, Var k, Var v, const std::vector<int32_t>& lengths,
                      std::optional<int64_t> packed_L, const AttentionMask& mask, StickBreakingRule rule, Real scale) {
  const SbPlan p{packed_L ? AttentionGeometry::packed(op, t.shape(q), t.shape(k), t.shape(v), lengths, *packed_L, mask)
                          : AttentionGeometry::padded(op, t.shape(q), t.shape(k), t.shape(v), lengths, mask),
                 scale, rule};
  ORDO_CHECK(p.mask.causal, op, ": stick-breaking takes the keys before each query: it needs a causal mask");
  ORDO_CHECK(std::isfinite(static_cast<double>(p.scale)), op, ": scale must be finite, got ", p.scale);
  return p;
}

// A backward's summed gradients (q, k and v may be one Var) to the inputs that take one.
inline void add_sb_grads(Tape& t, Var q, Var k, Var v, Tensor& gq, Tensor& gk, Tensor& gv) {
  if (t.needs_grad(q)) t.add_grad(q, std::move(gq));
  if (t.needs_grad(k)) t.add_grad(k, std::move(gk));
  if (t.needs_grad(v)) t.add_grad(v, std::move(gv));
}

}  // namespace ordo
