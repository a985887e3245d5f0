// data/next_token.h: the decoder language-model layout of Huang et al. 2025 (docs/spec.md
// §3.15), written once for the tasks of their length-generalization suite.
//
// An example of length n (n input symbols) is
//     BOS x_1 .. x_n SEP y_1 .. y_m EOS        (n + m + 3 tokens)
// and the model, causal, predicts each next token: position t is scored with the id of token
// t + 1 from SEP (which predicts y_1) to y_m (which predicts EOS). BOS, the input and SEP are
// not scored, nor EOS (nothing follows it). This is their code's loss mask: labels are the
// sequence with BOS, x and SEP masked, shifted by one inside GPT-2's loss
// (lacoco-lab/length_generalization, algorithmic/language_modeling_train.py). The accuracy of
// their compute_metrics, "every answer token and EOS predicted right under teacher forcing", is
// ordo's `exact`.
//
// Ids: 0 = PAD, 1 = BOS, 2 = SEP, 3 = EOS, 4.. the task's alphabet (symbol s is id s + 4), input
// and answer symbols in one alphabet as in their tokenizer. The classes are the ids (a class is
// the next token), so the head predicts over the whole vocabulary as theirs does. Token head;
// causal only: a bidirectional model would see the token it is asked for.
//
// `length` counts input symbols, as their bins do (train 1..50, test 51..100 and 101..150).
//
// A task of this family subclasses NextTokenTask and says how a sample is drawn:
//   class MajorityTask final : public NextTokenTask {
//     ...
//     int64_t alphabet() const override { return 26; }
//     Sample sample(CounterRng& rng, int64_t n) const override;  // n letters, their majority
//   };
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "data/sampling.h"
#include "data/task.h"

namespace ordo {

class NextTokenTask : public Task {
 public:
  static constexpr int32_t kBos = 1, kSep = 2, kEos = 3, kFirstSymbol = 4;
  static constexpr int64_t kDefaultMinLen = 1, kDefaultMaxLen = 50;  // Huang et al.'s training lengths

  HeadKind head() const override { return HeadKind::Token; }
  int64_t vocab_size() const override { return kFirstSymbol + alphabet(); }
  int64_t num_classes() const override { return vocab_size(); }
  // A guess among the answer symbols (EOS, also scored, is the same for every sequence).
  double chance_level() const override { return 1.0 / static_cast<double>(answer_alphabet()); }
  int64_t min_valid_len() const override { return 1; }
  int64_t tokens(int64_t length) const override { return length + answer_length(length) + 3; }
  std::string length_unit() const override { return "input symbols"; }
  std::vector<MetricInfo> metrics() const override {
    return {{"acc", "share of answer tokens and EOS predicted right (teacher forcing)"},
            {"exact", "share of sequences with every answer token and EOS right (Huang et al.'s accuracy)"},
            {"loss", "mean cross-entropy per answer token and EOS"}};
  }

  // What a task draws for one example: its input symbols (n) and its answer (answer_length(n)),
  // both 0-based symbols of the alphabet.
  struct Sample {
    std::vector<int32_t> input, answer;
  };

  // The symbols the inputs and answers use together (parity: 0, 1, e, o).
  virtual int64_t alphabet() const = 0;
  // How many of them an answer draws from (for chance_level).
  virtual int64_t answer_alphabet() const { return alphabet(); }
  // The answer tokens of an input of n symbols: 1 for a task that classifies its input.
  virtual int64_t answer_length(int64_t /*n*/) const { return 1; }

  Example example(uint64_t seed, uint64_t index, int64_t length) const override {
    check_length(length);
    CounterRng rng(seed, data_stream(name() + "/example", index));
    const Sample s = sample(rng, length);
    const int64_t n = length, m = answer_length(length);
    ORDO_CHECK(static_cast<int64_t>(s.input.size()) == n && static_cast<int64_t>(s.answer.size()) == m, name(),
               ": a sample of length ", length, " has ", s.input.size(), " inputs and ", s.answer.size(),
               " answer symbols, not ", n, " and ", m);
    Example e;
    e.tokens.reserve(static_cast<size_t>(n + m + 3));
    e.tokens.push_back(kBos);
    for (int32_t x : s.input) e.tokens.push_back(kFirstSymbol + x);
    e.tokens.push_back(kSep);
    for (int32_t y : s.answer) e.tokens.push_back(kFirstSymbol + y);
    e.tokens.push_back(kEos);
    const int64_t T = n + m + 3;
    e.targets.assign(static_cast<size_t>(T), 0);
    e.scored.assign(static_cast<size_t>(T), 0);
    for (int64_t t = n + 1; t < T - 1; ++t) {  // SEP .. y_m, each predicting the token after it
      e.targets[static_cast<size_t>(t)] = e.tokens[static_cast<size_t>(t + 1)];
      e.scored[static_cast<size_t>(t)] = 1;
    }
    return e;
  }

 protected:
  // Resolves the length range (default 1..50).
  explicit NextTokenTask(const TaskConfig& config) : Task(config) {
    config_ = resolve_range(config_, kDefaultMinLen, kDefaultMaxLen);
  }

  // One example's input and answer at length n, drawn from rng only.
  virtual Sample sample(CounterRng& rng, int64_t n) const = 0;
};

}  // namespace ordo
