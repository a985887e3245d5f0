// core/ops/attention_geometry.h: the layout every attention kernel shares
// (fused_attention.cpp, stickbreaking_attention.cpp, path_attention.cpp), built and checked
// once here. B sequences of at most L rows, H heads of width d, either
//   padded: q, k, v (B, L, H, d), sequence b's keys the first key_lengths[b] rows (a padding
//           query row still has its L rows' worth of place), or
//   packed: q, k, v (T, H, d), the real rows of every sequence one after another (core/ops.h
//           pack_rows), sequence b's key_lengths[b] rows from row starts[b] on.
// The values may be narrower or wider than the queries and keys (d_v, for the softmax
// kernel only: PoPE's queries and keys are 2 d_h wide, its values d_h): v and the output are
// then (B, L, H, d_v) or (T, H, d_v), rows ldv = H d_v apart.
// A kernel's own plan holds one of these beside what its form adds (scale, terms, rule).
#pragma once

#include <cstdint>
#include <vector>

#include "core/ops.h"

namespace ordo {

struct AttentionGeometry {
  int64_t B = 0, L = 0, H = 0, d = 0;
  int64_t ld = 0;                    // the row stride of q and k: H d
  int64_t dv = 0, ldv = 0;           // the values' width d_v and row stride H d_v (v, the output)
  AttentionMask mask;                // causal, window
  std::vector<int32_t> key_lengths;  // (B): each sequence's real keys, in [0, L]
  std::vector<int64_t> starts;       // packed: sequence b's first row (B + 1 entries); empty: padded

  bool packed() const { return !starts.empty(); }
  // Query rows of sequence b: L padded (padding rows included), its length packed.
  int64_t rows(int64_t b) const { return starts.empty() ? L : key_lengths[b]; }
  // The row where sequence b starts.
  int64_t row0(int64_t b) const { return starts.empty() ? b * L : starts[b]; }
  // Offset of row 0 of pair (b, h) in q and k (and in v and the output when d_v = d).
  int64_t offset(int64_t b, int64_t h) const { return row0(b) * ld + h * d; }
  // Offset of row 0 of pair (b, h) in v and the output.
  int64_t value_offset(int64_t b, int64_t h) const { return row0(b) * ldv + h * dv; }

  // q, k and v of one shape, (B, L, H, d) with key_lengths (B), or (T, H, d) with the lengths
  // (B) of sequences of at most L rows summing to T; each length in [0, L], a window >= 0.
  // With value_width = Values::any, v's last dimension may differ from d. Throws
  // ordo::Error naming `op` and the problem.
  enum class Values { as_keys, any };
  static AttentionGeometry padded(const char* op, const Shape& q, const Shape& k, const Shape& v,
                                  const std::vector<int32_t>& key_lengths, const AttentionMask& mask,
                                  Values value_width = Values::as_keys);
  static AttentionGeometry packed(const char* op, const Shape& q, const Shape& k, const Shape& v,
                                  const std::vector<int32_t>& lengths, int64_t L, const AttentionMask& mask,
                                  Values value_width = Values::as_keys);
};

}  // namespace ordo
