// data/task.h: the synthetic tasks of SPEC section 3, their batches and their registry.
//
// A task turns (seed, index) into a sequence, deterministically: every sequence draws its
// random numbers from its own counter-based stream (core/rng.h), so a batch is the same
// whichever thread makes it, in whatever order, on however many threads.
//
//   auto task = make_task({.name = "shift", .k = 10});
//   Batch b = task->batch(/*seed=*/1, /*index=*/step, /*batch_size=*/64);
//   // b.tokens (B, L) ids, 0 = PAD; b.targets / b.score (B, L) for a token head, (B) pooled.
//
// Token id 0 is PAD in every task. Adding a task: subclass Task, add one line to the
// registry in data/task.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/tensor.h"

namespace ordo {

// token: a class at every position (scored positions only); pooled: one class per sequence.
enum class HeadKind { Token, Pooled };

const char* head_kind_name(HeadKind head);  // "token" / "pooled"

// Every task setting of SPEC section 3, with the SPEC defaults. A task reads only the
// fields that concern it.
struct TaskConfig {
  std::string name = "order";          // order | shift | periodic
  int64_t min_len = -1, max_len = -1;  // training length range; -1 = the task's SPEC default
  int64_t vocab = 8;                   // order: number of fillers; periodic: number of symbols
  int64_t gap = 0;                     // order: fixed |pos(A) - pos(B)|, 0 = random
  int64_t k = 10;                      // shift: the shift
  int64_t p_min = 2, p_max = 8;        // periodic: period range
  double mask_rate = 0.25;             // periodic/complete: fraction of positions masked
  std::string target = "complete";     // periodic: complete | period
};

// One sequence. Token tasks fill `targets` and `scored` (one entry per position; an
// unscored position has target 0); pooled tasks fill `label` and leave both empty.
struct Example {
  std::vector<int32_t> tokens{};   // (L) ids, no PAD
  std::vector<int32_t> targets{};  // (L) class per position (token head)
  std::vector<uint8_t> scored{};   // (L) 1 = contributes to loss and metrics (token head)
  int32_t label = -1;            // the sequence's class (pooled head)
};

// A padded batch. Padding is PAD (0) tokens with target 0 and score 0.
struct Batch {
  TensorI32 tokens;              // (B, L) ids, 0 = PAD; L = the longest sequence in the batch
  TensorI32 targets;             // token head (B, L); pooled head (B)
  Tensor score;                  // same shape as targets: 1 = contributes to loss and metrics
  std::vector<int32_t> lengths;  // (B) real lengths

  int64_t batch_size() const { return tokens.dim(0); }
  int64_t length() const { return tokens.dim(1); }  // padded length
};

// Pads to the longest example and builds the score mask. Throws on an empty list.
Batch collate(const std::vector<Example>& examples, HeadKind head);

// The stream id of one random consumer: a purpose ("order/example") and an index.
uint64_t data_stream(std::string_view purpose, uint64_t index);

class Task {
 public:
  virtual ~Task() = default;

  virtual std::string name() const = 0;
  virtual HeadKind head() const = 0;
  virtual int64_t vocab_size() const = 0;   // number of token ids, PAD 0 included
  virtual int64_t num_classes() const = 0;
  virtual int64_t min_len() const { return config_.min_len; }  // training range, inclusive
  virtual int64_t max_len() const { return config_.max_len; }
  // The smallest length example() accepts (an evaluation length must be at least this).
  virtual int64_t min_valid_len() const = 0;

  // One sequence, a pure function of (seed, index, length). Throws on an invalid length.
  virtual Example example(uint64_t seed, uint64_t index, int64_t length) const = 0;

  // The evaluation twin of an example, if the task has one: `order` returns the sequence
  // with A and B exchanged (label flipped), so evaluation sets are swap-paired.
  virtual bool has_eval_twin() const { return false; }
  virtual Example eval_twin(const Example& e) const { return e; }

  // The training length of sequence `global_index`: uniform in [min_len, max_len], from its
  // own stream of (seed, global_index).
  int64_t sample_length(uint64_t seed, uint64_t global_index) const;

  // B sequences; sequence i is example(seed, index * B + i, length_i) with length_i from
  // sample_length. same_length: one length for the whole batch, drawn from the stream of
  // (seed, index), so the batch has no padding.
  Batch batch(uint64_t seed, uint64_t index, int64_t batch_size, bool same_length = false) const;

  // The settings this task was built with, the length range resolved to numbers.
  const TaskConfig& config() const { return config_; }

 protected:
  explicit Task(TaskConfig config) : config_(std::move(config)) {}
  // Fills an unset (-1) min_len / max_len with the task's default and checks the range.
  static TaskConfig resolve_range(TaskConfig config, int64_t default_min, int64_t default_max);
  // Throws unless min_valid_len() <= length: "<task>: length L is too short: ...".
  void check_length(int64_t length) const;

  TaskConfig config_;
};

// Builds a task by name from the registry; an unknown name is an error listing the known
// ones. Invalid settings are errors naming the setting and the accepted values.
std::unique_ptr<Task> make_task(const TaskConfig& config);
const std::vector<std::string>& task_names();

}  // namespace ordo
