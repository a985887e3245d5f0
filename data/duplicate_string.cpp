// data/duplicate_string.cpp: the `duplicate_string` task (docs/spec.md §3.10; Deletang et al.
// 2023, context-sensitive): n bits i.i.d. uniform, then 2n answer slots that must hold the
// input twice, x_1 .. x_n x_1 .. x_n.
#include "data/transduction.h"

namespace ordo {
namespace {

class DuplicateStringTask final : public TransductionTask {
 public:
  explicit DuplicateStringTask(const TaskConfig& config) : TransductionTask(config) {}
  std::string name() const override { return "duplicate_string"; }
  int64_t input_alphabet() const override { return 2; }
  int64_t output_alphabet() const override { return 2; }
  int64_t output_length(int64_t n) const override { return 2 * n; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    Sample s;
    s.input = uniform_symbols(rng, n, 2);
    s.output = s.input;
    s.output.insert(s.output.end(), s.input.begin(), s.input.end());
    return s;
  }
};

}  // namespace

TaskInfo task_info_duplicate_string() {
  return {
      .name = "duplicate_string",
      .summary = "Chomsky, context-sensitive: n bits, then 2n slots for the bits twice over (token head)",
      .default_min_len = TransductionTask::kDefaultMinLen,
      .default_max_len = TransductionTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<DuplicateStringTask>(c); },
      .groups = {"chomsky"},
  };
}

}  // namespace ordo
