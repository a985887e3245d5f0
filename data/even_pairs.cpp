// data/even_pairs.cpp: the `even_pairs` task (docs/spec.md §3.10; Deletang et al. 2023,
// regular): n bits i.i.d. uniform, one answer slot, class = the number of unequal adjacent
// pairs (01 and 10) mod 2. It is 1 exactly when the first and the last bit differ, which a
// model can learn without counting.
#include "data/transduction.h"

namespace ordo {
namespace {

class EvenPairsTask final : public TransductionTask {
 public:
  explicit EvenPairsTask(const TaskConfig& config) : TransductionTask(config) {}
  std::string name() const override { return "even_pairs"; }
  int64_t input_alphabet() const override { return 2; }
  int64_t output_alphabet() const override { return 2; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    Sample s;
    s.input = uniform_symbols(rng, n, 2);
    int32_t unequal = 0;
    for (int64_t i = 1; i < n; ++i) unequal += s.input[i] != s.input[i - 1];
    s.output = {unequal % 2};
    return s;
  }
};

}  // namespace

TaskInfo task_info_even_pairs() {
  return {
      .name = "even_pairs",
      .summary = "Chomsky, regular: n bits, then one slot: is the count of 01 and 10 pairs odd (token head)",
      .default_min_len = TransductionTask::kDefaultMinLen,
      .default_max_len = TransductionTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<EvenPairsTask>(c); },
      .groups = {"chomsky"},
  };
}

}  // namespace ordo
