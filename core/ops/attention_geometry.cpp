// core/ops/attention_geometry.cpp: see core/ops/attention_geometry.h.
#include "core/ops/attention_geometry.h"

#include <algorithm>

#include "core/error.h"

namespace ordo {
namespace {

void check_lengths(const char* op, const AttentionGeometry& g, const char* name) {
  ORDO_CHECK(g.mask.window >= 0, op, ": the window must be >= 0 (0 = every key), got ", g.mask.window);
  for (size_t b = 0; b < g.key_lengths.size(); ++b)
    ORDO_CHECK(g.key_lengths[b] >= 0 && g.key_lengths[b] <= g.L, op, ": ", name, "[", b, "] = ", g.key_lengths[b],
               " outside [0, L = ", g.L, "]");
}

// v: q's shape, or with Values::any q's shape but for the last dimension (d_v >= 1).
bool values_fit(const Shape& q, const Shape& v, AttentionGeometry::Values width) {
  if (width == AttentionGeometry::Values::as_keys || v.rank() != q.rank() || v.rank() == 0) return v == q;
  for (int i = 0; i + 1 < q.rank(); ++i)
    if (v[i] != q[i]) return false;
  return v[-1] >= 1;
}

}  // namespace

AttentionGeometry AttentionGeometry::padded(const char* op, const Shape& q, const Shape& k, const Shape& v,
                                            const std::vector<int32_t>& key_lengths, const AttentionMask& mask,
                                            Values value_width) {
  ORDO_CHECK(q.rank() == 4, op, ": q must be (B, L, H, d_h), got ", q);
  ORDO_CHECK(k == q && values_fit(q, v, value_width), op,
             value_width == Values::any ? ": q and k must have one shape (B, L, H, d_h) and v (B, L, H, d_v)"
                                        : ": q, k and v must have the same shape (B, L, H, d_h)",
             ", got q ", q, ", k ", k, ", v ", v);
  AttentionGeometry g;
  g.B = q[0], g.L = q[1], g.H = q[2], g.d = q[3], g.ld = q[2] * q[3];
  g.dv = v[3], g.ldv = v[2] * v[3];
  g.mask = mask;
  ORDO_CHECK(static_cast<int64_t>(key_lengths.size()) == g.B, op, ": key_lengths has ", key_lengths.size(),
             " entries for a batch of ", g.B, " (q ", q, ")");
  g.key_lengths = key_lengths;
  check_lengths(op, g, "key_lengths");
  return g;
}

AttentionGeometry AttentionGeometry::packed(const char* op, const Shape& q, const Shape& k, const Shape& v,
                                            const std::vector<int32_t>& lengths, int64_t L,
                                            const AttentionMask& mask, Values value_width) {
  ORDO_CHECK(q.rank() == 3, op, ": q must be (T, H, d_h), got ", q);
  ORDO_CHECK(k == q && values_fit(q, v, value_width), op,
             value_width == Values::any ? ": q and k must have one shape (T, H, d_h) and v (T, H, d_v)"
                                        : ": q, k and v must have the same shape (T, H, d_h)",
             ", got q ", q, ", k ", k, ", v ", v);
  ORDO_CHECK(L >= 1, op, ": L must be >= 1, got ", L);
  AttentionGeometry g;
  g.B = static_cast<int64_t>(lengths.size()), g.L = L, g.H = q[1], g.d = q[2], g.ld = q[1] * q[2];
  g.dv = v[2], g.ldv = v[1] * v[2];
  g.mask = mask;
  g.key_lengths = lengths;
  check_lengths(op, g, "lengths");
  g.starts.assign(lengths.size() + 1, 0);
  for (size_t b = 0; b < lengths.size(); ++b) g.starts[b + 1] = g.starts[b] + std::max<int32_t>(lengths[b], 0);
  ORDO_CHECK(g.starts.back() == q[0], op, ": q has ", q[0], " rows but the lengths sum to ", g.starts.back());
  return g;
}

}  // namespace ordo
