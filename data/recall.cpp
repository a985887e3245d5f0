// data/recall.cpp: the `recall` task (docs/spec.md §3.6), associative recall: key-value
// pairs, then a query key; output its value.
//
// A sequence of odd length L = 2m + 1 is k_1 v_1 .. k_m v_m q: m pairs with distinct keys
// (uniform without replacement among K = --keys), values i.i.d. uniform among V = --values,
// and the query q = k_j for a uniform j. Only the query position is scored, with v_j's class.
// A sequence of even length starts with one BLANK (unscored). The distance recorded for the
// accuracy-by-distance curve is the query's position minus k_j's (2, 4, .., 2m).
// Ids: 0 = PAD, 1 = BLANK, 2..K+1 keys, K+2..K+V+1 values. Token head, V classes, chance 1/V.
// Distinct keys bound the length: m <= K, so L <= 2K + 2.
#include <numeric>

#include "core/rng.h"
#include "data/task.h"

namespace ordo {
namespace {

class RecallTask final : public Task {
 public:
  static constexpr int32_t kBlank = 1, kFirstKey = 2;
  static constexpr int64_t kDefaultMinLen = 8, kDefaultMaxLen = 32;  // 3..15 pairs

  explicit RecallTask(const TaskConfig& config) : Task(config) {
    config_ = resolve_range(config_, kDefaultMinLen, kDefaultMaxLen);
    keys_ = config_.options.integer("keys");
    values_ = config_.options.integer("values");
    ORDO_CHECK(keys_ >= 2, "recall: --keys must be >= 2 (one key leaves nothing to look up), got ", keys_);
    ORDO_CHECK(values_ >= 2, "recall: --values must be >= 2 (one value leaves nothing to recall), got ", values_);
    ORDO_CHECK(config_.min_len >= min_valid_len(), "recall: --min-len must be >= 3 (one pair and the query), got ",
               config_.min_len);
    ORDO_CHECK(config_.max_len <= max_valid_len(), "recall: --max-len ", config_.max_len, " needs ", pairs(config_.max_len),
               " distinct keys but --keys is ", keys_, "; raise --keys to ", pairs(config_.max_len), " or set --max-len <= ",
               max_valid_len());
  }

  std::string name() const override { return "recall"; }
  HeadKind head() const override { return HeadKind::Token; }
  int64_t vocab_size() const override { return 2 + keys_ + values_; }
  int64_t num_classes() const override { return values_; }
  double chance_level() const override { return 1.0 / static_cast<double>(values_); }
  int64_t min_valid_len() const override { return 3; }
  int64_t max_valid_len() const override { return 2 * keys_ + 2; }
  std::vector<MetricInfo> metrics() const override {
    return {{"acc", "share of queries answered with their value"},
            {"exact", "equals acc (one query per sequence)"},
            {"loss", "mean cross-entropy per query"}};
  }

  // The m key-value pairs of a sequence of `length`: floor((length - 1) / 2).
  static int64_t pairs(int64_t length) { return (length - 1) / 2; }

  Example example(uint64_t seed, uint64_t index, int64_t length) const override {
    check_length(length);
    CounterRng rng(seed, data_stream("recall/example", index));
    const int64_t m = pairs(length);
    const int64_t first = length - (2 * m + 1);  // 1 when the length is even: the leading BLANK
    // m distinct keys: the first m of a partial Fisher-Yates shuffle of 0..K-1.
    std::vector<int32_t> keys(keys_);
    std::iota(keys.begin(), keys.end(), 0);
    for (int64_t i = 0; i < m; ++i) std::swap(keys[i], keys[rng.uniform_int(i, keys_ - 1)]);
    Example e;
    e.tokens.assign(length, kBlank);
    e.targets.assign(length, 0);
    e.scored.assign(length, 0);
    std::vector<int32_t> values(m);
    for (int64_t i = 0; i < m; ++i) {
      values[i] = static_cast<int32_t>(rng.uniform_int(0, values_ - 1));
      e.tokens[first + 2 * i] = kFirstKey + keys[i];
      e.tokens[first + 2 * i + 1] = kFirstKey + static_cast<int32_t>(keys_) + values[i];
    }
    const int64_t j = rng.uniform_int(0, m - 1);
    const int64_t query = length - 1;
    e.tokens[query] = kFirstKey + keys[j];
    e.targets[query] = values[j];
    e.scored[query] = 1;
    e.distance = static_cast<int32_t>(query - (first + 2 * j));
    return e;
  }

 private:
  int64_t keys_ = 0, values_ = 0;  // --keys, --values
};

}  // namespace

TaskInfo task_info_recall() {
  return {
      .name = "recall",
      .summary = "key-value pairs, then a key: output its value (associative recall; token head)",
      .default_min_len = RecallTask::kDefaultMinLen,
      .default_max_len = RecallTask::kDefaultMaxLen,
      .options = {{"keys", OptionType::Int, "64", "number of distinct keys (a sequence holds at most this many pairs)"},
                  {"values", OptionType::Int, "8", "number of distinct values"}},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<RecallTask>(c); },
  };
}

}  // namespace ordo
