// data/flipflop.cpp: the `flipflop` task (docs/spec.md §3.5; Liu et al. 2023, flip-flop
// language modelling): remember the last written bit across ignored instructions.
//
// A sequence is L instructions, one token each: write 0, write 1, ignore 0, ignore 1, read.
// The first is a write and the last a read; in between each is an ignore with probability p
// (--flipflop-p) and otherwise a write or a read with equal chance; bits are fair coins.
// Every read is scored with the bit of the latest write before it; nothing else is scored.
// Ids: 0 = PAD, 1 = write 0, 2 = write 1, 3 = ignore 0, 4 = ignore 1, 5 = read. Token head,
// 2 classes, chance 0.5.
//
// Liu et al. spell an instruction and its bit as two tokens and train a language model on
// every next token, scoring the bits after reads; here the bit is folded into the
// instruction and only reads are scored, so the task is the same under the bidirectional
// and the causal mask (a read carries no bit to copy).
#include "core/rng.h"
#include "data/task.h"

namespace ordo {
namespace {

class FlipflopTask final : public Task {
 public:
  static constexpr int32_t kWrite0 = 1, kWrite1 = 2, kIgnore0 = 3, kIgnore1 = 4, kRead = 5;
  static constexpr int64_t kDefaultMinLen = 16, kDefaultMaxLen = 64;

  explicit FlipflopTask(const TaskConfig& config) : Task(config) {
    config_ = resolve_range(config_, kDefaultMinLen, kDefaultMaxLen);
    p_ignore_ = config_.options.real("flipflop-p");
    ORDO_CHECK(p_ignore_ >= 0 && p_ignore_ < 1, "flipflop: --flipflop-p (the share of ignore instructions) must be in [0, 1), got ",
               p_ignore_);
    ORDO_CHECK(config_.min_len >= min_valid_len(), "flipflop: --min-len must be >= 2 (a write and a read), got ",
               config_.min_len);
  }

  std::string name() const override { return "flipflop"; }
  HeadKind head() const override { return HeadKind::Token; }
  int64_t vocab_size() const override { return 6; }
  int64_t num_classes() const override { return 2; }
  double chance_level() const override { return 0.5; }
  int64_t min_valid_len() const override { return 2; }
  std::vector<MetricInfo> metrics() const override {
    return {{"acc", "share of reads that give the last written bit"},
            {"exact", "share of sequences with every read right"},
            {"loss", "mean cross-entropy per read"}};
  }

  Example example(uint64_t seed, uint64_t index, int64_t length) const override {
    check_length(length);
    CounterRng rng(seed, data_stream("flipflop/example", index));
    Example e;
    e.tokens.resize(length);
    e.targets.assign(length, 0);
    e.scored.assign(length, 0);
    int32_t memory = 0;
    for (int64_t t = 0; t < length; ++t) {
      const int32_t bit = static_cast<int32_t>(rng.uniform_int(0, 1));
      const double u = rng.uniform();
      enum { Write, Ignore, Read } op;
      if (t == 0)
        op = Write;
      else if (t == length - 1)
        op = Read;
      else
        op = u < p_ignore_ ? Ignore : (u < p_ignore_ + (1 - p_ignore_) / 2 ? Write : Read);
      if (op == Write) {
        memory = bit;
        e.tokens[t] = bit == 0 ? kWrite0 : kWrite1;
      } else if (op == Ignore) {
        e.tokens[t] = bit == 0 ? kIgnore0 : kIgnore1;
      } else {
        e.tokens[t] = kRead;
        e.targets[t] = memory;
        e.scored[t] = 1;
      }
    }
    return e;
  }

 private:
  double p_ignore_ = 0;  // --flipflop-p
};

}  // namespace

TaskInfo task_info_flipflop() {
  return {
      .name = "flipflop",
      .summary = "at each read, output the last written bit (Liu et al. 2023; token head)",
      .default_min_len = FlipflopTask::kDefaultMinLen,
      .default_max_len = FlipflopTask::kDefaultMaxLen,
      .options = {{"flipflop-p", OptionType::Real, "0.8", "share of ignore instructions, in [0, 1)"}},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<FlipflopTask>(c); },
  };
}

}  // namespace ordo
