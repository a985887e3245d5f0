// data/cycle_navigation.cpp: the `cycle_navigation` task (docs/spec.md §3.10; Deletang et al.
// 2023, regular): an agent starts at state 0 of a cycle of 5 states; n moves i.i.d. uniform
// over {left, stay, right} (symbols 0, 1, 2, a step of symbol - 1); one answer slot, class =
// the final state, (sum of steps) mod 5.
#include "data/transduction.h"

namespace ordo {
namespace {

constexpr int32_t kStates = 5;  // Deletang et al.'s cycle length

class CycleNavigationTask final : public TransductionTask {
 public:
  explicit CycleNavigationTask(const TaskConfig& config) : TransductionTask(config) {}
  std::string name() const override { return "cycle_navigation"; }
  int64_t input_alphabet() const override { return 3; }
  int64_t output_alphabet() const override { return kStates; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    Sample s;
    s.input = uniform_symbols(rng, n, 3);
    int32_t state = 0;
    for (int32_t move : s.input) state = (state + move - 1 + kStates) % kStates;
    s.output = {state};
    return s;
  }
};

}  // namespace

TaskInfo task_info_cycle_navigation() {
  return {
      .name = "cycle_navigation",
      .summary = "Chomsky, regular: n moves on a cycle of 5 states, then one slot for the final state (token head)",
      .default_min_len = TransductionTask::kDefaultMinLen,
      .default_max_len = TransductionTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<CycleNavigationTask>(c); },
      .groups = {"chomsky"},
  };
}

}  // namespace ordo
