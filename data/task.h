// data/task.h: the synthetic tasks of docs/spec.md §3, their batches and their registry.
//
// A task turns (seed, index) into a sequence, deterministically: every sequence draws its
// random numbers from its own counter-based stream (core/rng.h), so a batch is the same
// whichever thread makes it, in whatever order, on however many threads.
//
//   auto task = make_task(TaskConfig{.name = "shift"}.with("k", "10"));
//   Batch b = task->batch(/*seed=*/1, /*index=*/step, /*batch_size=*/64);
//   // b.tokens (B, L) ids, 0 = PAD; b.targets / b.score (B, L) for a token head, (B) pooled.
//
// Token id 0 is PAD in every task. Adding a task: one file that subclasses Task and
// declares its TaskInfo (name, lengths, options), plus one line in data/registry.cpp
// (docs/guides/add-task.md walks through it).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/options.h"
#include "core/tensor.h"

namespace ordo {

// token: a class at every position (scored positions only); pooled: one class per sequence.
enum class HeadKind { Token, Pooled };

const char* head_kind_name(HeadKind head);  // "token" / "pooled"

// The values of every registered task's options (TaskInfo::options), at their defaults.
Options task_options();

// The settings a task is built with. A task reads only its own options.
struct TaskConfig {
  std::string name = "order";
  int64_t min_len = -1, max_len = -1;  // training length range; -1 = the task's default
  Options options = task_options();    // each task reads its own, by name

  // Sets one option by name ("k", "10"), so configs read in one line:
  //   make_task(TaskConfig{.name = "shift"}.with("k", "3"))
  // On a named config it returns a reference; on a temporary, the config itself (so that
  // `auto& c = TaskConfig{}.with(...)` cannot dangle: it does not compile).
  TaskConfig& with(const std::string& option, const std::string& value) & {
    options.set(option, value);
    return *this;
  }
  TaskConfig with(const std::string& option, const std::string& value) && {
    options.set(option, value);
    return std::move(*this);
  }
};

// One sequence. Token tasks fill `targets` and `scored` (one entry per position; an
// unscored position has target 0); pooled tasks fill `label` and leave both empty.
struct Example {
  std::vector<int32_t> tokens{};   // (L) ids, no PAD
  std::vector<int32_t> targets{};  // (L) class per position (token head)
  std::vector<uint8_t> scored{};   // (L) 1 = contributes to loss and metrics (token head)
  int32_t label = -1;            // the sequence's class (pooled head)
  // The distance the answer spans, for the accuracy-by-distance curves (docs/spec.md §3.9):
  // `order` |pos(A) - pos(B)|, `recall` the query's position minus its key's, `passkey` the
  // key's depth. -1 = none.
  int32_t distance = -1;
};

// A padded batch. Padding is PAD (0) tokens with target 0 and score 0.
struct Batch {
  TensorI32 tokens;              // (B, L) ids, 0 = PAD; L = the longest sequence in the batch
  TensorI32 targets;             // token head (B, L); pooled head (B)
  Tensor score;                  // same shape as targets: 1 = contributes to loss and metrics
  std::vector<int32_t> lengths;  // (B) real lengths
  std::vector<int32_t> distances;  // (B) Example::distance, -1 = none

  int64_t batch_size() const { return tokens.dim(0); }
  int64_t length() const { return tokens.dim(1); }  // padded length
};

// Pads to the longest example and builds the score mask. Throws on an empty list.
Batch collate(const std::vector<Example>& examples, HeadKind head);

// Sequences [begin, end) of a batch, padded to the batch's length as before.
Batch slice(const Batch& batch, int64_t begin, int64_t end);

// The stream id of one random consumer: a purpose ("order/example") and an index.
uint64_t data_stream(std::string_view purpose, uint64_t index);

// What one of the recorded metrics counts for a task. Every evaluation set records acc,
// exact and loss (train/metrics.h); the task says what they mean for it.
struct MetricInfo {
  std::string name;     // "acc", "exact", "loss"
  std::string meaning;  // "share of masked symbols predicted right"
};

class Task {
 public:
  virtual ~Task() = default;

  virtual std::string name() const = 0;
  virtual HeadKind head() const = 0;
  virtual int64_t vocab_size() const = 0;   // number of token ids, PAD 0 included
  virtual int64_t num_classes() const = 0;
  // The score of a guess that ignores the input: the accuracy that means "nothing learned".
  virtual double chance_level() const = 0;
  // What acc, exact and loss count for this task (summary.md says it under each table).
  // The default follows the head: a token task scores positions, a pooled one sequences.
  virtual std::vector<MetricInfo> metrics() const;
  virtual int64_t min_len() const { return config_.min_len; }  // training range, inclusive
  virtual int64_t max_len() const { return config_.max_len; }
  // The smallest length example() accepts (an evaluation length must be at least this).
  virtual int64_t min_valid_len() const = 0;
  // The largest one (`recall` draws distinct keys from a finite set); most tasks have none.
  virtual int64_t max_valid_len() const { return std::numeric_limits<int64_t>::max(); }

  // One sequence, a pure function of (seed, index, length). Throws on an invalid length.
  virtual Example example(uint64_t seed, uint64_t index, int64_t length) const = 0;
  // The tokens of an example of `length`. For most tasks `length` is the token count; a
  // transduction task (data/transduction.h) counts its input symbols, as its papers do, and
  // its answer slots come after them. What is sized in tokens (the encodings' positions, the
  // memory estimate, --random-positions) asks this, never `length` itself.
  virtual int64_t tokens(int64_t length) const { return length; }
  // What `length` counts, for axes and tables: "tokens", or "input symbols" (transduction).
  virtual std::string length_unit() const { return "tokens"; }
  // What Example::distance measures, for the accuracy-by-distance figure's axis: "distance",
  // or for passkey "depth" (how far back the key sits).
  virtual std::string distance_name() const { return "distance"; }
  // The largest distance a sequence of `length` can record (length - 1 by default).
  virtual int64_t longest_distance(int64_t length) const { return length - 1; }

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
  // Throws unless min_valid_len() <= length <= max_valid_len(), naming the valid range.
  void check_length(int64_t length) const;

  TaskConfig config_;
};

using TaskFactory = std::unique_ptr<Task> (*)(const TaskConfig&);

// What a task's file declares about it: the registry (data/registry.cpp) lists one
// `TaskInfo task_info_<name>()` per task.
struct TaskInfo {
  std::string name;
  std::string summary;               // one line for --help
  int64_t default_min_len = 0, default_max_len = 0;
  std::vector<OptionSpec> options;   // its own options: flags, --help, logs, checkpoints
  TaskFactory make;
  // Training steps in `ordo demo` (one seed, 5 minutes for the whole grid on 2 cores):
  // enough for the demo's findings to agree with the full-length grid (docs/results.md).
  int64_t demo_steps = 2000;
  // The task `ordo bench` times its configurations on (docs/spec.md §8; exactly one sets it).
  bool benchmark_task = false;
  // In `ordo compare`'s default --tasks and so in `ordo demo` (whose 5 minutes hold three).
  bool in_default_study = false;
  // Its targets are the next tokens (data/next_token.h): a bidirectional model would see the
  // token it is asked for, so a run of it must be causal (validate(TrainConfig) refuses
  // --causal false) and a study runs it causal, labelled "causal=true" as for a causal-only
  // encoding.
  bool causal_only = false;
  // The named sets it belongs to, which `ordo compare --tasks` takes as one name: "chomsky"
  // (Deletang et al.'s fifteen, docs/spec.md §3.10).
  std::vector<std::string> groups = {};
};

// Every registered task, in registry order.
const std::vector<TaskInfo>& tasks();
// The registry entry of `name`; an unknown name is an error listing the known ones.
const TaskInfo& task_info(const std::string& name);
// Builds a task by name from the registry. Invalid settings are errors naming the setting
// and the accepted values.
std::unique_ptr<Task> make_task(const TaskConfig& config);
const std::vector<std::string>& task_names();
// The names with in_default_study, in registry order: `ordo compare`'s default --tasks.
std::vector<std::string> default_study_tasks();
std::string task_names_list();  // "order, shift, periodic"
// Every group a task declares, in registry order of first appearance: "chomsky".
std::vector<std::string> task_groups();
// The list with each group name replaced by its tasks, in registry order; other names are
// kept as they are (an unknown one is reported where the list is checked).
std::vector<std::string> expand_task_groups(const std::vector<std::string>& names);

}  // namespace ordo
