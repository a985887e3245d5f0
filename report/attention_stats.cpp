// report/attention_stats.cpp: entropy, effective span and mean distance of attention rows
// (definitions in attention_stats.h).
#include "report/attention_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/error.h"

namespace ordo {

double row_entropy(const Real* row, int64_t n) {
  double h = 0;
  for (int64_t j = 0; j < n; ++j) {
    const double a = row[j];
    if (a > 0) h -= a * std::log(a);
  }
  return h;
}

int64_t row_span(const Real* row, int64_t n, int64_t query, double eps) {
  int64_t span = 0;
  for (int64_t j = 0; j < n; ++j)
    if (row[j] > eps) span = std::max<int64_t>(span, std::llabs(query - j));
  return span;
}

double row_distance(const Real* row, int64_t n, int64_t query) {
  double d = 0;
  for (int64_t j = 0; j < n; ++j) d += static_cast<double>(row[j]) * static_cast<double>(std::llabs(query - j));
  return d;
}

std::vector<AttentionStats> sequence_attention_stats(const Tensor& attention, const std::vector<int32_t>& lengths,
                                                     double eps) {
  const Shape& s = attention.shape();
  ORDO_CHECK(s.rank() == 4 && s[2] == s[3], "attention stats: expected a (B, H, L, L) attention map, got ", s);
  const int64_t B = s[0], H = s[1], L = s[2];
  ORDO_CHECK(static_cast<int64_t>(lengths.size()) == B, "attention stats: ", lengths.size(),
             " lengths for a batch of ", B);
  std::vector<AttentionStats> out(static_cast<size_t>(B * H));
  for (int64_t b = 0; b < B; ++b) {
    const int64_t n = lengths[b];
    ORDO_CHECK(n >= 1 && n <= L, "attention stats: sequence ", b, " has length ", n, ", outside [1, ", L, "]");
    for (int64_t h = 0; h < H; ++h) {
      AttentionStats& st = out[b * H + h];
      const Real* map = attention.data() + (b * H + h) * L * L;
      for (int64_t i = 0; i < n; ++i) {
        const Real* row = map + i * L;
        const double span = static_cast<double>(row_span(row, n, i, eps));
        st.entropy += row_entropy(row, n);
        st.span_mean += span;
        st.span_max = std::max(st.span_max, span);
        st.distance += row_distance(row, n, i);
      }
      st.entropy /= n;
      st.span_mean /= n;
      st.distance /= n;
    }
  }
  return out;
}

std::vector<AttentionStats> attention_stats(const Tensor& attention, const std::vector<int32_t>& lengths,
                                            double eps) {
  const std::vector<AttentionStats> per = sequence_attention_stats(attention, lengths, eps);
  const int64_t B = attention.dim(0), H = attention.dim(1);
  std::vector<AttentionStats> out(static_cast<size_t>(H));
  for (int64_t h = 0; h < H; ++h) {
    AttentionStats& st = out[h];
    for (int64_t b = 0; b < B; ++b) {
      const AttentionStats& p = per[b * H + h];
      st.entropy += p.entropy / B;
      st.span_mean += p.span_mean / B;
      st.distance += p.distance / B;
      st.span_max = std::max(st.span_max, p.span_max);
    }
  }
  return out;
}

}  // namespace ordo
