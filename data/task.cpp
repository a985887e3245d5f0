// data/task.cpp: batching and collation.
#include "data/task.h"

#include <algorithm>
#include <functional>

#include "core/parallel.h"
#include "core/rng.h"

namespace ordo {

const char* head_kind_name(HeadKind head) { return head == HeadKind::Token ? "token" : "pooled"; }

uint64_t data_stream(std::string_view purpose, uint64_t index) {
  return mix64(hash64(purpose) ^ mix64(index + 0x9e3779b97f4a7c15ull));
}

Batch slice(const Batch& batch, int64_t begin, int64_t end) {
  const int64_t B = batch.batch_size(), L = batch.length();
  ORDO_CHECK(0 <= begin && begin < end && end <= B, "slice: sequences [", begin, ", ", end, ") of a batch of ", B);
  const int64_t n = end - begin;
  const int64_t per = batch.targets.numel() / B;  // L (token head) or 1 (pooled head)
  Batch out;
  out.tokens = TensorI32::zeros({n, L});
  std::copy(batch.tokens.data() + begin * L, batch.tokens.data() + end * L, out.tokens.data());
  const bool pooled = batch.targets.shape().rank() == 1;
  out.targets = pooled ? TensorI32::zeros({n}) : TensorI32::zeros({n, L});
  out.score = pooled ? Tensor::zeros({n}) : Tensor::zeros({n, L});
  std::copy(batch.targets.data() + begin * per, batch.targets.data() + end * per, out.targets.data());
  std::copy(batch.score.data() + begin * per, batch.score.data() + end * per, out.score.data());
  out.lengths.assign(batch.lengths.begin() + begin, batch.lengths.begin() + end);
  out.distances.assign(batch.distances.begin() + begin, batch.distances.begin() + end);
  return out;
}

Batch collate(const std::vector<Example>& examples, HeadKind head) {
  ORDO_CHECK(!examples.empty(), "collate: no examples to batch");
  const int64_t batch_size = static_cast<int64_t>(examples.size());
  int64_t max_len = 0;
  for (const Example& e : examples) max_len = std::max<int64_t>(max_len, e.tokens.size());
  ORDO_CHECK(max_len > 0, "collate: every example is empty");

  Batch b;
  b.tokens = TensorI32::zeros({batch_size, max_len});  // (B, L), 0 = PAD
  b.lengths.resize(batch_size);
  b.distances.resize(batch_size);
  if (head == HeadKind::Token) {
    b.targets = TensorI32::zeros({batch_size, max_len});  // (B, L)
    b.score = Tensor::zeros({batch_size, max_len});       // (B, L)
  } else {
    b.targets = TensorI32::zeros({batch_size});  // (B)
    b.score = Tensor::full({batch_size}, Real(1));  // (B)
  }
  for (int64_t i = 0; i < batch_size; ++i) {
    const Example& e = examples[i];
    const int64_t len = static_cast<int64_t>(e.tokens.size());
    b.lengths[i] = static_cast<int32_t>(len);
    b.distances[i] = e.distance;
    std::copy(e.tokens.begin(), e.tokens.end(), b.tokens.data() + i * max_len);
    if (head == HeadKind::Token) {
      ORDO_CHECK(static_cast<int64_t>(e.targets.size()) == len &&
                     static_cast<int64_t>(e.scored.size()) == len,
                 "collate: token-head example ", i, " has ", len, " tokens but ",
                 e.targets.size(), " targets and ", e.scored.size(), " score flags");
      int32_t* targets = b.targets.data() + i * max_len;
      Real* score = b.score.data() + i * max_len;
      for (int64_t t = 0; t < len; ++t) {
        targets[t] = e.targets[t];
        score[t] = e.scored[t] ? Real(1) : Real(0);
      }
    } else {
      ORDO_CHECK(e.label >= 0, "collate: pooled-head example ", i, " has no label");
      b.targets[i] = e.label;
    }
  }
  return b;
}

TaskConfig Task::resolve_range(TaskConfig config, int64_t default_min, int64_t default_max) {
  if (config.min_len == -1) config.min_len = default_min;
  if (config.max_len == -1) config.max_len = default_max;
  ORDO_CHECK(config.min_len >= 1, config.name, ": min_len must be >= 1 (or -1 for the default ",
             default_min, "), got ", config.min_len);
  ORDO_CHECK(config.min_len <= config.max_len, config.name, ": min_len ", config.min_len,
             " > max_len ", config.max_len, "; the length range must be non-empty");
  return config;
}

std::vector<MetricInfo> Task::metrics() const {
  if (head() == HeadKind::Pooled)
    return {{"acc", "share of sequences classified right"},
            {"loss", "mean cross-entropy per sequence"}};  // exact equals acc: one answer each
  return {{"acc", "share of scored positions predicted right"},
          {"exact", "share of sequences with every scored position right"},
          {"loss", "mean cross-entropy per scored position"}};
}

void Task::check_length(int64_t length) const {
  ORDO_CHECK(length >= min_valid_len(), name(), ": sequence length ", length,
             " is too short; this task needs length >= ", min_valid_len());
  ORDO_CHECK(length <= max_valid_len(), name(), ": sequence length ", length, " is too long; this task takes length <= ",
             max_valid_len());
}

int64_t Task::sample_length(uint64_t seed, uint64_t global_index) const {
  CounterRng rng(seed, data_stream(name() + "/length", global_index));
  return rng.uniform_int(min_len(), max_len());
}

Batch Task::batch(uint64_t seed, uint64_t index, int64_t batch_size, bool same_length) const {
  ORDO_CHECK(batch_size > 0, name(), ": batch_size must be > 0, got ", batch_size);
  check_length(min_len());  // example() must not throw inside the parallel loop
  check_length(max_len());
  const uint64_t first = index * static_cast<uint64_t>(batch_size);
  int64_t shared_length = 0;
  if (same_length) {
    CounterRng rng(seed, data_stream(name() + "/batch-length", index));
    shared_length = rng.uniform_int(min_len(), max_len());
  }
  std::vector<Example> examples(batch_size);
  // Each sequence has its own stream, so the split over threads changes nothing.
  parallel_for(batch_size, 64 * max_len(), [&](int64_t i) {
    const uint64_t global = first + static_cast<uint64_t>(i);
    const int64_t length = same_length ? shared_length : sample_length(seed, global);
    examples[i] = example(seed, global, length);
  });
  return collate(examples, head());
}

}  // namespace ordo
