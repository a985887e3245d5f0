// data/compute_sqrt.cpp: the `compute_sqrt` task (docs/spec.md §3.10; Deletang et al. 2023,
// context-sensitive): a number uniform in [1, 2^n - 1] in big-endian binary, n bits; ceil(n/2)
// answer slots hold floor(sqrt(x)) in big-endian binary, zero-padded to that width.
#include <algorithm>

#include "data/binary_numbers.h"
#include "data/transduction.h"

namespace ordo {
namespace {

class ComputeSqrtTask final : public TransductionTask {
 public:
  explicit ComputeSqrtTask(const TaskConfig& config) : TransductionTask(config) {}
  std::string name() const override { return "compute_sqrt"; }
  int64_t input_alphabet() const override { return 2; }
  int64_t output_alphabet() const override { return 2; }
  int64_t output_length(int64_t n) const override { return (n + 1) / 2; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    const binary::Bits x = binary::uniform_nonzero(rng, n);  // little-endian
    Sample s;
    s.input.assign(x.rbegin(), x.rend());
    const binary::Bits root = binary::padded(binary::isqrt(x), output_length(n));
    s.output.assign(root.rbegin(), root.rend());
    return s;
  }
};

}  // namespace

TaskInfo task_info_compute_sqrt() {
  return {
      .name = "compute_sqrt",
      .summary = "Chomsky, context-sensitive: n bits of x (big-endian), then ceil(n/2) slots for floor(sqrt(x)) (token head)",
      .default_min_len = TransductionTask::kDefaultMinLen,
      .default_max_len = TransductionTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<ComputeSqrtTask>(c); },
      .groups = {"chomsky"},
  };
}

}  // namespace ordo
