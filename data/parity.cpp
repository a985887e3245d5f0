// data/parity.cpp: the `parity` task (docs/spec.md §3.10; Deletang et al. 2023's parity_check,
// regular): n bits i.i.d. uniform, one answer slot, class = the number of 1s mod 2.
#include "data/transduction.h"

namespace ordo {
namespace {

class ParityTask final : public TransductionTask {
 public:
  explicit ParityTask(const TaskConfig& config) : TransductionTask(config) {}
  std::string name() const override { return "parity"; }
  int64_t input_alphabet() const override { return 2; }
  int64_t output_alphabet() const override { return 2; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    Sample s;
    s.input = uniform_symbols(rng, n, 2);
    int32_t ones = 0;
    for (int32_t b : s.input) ones += b;
    s.output = {ones % 2};
    return s;
  }
};

}  // namespace

TaskInfo task_info_parity() {
  return {
      .name = "parity",
      .summary = "Chomsky, regular: n bits, then one slot for their parity (token head)",
      .default_min_len = TransductionTask::kDefaultMinLen,
      .default_max_len = TransductionTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<ParityTask>(c); },
      .groups = {"chomsky"},
  };
}

}  // namespace ordo
