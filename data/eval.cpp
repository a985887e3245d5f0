// data/eval.cpp: building the evaluation sets (see data/eval.h).
#include "data/eval.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "core/parallel.h"
#include "core/rng.h"

namespace ordo {

int64_t EvalSet::num_sequences() const {
  int64_t n = 0;
  for (const Batch& b : batches) n += b.batch_size();
  return n;
}

std::vector<int64_t> default_extrapolation_lengths(const Task& task) {
  const int64_t longest = task.max_valid_len();
  std::vector<int64_t> out;
  for (int64_t len : {std::min(2 * task.max_len(), longest), std::min(4 * task.max_len(), longest)})
    if (len > task.max_len() && (out.empty() || out.back() != len)) out.push_back(len);
  return out;
}

namespace {

// `count` sequences of one set; length 0 = lengths drawn from the training range.
EvalSet make_set(const Task& task, uint64_t set_seed, int64_t length, int64_t count,
                 int64_t batch_size) {
  const bool paired = task.has_eval_twin();
  ORDO_CHECK(count > 0, task.name(), ": an evaluation set needs > 0 sequences, got ", count);
  ORDO_CHECK(!paired || count % 2 == 0, task.name(), ": evaluation sets are swap-paired, so ",
             "the sequence count must be even, got ", count);
  const int64_t distinct = paired ? count / 2 : count;
  const int64_t cost = 64 * std::max(length, task.max_len());
  std::vector<Example> examples(count);
  parallel_for(distinct, cost, [&](int64_t j) {
    int64_t len = length;
    if (len == 0) {
      CounterRng rng(set_seed, data_stream("eval/length", static_cast<uint64_t>(j)));
      len = rng.uniform_int(task.min_len(), task.max_len());
    }
    Example e = task.example(set_seed, static_cast<uint64_t>(j), len);
    if (paired) {
      examples[2 * j + 1] = task.eval_twin(e);
      examples[2 * j] = std::move(e);
    } else {
      examples[j] = std::move(e);
    }
  });
  EvalSet set;
  set.length = length;
  // At most batch_size sequences and kEvalBatchTokens tokens per batch: evaluation runs
  // without gradients but still holds one batch's activations, and at 4x the training
  // length 128 sequences of 256 tokens held 880 MB.
  int64_t longest = 1;
  for (const Example& e : examples) longest = std::max<int64_t>(longest, static_cast<int64_t>(e.tokens.size()));
  const int64_t rows = std::clamp<int64_t>(kEvalBatchTokens / longest, 1, batch_size);
  for (int64_t start = 0; start < count; start += rows) {
    const int64_t end = std::min(count, start + rows);
    std::vector<Example> chunk(examples.begin() + start, examples.begin() + end);
    set.batches.push_back(collate(chunk, task.head()));
  }
  return set;
}

}  // namespace

void check_eval_length(const Task& task, int64_t len, const std::string& flag) {
  ORDO_CHECK(len >= task.min_valid_len(), task.name(), ": evaluation length ", len,
             " is too short; this task needs length >= ", task.min_valid_len());
  ORDO_CHECK(len <= task.max_valid_len(), task.name(), ": evaluation length ", len,
             " is too long; this task takes length <= ", task.max_valid_len(), " with its current options; set ", flag,
             " within it");
}

EvalSet make_eval_set(const Task& task, uint64_t seed, int64_t length, int64_t batch_size, int64_t sequences,
                      const std::string& flag) {
  ORDO_CHECK(batch_size > 0, task.name(), ": batch_size must be > 0, got ", batch_size);
  if (length > 0) check_eval_length(task, length, flag);
  // The sets' own seed, one per set, never equal to a training seed's streams.
  const uint64_t eval_seed = mix64(seed ^ hash64("ordo/eval-sets"));
  const uint64_t set_seed = mix64(eval_seed + mix64(static_cast<uint64_t>(length)));
  return make_set(task, set_seed, length, sequences, batch_size);
}

namespace {

// How many scored positions hold each target class.
std::map<int32_t, int64_t> answer_counts(const EvalSet& set) {
  std::map<int32_t, int64_t> count;
  for (const Batch& b : set.batches)
    for (int64_t i = 0; i < b.targets.numel(); ++i)
      if (b.score[i] != 0) ++count[b.targets[i]];
  return count;
}

}  // namespace

int64_t scored_positions(const EvalSet& set) {
  int64_t scored = 0;
  for (const Batch& b : set.batches)
    for (int64_t i = 0; i < b.score.numel(); ++i) scored += b.score[i] != 0;
  return scored;
}

int32_t commonest_answer(const EvalSet& set) {
  int64_t most = 0;
  int32_t answer = -1;
  for (const auto& [target, n] : answer_counts(set))  // in increasing class order
    if (n > most) most = n, answer = target;
  return answer;
}

double answer_share(const EvalSet& set, int32_t answer) {
  const int64_t scored = scored_positions(set);
  if (scored == 0) return std::nan("");
  const std::map<int32_t, int64_t> count = answer_counts(set);
  const auto it = count.find(answer);
  return static_cast<double>(it == count.end() ? 0 : it->second) / static_cast<double>(scored);
}

std::vector<EvalSet> make_eval_sets(const Task& task, uint64_t seed,
                                    const std::vector<int64_t>& extrapolation_lengths,
                                    int64_t batch_size, int64_t train_sequences,
                                    int64_t length_sequences) {
  for (int64_t len : extrapolation_lengths) check_eval_length(task, len);
  std::vector<EvalSet> sets;
  sets.push_back(make_eval_set(task, seed, 0, batch_size, train_sequences));
  for (int64_t len : extrapolation_lengths) sets.push_back(make_eval_set(task, seed, len, batch_size, length_sequences));
  return sets;
}

}  // namespace ordo
