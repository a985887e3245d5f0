// data/mqar.cpp: the `mqar` task (docs/spec.md §3.13; Arora et al. 2023, Zoology: multi-query
// associative recall): D key-value pairs, then every key asked once, each query scored.
//
// A sequence of length n holds D = max(1, floor(n / 16)) pairs (Zoology's main figure pairs
// 4 with 64 tokens, 8 with 128, 16 with 256): k_1 v_1 .. k_D v_D, distinct keys uniform
// without replacement among K = --keys, values i.i.d. uniform among V = --values. The rest,
// n - 2D tokens, is BLANK except for D queries: each key once, in a random order, at distinct
// even offsets 2(i - 1) of that region, offset i drawn with weight i^(a - 1), a = 0.01,
// without replacement (Zoology's power law, which puts most queries soon after the pairs).
// A query is scored with its key's value; nothing else is.
// Ids: 0 = PAD, 1 = BLANK, 2..K+1 keys, K+2..K+V+1 values (as `recall`, whose options these
// are). Token head, V classes, chance 1/V. Lengths 4..16K + 15 (D <= K distinct keys).
#include <cmath>
#include <numeric>

#include "core/rng.h"
#include "data/task.h"

namespace ordo {
namespace {

class MqarTask final : public Task {
 public:
  static constexpr int32_t kBlank = 1, kFirstKey = 2;
  static constexpr int64_t kDefaultMinLen = 16, kDefaultMaxLen = 64;  // 1..4 pairs
  static constexpr double kPower = 0.01;                             // Zoology's power_a

  explicit MqarTask(const TaskConfig& config) : Task(config) {
    config_ = resolve_range(config_, kDefaultMinLen, kDefaultMaxLen);
    keys_ = config_.options.integer("keys");
    values_ = config_.options.integer("values");
    ORDO_CHECK(keys_ >= 2, "mqar: --keys must be >= 2 (one key leaves nothing to look up), got ", keys_);
    ORDO_CHECK(values_ >= 2, "mqar: --values must be >= 2 (one value leaves nothing to recall), got ", values_);
    ORDO_CHECK(config_.min_len >= min_valid_len(), "mqar: --min-len must be >= 4 (a pair and a query), got ",
               config_.min_len);
    ORDO_CHECK(config_.max_len <= max_valid_len(), "mqar: --max-len ", config_.max_len, " needs ", pairs(config_.max_len),
               " distinct keys but --keys is ", keys_, "; raise --keys or set --max-len <= ", max_valid_len());
  }

  std::string name() const override { return "mqar"; }
  HeadKind head() const override { return HeadKind::Token; }
  int64_t vocab_size() const override { return 2 + keys_ + values_; }
  int64_t num_classes() const override { return values_; }
  double chance_level() const override { return 1.0 / static_cast<double>(values_); }
  int64_t min_valid_len() const override { return 4; }
  int64_t max_valid_len() const override { return 16 * keys_ + 15; }
  std::vector<MetricInfo> metrics() const override {
    return {{"acc", "share of queries answered with their value"},
            {"exact", "share of sequences with every query right"},
            {"loss", "mean cross-entropy per query"}};
  }

  // The pairs of a sequence of `length`.
  static int64_t pairs(int64_t length) { return std::max<int64_t>(1, length / 16); }

  Example example(uint64_t seed, uint64_t index, int64_t length) const override {
    check_length(length);
    CounterRng rng(seed, data_stream("mqar/example", index));
    const int64_t d = pairs(length);
    std::vector<int32_t> keys(keys_);  // the first d of a partial Fisher-Yates shuffle
    std::iota(keys.begin(), keys.end(), 0);
    for (int64_t i = 0; i < d; ++i) std::swap(keys[i], keys[rng.uniform_int(i, keys_ - 1)]);
    Example e;
    e.tokens.assign(length, kBlank);
    e.targets.assign(length, 0);
    e.scored.assign(length, 0);
    std::vector<int32_t> values(d);
    for (int64_t i = 0; i < d; ++i) {
      values[i] = static_cast<int32_t>(rng.uniform_int(0, values_ - 1));
      e.tokens[2 * i] = kFirstKey + keys[i];
      e.tokens[2 * i + 1] = kFirstKey + static_cast<int32_t>(keys_) + values[i];
    }
    // The query order: a shuffle of the d pairs.
    std::vector<int64_t> order(d);
    std::iota(order.begin(), order.end(), 0);
    for (int64_t i = d - 1; i > 0; --i) std::swap(order[i], order[rng.uniform_int(0, i)]);
    // Their offsets: d of the (length - 2d) / 2 even slots, by weight i^(a - 1), without
    // replacement (each draw renormalises over the slots left).
    const int64_t slots = (length - 2 * d) / 2;
    std::vector<double> weight(slots);
    for (int64_t i = 0; i < slots; ++i) weight[i] = std::pow(static_cast<double>(i + 1), kPower - 1);
    for (int64_t q = 0; q < d; ++q) {
      double total = 0;
      for (double w : weight) total += w;
      double u = rng.uniform() * total;
      int64_t slot = -1;
      for (int64_t i = 0; i < slots; ++i) {
        if (weight[i] == 0) continue;  // taken
        slot = i;                      // the last one left, should rounding carry u past the end
        if (u < weight[i]) break;
        u -= weight[i];
      }
      weight[slot] = 0;
      const int64_t at = 2 * d + 2 * slot, pair = order[q];
      e.tokens[at] = kFirstKey + keys[pair];
      e.targets[at] = values[pair];
      e.scored[at] = 1;
    }
    return e;
  }

 private:
  int64_t keys_ = 0, values_ = 0;  // --keys, --values
};

}  // namespace

TaskInfo task_info_mqar() {
  return {
      .name = "mqar",
      .summary = "key-value pairs, then every key asked once: output each value (Arora et al. 2023; token head)",
      .default_min_len = MqarTask::kDefaultMinLen,
      .default_max_len = MqarTask::kDefaultMaxLen,
      .options = {{"keys", OptionType::Int, "64", "number of distinct keys (a sequence holds at most this many pairs)"},
                  {"values", OptionType::Int, "8", "number of distinct values"}},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<MqarTask>(c); },
  };
}

}  // namespace ordo
