// data/passkey.cpp: the `passkey` task (docs/spec.md §3.14; Mohtashami and Jaggi 2023,
// landmark attention's passkey retrieval, as Chen et al. 2023 test it): a five-digit key
// hidden at a random depth in filler, asked for at the end.
//
// A sequence of length n is filler with the key block KEY d_1 .. d_5 inserted at a position
// uniform in [0, n - 12], and ends with QRY and five answer slots (BLANK) scored with
// d_1 .. d_5. The filler is one fixed sentence repeated, five tokens F_0 .. F_4 in turn from
// the start of the sequence, continuing after the key (the authors' "The grass is green. The
// sky is blue. ..." cut to length, in tokens). The digits are i.i.d. uniform. The distance
// recorded for the accuracy-by-distance curve is the depth as Chen et al. measure it: the
// first answer slot's position minus the first digit's.
// Ids: 0 = PAD, 1 = BLANK, 2 = KEY, 3 = QRY, 4..13 the digits 0..9, 14..18 the filler.
// Token head, 10 classes, chance 0.1. Lengths from 12 (the key, the query, the slots).
#include "core/rng.h"
#include "data/task.h"

namespace ordo {
namespace {

class PasskeyTask final : public Task {
 public:
  static constexpr int32_t kBlank = 1, kKey = 2, kQuery = 3, kFirstDigit = 4, kFirstFiller = 14;
  static constexpr int64_t kDigits = 5, kFiller = 5;
  static constexpr int64_t kDefaultMinLen = 16, kDefaultMaxLen = 64;

  explicit PasskeyTask(const TaskConfig& config) : Task(config) {
    config_ = resolve_range(config_, kDefaultMinLen, kDefaultMaxLen);
    ORDO_CHECK(config_.min_len >= min_valid_len(), "passkey: --min-len must be >= 12 (the key, the query and five slots), got ",
               config_.min_len);
  }

  std::string name() const override { return "passkey"; }
  HeadKind head() const override { return HeadKind::Token; }
  int64_t vocab_size() const override { return kFirstFiller + kFiller; }
  int64_t num_classes() const override { return 10; }
  double chance_level() const override { return 0.1; }
  int64_t min_valid_len() const override { return 2 * (kDigits + 1); }
  std::string distance_name() const override { return "depth"; }
  int64_t longest_distance(int64_t length) const override { return length - kDigits - 1; }  // key at 0
  std::vector<MetricInfo> metrics() const override {
    return {{"acc", "share of passkey digits recalled"},
            {"exact", "share of sequences whose whole passkey is recalled (the papers' accuracy)"},
            {"loss", "mean cross-entropy per digit"}};
  }

  Example example(uint64_t seed, uint64_t index, int64_t length) const override {
    check_length(length);
    CounterRng rng(seed, data_stream("passkey/example", index));
    const int64_t block = kDigits + 1, query = length - block;  // QRY at `query`, slots after it
    const int64_t key = rng.uniform_int(0, query - block);      // KEY at `key`, digits after it
    Example e;
    e.tokens.resize(length);
    e.targets.assign(length, 0);
    e.scored.assign(length, 0);
    int64_t filler = 0;
    for (int64_t t = 0; t < query; ++t)
      if (t < key || t >= key + block) e.tokens[t] = kFirstFiller + static_cast<int32_t>(filler++ % kFiller);
    e.tokens[key] = kKey;
    e.tokens[query] = kQuery;
    for (int64_t i = 0; i < kDigits; ++i) {
      const auto digit = static_cast<int32_t>(rng.uniform_int(0, 9));
      e.tokens[key + 1 + i] = kFirstDigit + digit;
      e.tokens[query + 1 + i] = kBlank;
      e.targets[query + 1 + i] = digit;
      e.scored[query + 1 + i] = 1;
    }
    e.distance = static_cast<int32_t>(query - key);
    return e;
  }
};

}  // namespace

TaskInfo task_info_passkey() {
  return {
      .name = "passkey",
      .summary = "a five-digit key at a random depth in filler, asked for at the end (Mohtashami and Jaggi 2023; token head)",
      .default_min_len = PasskeyTask::kDefaultMinLen,
      .default_max_len = PasskeyTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<PasskeyTask>(c); },
  };
}

}  // namespace ordo
