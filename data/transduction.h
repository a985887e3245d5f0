// data/transduction.h: the layout of the Chomsky-hierarchy tasks of Deletang et al. 2023
// (docs/spec.md §3.10), written once for all of them.
//
// An example of length n is its input followed by its answer slots:
//     x_1 .. x_m  _ .. _        (m = input_length(n) input symbols, output_length(n) slots)
// Slot j holds the BLANK id and is scored with the class of y_j; the first `scored` slots
// count (binary_addition's output ends with an end token, then padding nobody scores). This is
// the papers' setup: the input, then one "empty output" token per output symbol, and the
// model's outputs at those positions read as the answer; there is no separator.
//
// `length` counts input symbols, as the papers' axes do (train on 1..40, test on 41..500):
// the example has tokens(n) = input_length(n) + output_length(n) tokens (data/task.h).
//
// Ids: 0 = PAD, 1 = BLANK, 2.. the input alphabet (symbol s is id s + 2). Classes: the output
// alphabet, 0..output_alphabet()-1. Token head; chance 1 / output_alphabet().
//
// A task of this family subclasses TransductionTask and says how a sample is drawn:
//   class ParityTask final : public TransductionTask {
//     ...
//     int64_t input_alphabet() const override { return 2; }
//     int64_t output_alphabet() const override { return 2; }
//     Sample sample(CounterRng& rng, int64_t n) const override;  // n bits, their sum mod 2
//   };
#pragma once

#include <string>
#include <vector>

#include "core/rng.h"
#include "data/sampling.h"
#include "data/task.h"

namespace ordo {

class TransductionTask : public Task {
 public:
  static constexpr int32_t kBlank = 1, kFirstSymbol = 2;
  static constexpr int64_t kDefaultMinLen = 1, kDefaultMaxLen = 40;  // Deletang et al.'s training lengths

  HeadKind head() const override { return HeadKind::Token; }
  int64_t vocab_size() const override { return kFirstSymbol + input_alphabet(); }
  int64_t num_classes() const override { return output_alphabet(); }
  double chance_level() const override { return 1.0 / static_cast<double>(output_alphabet()); }
  int64_t min_valid_len() const override { return 1; }
  int64_t tokens(int64_t length) const override { return input_length(length) + output_length(length); }
  std::string length_unit() const override { return "input symbols"; }
  std::vector<MetricInfo> metrics() const override {
    return {{"acc", "share of answer slots right"},
            {"exact", "share of sequences with every answer slot right"},
            {"loss", "mean cross-entropy per answer slot"}};
  }

  // What a task draws for one example: its input symbols (0-based, input_length(n) of them)
  // and its output classes (output_length(n) of them); the first `scored` outputs are scored
  // (-1: all of them).
  struct Sample {
    std::vector<int32_t> input, output;
    int64_t scored = -1;
  };

  // The size of the input alphabet, and of the output one (the classes).
  virtual int64_t input_alphabet() const = 0;
  virtual int64_t output_alphabet() const = 0;
  // The input symbols of an example of length n: n, except where a task's grammar needs
  // another count (modular_arithmetic's expressions have an odd length).
  virtual int64_t input_length(int64_t n) const { return n; }
  // Its answer slots: 1 for the tasks that classify the whole input.
  virtual int64_t output_length(int64_t /*n*/) const { return 1; }

  Example example(uint64_t seed, uint64_t index, int64_t length) const override {
    check_length(length);
    CounterRng rng(seed, data_stream(name() + "/example", index));
    const Sample s = sample(rng, length);
    const int64_t m = input_length(length), k = output_length(length);
    ORDO_CHECK(static_cast<int64_t>(s.input.size()) == m && static_cast<int64_t>(s.output.size()) == k, name(),
               ": a sample of length ", length, " has ", s.input.size(), " inputs and ", s.output.size(),
               " outputs, not ", m, " and ", k);
    const int64_t scored = s.scored < 0 ? k : s.scored;
    Example e;
    e.tokens.assign(m + k, kBlank);
    e.targets.assign(m + k, 0);
    e.scored.assign(m + k, 0);
    for (int64_t i = 0; i < m; ++i) e.tokens[i] = kFirstSymbol + s.input[i];
    for (int64_t j = 0; j < scored; ++j) {
      e.targets[m + j] = s.output[j];
      e.scored[m + j] = 1;
    }
    return e;
  }

 protected:
  // Resolves the length range (default 1..40).
  explicit TransductionTask(const TaskConfig& config) : Task(config) {
    config_ = resolve_range(config_, kDefaultMinLen, kDefaultMaxLen);
  }

  // One example's input and output at length n, drawn from rng only.
  virtual Sample sample(CounterRng& rng, int64_t n) const = 0;

  // Ends an answer whose length varies: appends the end class, scores everything up to it,
  // and pads the unscored rest with class 0 to `slots` outputs (the authors' accuracy mask).
  static void end_answer(Sample& s, int32_t end, int64_t slots) {
    s.output.push_back(end);
    s.scored = static_cast<int64_t>(s.output.size());
    s.output.resize(slots, 0);
  }
};

}  // namespace ordo
