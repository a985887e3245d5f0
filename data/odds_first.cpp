// data/odds_first.cpp: the `odds_first` task (docs/spec.md §3.10; Deletang et al. 2023,
// context-sensitive): n bits i.i.d. uniform, then n answer slots that hold the bits at the
// odd places (x_1, x_3, .. counting from 0) followed by those at the even places (x_0, x_2,
// ..). This is what the authors' code computes; the example in its docstring has the two
// halves the other way round.
#include "data/transduction.h"

namespace ordo {
namespace {

class OddsFirstTask final : public TransductionTask {
 public:
  explicit OddsFirstTask(const TaskConfig& config) : TransductionTask(config) {}
  std::string name() const override { return "odds_first"; }
  int64_t input_alphabet() const override { return 2; }
  int64_t output_alphabet() const override { return 2; }
  int64_t output_length(int64_t n) const override { return n; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    Sample s;
    s.input = uniform_symbols(rng, n, 2);
    for (int64_t first : {1, 0})
      for (int64_t i = first; i < n; i += 2) s.output.push_back(s.input[i]);
    return s;
  }
};

}  // namespace

TaskInfo task_info_odds_first() {
  return {
      .name = "odds_first",
      .summary = "Chomsky, context-sensitive: n bits, then n slots for the odd places' bits, then the even places' (token head)",
      .default_min_len = TransductionTask::kDefaultMinLen,
      .default_max_len = TransductionTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<OddsFirstTask>(c); },
      .groups = {"chomsky"},
  };
}

}  // namespace ordo
