// data/stack_manipulation.cpp: the `stack_manipulation` task (docs/spec.md §3.10; Deletang et
// al. 2023, context-free): a stack of s bits given bottom to top (s uniform in [1, n - 1]),
// then n - s actions uniform over POP (2), PUSH 0 (3), PUSH 1 (4); a POP on an empty stack does
// nothing. n + 1 answer slots hold the final stack top to bottom, the end token (class 2),
// then 0s, scored up to the end token. Length 1 holds one bit, and the stack is that bit (the
// authors' code).
#include <algorithm>

#include "data/transduction.h"

namespace ordo {
namespace {

class StackManipulationTask final : public TransductionTask {
 public:
  explicit StackManipulationTask(const TaskConfig& config) : TransductionTask(config) {}
  std::string name() const override { return "stack_manipulation"; }
  int64_t input_alphabet() const override { return 5; }
  int64_t output_alphabet() const override { return 3; }
  int64_t output_length(int64_t n) const override { return n + 1; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    Sample s;
    std::vector<int32_t> stack;
    if (n == 1) {
      s.input = uniform_symbols(rng, 1, 2);
      stack = s.input;
    } else {
      const int64_t depth = rng.uniform_int(1, n - 1);
      s.input = uniform_symbols(rng, depth, 2);
      stack = s.input;
      for (int64_t i = depth; i < n; ++i) {
        const auto action = static_cast<int32_t>(rng.uniform_int(2, 4));
        s.input.push_back(action);
        if (action == 2) {
          if (!stack.empty()) stack.pop_back();
        } else {
          stack.push_back(action - 3);
        }
      }
    }
    s.output.assign(stack.rbegin(), stack.rend());  // top first
    end_answer(s, 2, n + 1);
    return s;
  }
};

}  // namespace

TaskInfo task_info_stack_manipulation() {
  return {
      .name = "stack_manipulation",
      .summary = "Chomsky, context-free: a stack, then POP / PUSH actions; n+1 slots for the final stack top first and an end token (token head)",
      .default_min_len = TransductionTask::kDefaultMinLen,
      .default_max_len = TransductionTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<StackManipulationTask>(c); },
      .groups = {"chomsky"},
  };
}

}  // namespace ordo
