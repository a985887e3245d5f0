// train/micro_batches.h: the gradient of one batch, computed in parts and summed in a fixed
// order, on one process or over the ranks of an MPI job (docs/spec.md §5.4).
//
// A batch of B sequences is cut into M parts of B / M consecutive sequences. Each part's
// loss is weighted by its share of the batch's scored targets, so the parts' losses add up
// to the batch's mean loss and their gradients to its gradient. Each part's gradient is
// computed alone, from zero, and the sum is the left fold ((g_0 + g_1) + g_2) + ... in part
// order. Over N ranks, rank r computes parts [r M / N, (r + 1) M / N); the running sum
// travels from rank 0 to rank N - 1, each adding its parts one by one, and rank N - 1
// broadcasts the total: every rank adds the same numbers in the same order as one process.
// That order is why a data-parallel run has the bits of the one-process run (§9).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "cluster/cluster.h"
#include "core/tape.h"
#include "data/task.h"

namespace ordo {

// Forward and backward of one part: its loss times `weight` (1 when the batch is one part)
// into the parameters' gradients, which it zeroes first. `index` is the part's number in
// the batch, 0..M-1 (it keys the part's dropout masks). Returns the weighted loss.
using PartStep = std::function<double(const Batch& part, double weight, int64_t index)>;

// The parts of a batch this process computes and how their gradients are summed.
struct MicroBatches {
  int64_t parts = 1;          // M, dividing the batch size
  Cluster* world = nullptr;   // over MPI: the ranks, which divide M; nullptr = alone

  // Parts [first, last) of M this process computes.
  int64_t first() const;
  int64_t last() const;

  // Runs `step` on each of this process's parts and leaves the batch's gradient (over MPI,
  // every rank's parts summed) in `params`' gradients. Returns this process's parts'
  // weighted losses, in part order.
  std::vector<double> gradient(const Batch& batch, const std::vector<Parameter*>& params, const PartStep& step) const;

  // The weighted losses of every part of the batch, in part order, on rank 0 (the others
  // send theirs there and get back their own); alone, `mine` unchanged.
  std::vector<double> gather_losses(std::vector<double> mine) const;
};

}  // namespace ordo
