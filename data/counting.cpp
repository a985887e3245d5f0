// data/counting.cpp: the `counting` task (docs/spec.md §3.12; Chang and Bisk 2024, "Language
// models need inductive biases to count inductively", their shifted-start counting): a start
// number s, then n - 1 copies of the counted symbol; the t-th copy is scored with s + t.
//
// A sequence of length n is  [s] a a .. a : s uniform in [0, M - n + 1] (M = --count-max), so
// the largest answer, s + n - 1, is at most M. Position 1 (the number) is not scored; the
// copies of `a` count on from it. Drawing the start is the authors' fix for a classifier that
// never sees large counts when trained short: every number 1..M is a training answer, so
// a model tested longer than it was trained fails by position, not by vocabulary.
// Ids: 0 = PAD, 1 = a, 2 + v = the number v (0..M). Token head, M + 1 classes (the numbers),
// chance 1 / (M + 1). Lengths 2..M + 1.
#include "core/rng.h"
#include "data/task.h"

namespace ordo {
namespace {

class CountingTask final : public Task {
 public:
  static constexpr int32_t kSymbol = 1, kFirstNumber = 2;
  static constexpr int64_t kDefaultMinLen = 2, kDefaultMaxLen = 50;  // the authors train on lengths up to 50

  explicit CountingTask(const TaskConfig& config) : Task(config) {
    config_ = resolve_range(config_, kDefaultMinLen, kDefaultMaxLen);
    count_max_ = config_.options.integer("count-max");
    ORDO_CHECK(count_max_ >= 1, "counting: --count-max (the largest count) must be >= 1, got ", count_max_);
    ORDO_CHECK(config_.min_len >= min_valid_len(), "counting: --min-len must be >= 2 (the start and one symbol), got ",
               config_.min_len);
    ORDO_CHECK(config_.max_len <= max_valid_len(), "counting: --max-len ", config_.max_len, " counts past --count-max ",
               count_max_, "; raise --count-max to at least ", config_.max_len - 1, " or set --max-len <= ", max_valid_len());
  }

  std::string name() const override { return "counting"; }
  HeadKind head() const override { return HeadKind::Token; }
  int64_t vocab_size() const override { return kFirstNumber + count_max_ + 1; }
  int64_t num_classes() const override { return count_max_ + 1; }
  double chance_level() const override { return 1.0 / static_cast<double>(count_max_ + 1); }
  int64_t min_valid_len() const override { return 2; }
  int64_t max_valid_len() const override { return count_max_ + 1; }
  std::vector<MetricInfo> metrics() const override {
    return {{"acc", "share of symbols given their running count"},
            {"exact", "share of sequences counted right to the end"},
            {"loss", "mean cross-entropy per counted symbol"}};
  }

  Example example(uint64_t seed, uint64_t index, int64_t length) const override {
    check_length(length);
    CounterRng rng(seed, data_stream("counting/example", index));
    const auto start = static_cast<int32_t>(rng.uniform_int(0, count_max_ - length + 1));
    Example e;
    e.tokens.assign(length, kSymbol);
    e.targets.assign(length, 0);
    e.scored.assign(length, 1);
    e.tokens[0] = kFirstNumber + start;
    e.scored[0] = 0;
    for (int64_t t = 1; t < length; ++t) e.targets[t] = start + static_cast<int32_t>(t);
    return e;
  }

 private:
  int64_t count_max_ = 0;  // --count-max
};

}  // namespace

TaskInfo task_info_counting() {
  return {
      .name = "counting",
      .summary = "a start number, then copies of one symbol: count on from it at every copy (Chang and Bisk 2024; token head)",
      .default_min_len = CountingTask::kDefaultMinLen,
      .default_max_len = CountingTask::kDefaultMaxLen,
      .options = {{"count-max", OptionType::Int, "200",
                   "the largest count M: numbers 0..M are the ids and classes, lengths at most M + 1"}},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<CountingTask>(c); },
  };
}

}  // namespace ordo
