// data/answer_slots.h: the layout shared by `copy`, `reverse` and `sort` (docs/spec.md §3.4).
//
// A sequence of odd length L = 2n + 1 is
//     x_1 .. x_n  SEP  _ .. _        (n input symbols, a separator, n answer slots)
// and answer slot i (position n + i) is scored with the class of y_i, where y = answer(x):
// x itself for copy, x reversed for reverse, x sorted for sort. The answer slots hold the
// same BLANK token, so the model must find y_i from the slot's position alone; the layout
// works with the bidirectional and the causal mask alike (a slot sees every input). A
// sequence of even length starts with one BLANK (unscored), then the odd layout of L - 1.
//
// Ids: 0 = PAD, 1 = SEP, 2 = BLANK, 3..V+2 the symbols (V = --symbols), i.i.d. uniform.
// Token head, V classes (symbol id - 3); chance 1/V.
//
// A task of this family subclasses AnswerSlotTask and says what the slots hold:
//   class CopyTask final : public AnswerSlotTask {
//     ...
//     void answer(std::vector<int32_t>& x) const override {}  // y = x
//   };
#pragma once

#include <string>
#include <vector>

#include "core/rng.h"
#include "data/task.h"

namespace ordo {

class AnswerSlotTask : public Task {
 public:
  static constexpr int32_t kSep = 1, kBlank = 2, kFirstSymbol = 3;
  static constexpr int64_t kDefaultMinLen = 8, kDefaultMaxLen = 32;  // 3..15 symbols

  HeadKind head() const override { return HeadKind::Token; }
  int64_t vocab_size() const override { return symbols_ + 3; }
  int64_t num_classes() const override { return symbols_; }
  double chance_level() const override { return 1.0 / static_cast<double>(symbols_); }
  int64_t min_valid_len() const override { return 3; }  // one symbol, SEP, one slot
  std::vector<MetricInfo> metrics() const override {
    return {{"acc", "share of answer slots right"},
            {"exact", "share of sequences with every answer slot right"},
            {"loss", "mean cross-entropy per answer slot"}};
  }
  int64_t symbols() const { return symbols_; }

  // The option every task of the family declares (one flag, shared).
  static OptionSpec symbols_option() {
    return {"symbols", OptionType::Int, "8", "number of distinct input symbols"};
  }

  // The n input symbols of a sequence of `length`: floor((length - 1) / 2).
  static int64_t input_symbols(int64_t length) { return (length - 1) / 2; }

  Example example(uint64_t seed, uint64_t index, int64_t length) const override {
    check_length(length);
    CounterRng rng(seed, data_stream(name() + "/example", index));
    const int64_t n = input_symbols(length);
    const int64_t first = length - (2 * n + 1);  // 1 when the length is even: the leading BLANK
    std::vector<int32_t> x(n);
    for (int32_t& id : x) id = kFirstSymbol + static_cast<int32_t>(rng.uniform_int(0, symbols_ - 1));
    std::vector<int32_t> y = x;
    answer(y);
    Example e;
    e.tokens.assign(length, kBlank);
    e.targets.assign(length, 0);
    e.scored.assign(length, 0);
    for (int64_t i = 0; i < n; ++i) e.tokens[first + i] = x[i];
    e.tokens[first + n] = kSep;
    for (int64_t i = 0; i < n; ++i) {
      e.targets[first + n + 1 + i] = y[i] - kFirstSymbol;
      e.scored[first + n + 1 + i] = 1;
    }
    return e;
  }

 protected:
  // Reads --symbols and the length range; `task` names the task in errors.
  AnswerSlotTask(const TaskConfig& config, const char* task) : Task(config) {
    config_ = resolve_range(config_, kDefaultMinLen, kDefaultMaxLen);
    symbols_ = config_.options.integer("symbols");
    ORDO_CHECK(symbols_ >= 2, task, ": --symbols must be >= 2 (one symbol leaves nothing to learn), got ", symbols_);
    ORDO_CHECK(config_.min_len >= min_valid_len(), task, ": --min-len must be >= ", min_valid_len(),
               " (one symbol, the separator and one answer slot), got ", config_.min_len);
  }

  // Turns the input symbols (ids) into the answer, in place: what slot i must output.
  virtual void answer(std::vector<int32_t>& symbols) const = 0;

 private:
  int64_t symbols_ = 0;
};

}  // namespace ordo
