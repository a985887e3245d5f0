// core/ops/attention_geometry.h: the layout every attention kernel shares
// (fused_attention.cpp, stickbreaking_attention.cpp, path_attention.cpp), built and checked
// once here. B sequences of at most L rows, H heads of width d, either
//   padded: q, k, v (B, L, H, d), sequence b's keys the first key_lengths[b] rows (a padding
//           query row still has its L rows' worth of place), or
//   packed: q, k, v (T, H, d), the real rows of every sequence one after another (core/ops.h
//           pack_rows), sequence b's key_lengths[b] rows from row starts[b] on.
// A kernel's own plan holds one of these beside what its form adds (scale, terms, rule).
#pragma once

#include <cstdint>
#include <vector>

#include "core/ops.h"

namespace ordo {

struct AttentionGeometry {
  int64_t B = 0, L = 0, H = 0, d = 0;
  int64_t ld = 0;                    // the row stride of q, k, v and the output: H d
  AttentionMask mask;                // causal, window
  std::vector<int32_t> key_lengths;  // (B): each sequence's real keys, in [0, L]
  std::vector<int64_t> starts;       // packed: sequence b's first row (B + 1 entries); empty: padded

  bool packed() const { return !starts.empty(); }
  // Query rows of sequence b: L padded (padding rows included), its length packed.
  int64_t rows(int64_t b) const { return starts.empty() ? L : key_lengths[b]; }
  // The row where sequence b starts.
  int64_t row0(int64_t b) const { return starts.empty() ? b * L : starts[b]; }
  // Offset of row 0 of pair (b, h) in q, k, v and the output.
  int64_t offset(int64_t b, int64_t h) const { return row0(b) * ld + h * d; }

  // q, k and v of one shape, (B, L, H, d) with key_lengths (B), or (T, H, d) with the lengths
  // (B) of sequences of at most L rows summing to T; each length in [0, L], a window >= 0.
  // Throws ordo::Error naming `op` and the problem.
  static AttentionGeometry padded(const char* op, const Shape& q, const Shape& k, const Shape& v,
                                  const std::vector<int32_t>& key_lengths, const AttentionMask& mask);
  static AttentionGeometry packed(const char* op, const Shape& q, const Shape& k, const Shape& v,
                                  const std::vector<int32_t>& lengths, int64_t L, const AttentionMask& mask);
};

}  // namespace ordo
