// data/eval.h: the fixed held-out evaluation sets of docs/spec.md §3 ("Evaluation sets").
//
// One set from the training length range (512 sequences) and one per extrapolation length
// (256 sequences each, every sequence exactly that long; by default 2x and 4x the training
// max_len). The sets come from their own seed, derived from `seed` so that they never
// coincide with training batches drawn with the same seed. Tasks with an evaluation twin
// (`order`) are swap-paired: sequence 2j + 1 is sequence 2j with A and B exchanged, so
// a permutation-invariant model scores exactly chance.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data/task.h"

namespace ordo {

constexpr int64_t kEvalTrainSequences = 512;   // from the training range
constexpr int64_t kEvalLengthSequences = 256;  // at each extrapolation length

struct EvalSet {
  int64_t length = 0;          // 0 = the training range; else every sequence's exact length
  std::vector<Batch> batches;  // batch_size sequences each, the last one possibly fewer
  int64_t num_sequences() const;
};

// {2 * max_len, 4 * max_len}, each capped at the longest length the task takes (unique_copy's
// 150: {100, 150}); a cap at or below max_len drops the length.
std::vector<int64_t> default_extrapolation_lengths(const Task& task);

// Evaluation batches hold at most this many tokens (and at most batch_size sequences).
constexpr int64_t kEvalBatchTokens = 8192;

// The training-range set first, then one set per extrapolation length, in the given order.
// Sequence counts are parameters only so tests can stay small; they must be even for a
// swap-paired task.
std::vector<EvalSet> make_eval_sets(const Task& task, uint64_t seed,
                                    const std::vector<int64_t>& extrapolation_lengths,
                                    int64_t batch_size,
                                    int64_t train_sequences = kEvalTrainSequences,
                                    int64_t length_sequences = kEvalLengthSequences);

// One of those sets alone, the same bits as in make_eval_sets: the set of `length` (0 = the
// training range) with `sequences` sequences. Each set's stream depends on (seed, length)
// only, so a set can be built when it is needed (the final-only lengths, TrainConfig).
EvalSet make_eval_set(const Task& task, uint64_t seed, int64_t length, int64_t batch_size, int64_t sequences,
                      const std::string& flag = "--eval-lens");

// The class most of `set`'s scored positions hold as their target (the smallest such class
// on a tie; -1 when nothing is scored), and the share of the scored positions whose target
// is `answer` (NaN when nothing is scored): what always giving `answer` scores on the set
// (docs/spec.md §3.8). Reports take the answer from a training-range set of its own seed and
// score it on every evaluation set: the accuracy of a model that learned nothing but which
// answer is commonest in training. On a task with skewed answers it lies above
// chance_level() (modular_arithmetic_brackets, where a product with a digit 0 is 0).
int32_t commonest_answer(const EvalSet& set);
double answer_share(const EvalSet& set, int32_t answer);
// The positions `set` scores (score != 0): the sample size of its shares.
int64_t scored_positions(const EvalSet& set);

// Throws unless the task takes sequences of `length`, naming its valid range and `flag`.
void check_eval_length(const Task& task, int64_t length, const std::string& flag = "--eval-lens");

}  // namespace ordo
