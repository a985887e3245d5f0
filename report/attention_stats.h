// report/attention_stats.h: the attention statistics of docs/spec.md §6.
//
// For a row A_i of an attention map (query i over keys j, summing to 1 over the real keys):
//   entropy   H(A_i)  = -sum_j A_ij log A_ij          (natural log; 0 log 0 = 0)
//   span      S(A_i)  = max{ |i - j| : A_ij > eps }   (eps = 0.05; 0 when no weight exceeds eps)
//   distance  D(A_i)  = sum_j A_ij |i - j|
// Only real positions count: for a sequence of length n (< the padded L), queries i >= n are
// skipped and keys j >= n ignored. Per sequence b and head h:
//   entropy, span_mean, distance = the mean over its n real queries; span_max = the max.
// Over a batch (per head): the mean over sequences of those means, and the max of span_max.
//
//   Tensor attn = tape.value(result.attention[layer]);     // (B, H, L, L)
//   std::vector<AttentionStats> per_head = attention_stats(attn, batch.lengths);
#pragma once

#include <cstdint>
#include <vector>

#include "core/tensor.h"

namespace ordo {

constexpr double kSpanEps = 0.05;

struct AttentionStats {
  double entropy = 0;    // mean row entropy (nats)
  double span_mean = 0;  // mean effective span
  double span_max = 0;   // largest effective span
  double distance = 0;   // mean attention distance
};

// One query row: `row` holds the weights of keys 0..n-1 (n = real length), query at `query`.
double row_entropy(const Real* row, int64_t n);
int64_t row_span(const Real* row, int64_t n, int64_t query, double eps = kSpanEps);
double row_distance(const Real* row, int64_t n, int64_t query);

// attention (B, H, L, L), lengths (B) real lengths (each in [1, L]). Returns (B * H) entries,
// sequence-major: [b * H + h].
std::vector<AttentionStats> sequence_attention_stats(const Tensor& attention, const std::vector<int32_t>& lengths,
                                                     double eps = kSpanEps);
// The same aggregated over the batch: (H) entries.
std::vector<AttentionStats> attention_stats(const Tensor& attention, const std::vector<int32_t>& lengths,
                                            double eps = kSpanEps);

}  // namespace ordo
