#include "train/metrics.h"

#include <cmath>
#include <limits>

#include "core/ops.h"

namespace ordo {

Var task_loss(Tape& t, Var logits, const Batch& batch) {
  const Shape& s = t.shape(logits);
  const int64_t C = s[-1], N = s.numel() / C;
  ORDO_CHECK(N == batch.targets.numel(), "task_loss: ", N, " logit rows for ", batch.targets.numel(),
             " targets (logits ", s, ", targets ", batch.targets.shape(), ")");
  Var flat = reshape(t, logits, Shape{N, C});
  return cross_entropy(t, flat, batch.targets.reshaped(Shape{N}), batch.score.reshaped(Shape{N}));
}

void MetricCounts::add(const MetricCounts& o) {
  loss_sum += o.loss_sum, scored += o.scored, correct += o.correct;
  sequences += o.sequences, exact += o.exact;
  if (o.scored_by_distance.size() > scored_by_distance.size()) {
    scored_by_distance.resize(o.scored_by_distance.size(), 0);
    correct_by_distance.resize(o.scored_by_distance.size(), 0);
  }
  for (size_t d = 0; d < o.scored_by_distance.size(); ++d) {
    scored_by_distance[d] += o.scored_by_distance[d];
    correct_by_distance[d] += o.correct_by_distance[d];
  }
}

std::vector<double> MetricCounts::accuracy_by_distance() const {
  std::vector<double> acc(scored_by_distance.size(), std::numeric_limits<double>::quiet_NaN());
  for (size_t d = 0; d < acc.size(); ++d)
    if (scored_by_distance[d] > 0) acc[d] = static_cast<double>(correct_by_distance[d]) / scored_by_distance[d];
  return acc;
}

double MetricCounts::accuracy() const {
  return scored ? static_cast<double>(correct) / scored : std::numeric_limits<double>::quiet_NaN();
}
double MetricCounts::exact_match() const {
  return sequences ? static_cast<double>(exact) / sequences : std::numeric_limits<double>::quiet_NaN();
}
double MetricCounts::mean_loss() const {
  return scored ? loss_sum / scored : std::numeric_limits<double>::quiet_NaN();
}

MetricCounts score_batch(const Tensor& logits, const Batch& batch) {
  const int64_t C = logits.shape()[-1];
  const int64_t B = batch.batch_size();
  const int64_t per_seq = batch.targets.numel() / B;  // L for token heads, 1 for pooled
  ORDO_CHECK(logits.numel() == batch.targets.numel() * C, "score_batch: logits ", logits.shape(),
             " do not match targets ", batch.targets.shape());
  MetricCounts m;
  for (int64_t b = 0; b < B; ++b) {
    int64_t seq_scored = 0, seq_correct = 0;
    for (int64_t i = 0; i < per_seq; ++i) {
      const int64_t row = b * per_seq + i;
      if (batch.score[row] == 0) continue;
      const Real* z = logits.data() + row * C;
      int64_t best = 0;
      double mx = z[0];
      for (int64_t c = 1; c < C; ++c)
        if (z[c] > mx) mx = z[c], best = c;
      double lse = 0;
      for (int64_t c = 0; c < C; ++c) lse += std::exp(static_cast<double>(z[c]) - mx);
      const int32_t target = batch.targets[row];
      m.loss_sum += mx + std::log(lse) - z[target];
      ++seq_scored;
      seq_correct += best == target;
    }
    m.scored += seq_scored;
    m.correct += seq_correct;
    const int32_t distance = b < static_cast<int64_t>(batch.distances.size()) ? batch.distances[b] : -1;
    if (distance >= 0 && seq_scored > 0) {
      if (static_cast<size_t>(distance) >= m.scored_by_distance.size()) {
        m.scored_by_distance.resize(distance + 1, 0);
        m.correct_by_distance.resize(distance + 1, 0);
      }
      m.scored_by_distance[distance] += seq_scored;
      m.correct_by_distance[distance] += seq_correct;
    }
    if (seq_scored > 0) {
      ++m.sequences;
      m.exact += seq_correct == seq_scored;
    }
  }
  return m;
}

}  // namespace ordo
