// train/metrics.h: the loss and metrics of docs/spec.md §3 on a batch.
#pragma once

#include <vector>

#include "core/tape.h"
#include "data/task.h"

namespace ordo {

// Masked cross-entropy over the scored positions of a batch. logits: (B, L, C) for a token
// head, (B, C) for a pooled one.
Var task_loss(Tape& t, Var logits, const Batch& batch);

// Counts over a batch; add them up over batches, then read the ratios.
struct MetricCounts {
  double loss_sum = 0;      // sum over scored positions of -log p(target)
  int64_t scored = 0;       // scored positions (token) or sequences (pooled)
  int64_t correct = 0;      // argmax == target among scored
  int64_t sequences = 0;    // sequences with at least one scored position
  int64_t exact = 0;        // of those, sequences whose every scored position is correct
  // The scored rows of sequences with a distance (Batch::distances), by distance: index d
  // counts those at distance d (docs/spec.md §3.9). Empty when the task records none.
  std::vector<int64_t> scored_by_distance, correct_by_distance;
  void add(const MetricCounts& o);
  double accuracy() const;  // correct / scored
  double exact_match() const;  // exact / sequences
  double mean_loss() const;
  std::vector<double> accuracy_by_distance() const;  // NaN at distances no sequence has
};

// logits value (B, L, C) or (B, C). Argmax ties go to the lowest class.
MetricCounts score_batch(const Tensor& logits, const Batch& batch);

}  // namespace ordo
