// data/missing_duplicate.cpp: the `missing_duplicate` task (docs/spec.md §3.10; Deletang et al.
// 2023's missing_duplicate_string, context-sensitive): floor(n/2) bits i.i.d. uniform, written
// twice, one of the 2 floor(n/2) places (uniform) replaced by the mask (symbol 2), and an odd
// n padded with symbol 3 at the end; one answer slot, class = the masked bit. Length 1 has no
// string to duplicate: the input is symbol 1 and the class 1 (the authors' placeholder).
#include "data/transduction.h"

namespace ordo {
namespace {

class MissingDuplicateTask final : public TransductionTask {
 public:
  explicit MissingDuplicateTask(const TaskConfig& config) : TransductionTask(config) {}
  std::string name() const override { return "missing_duplicate"; }
  int64_t input_alphabet() const override { return 4; }
  int64_t output_alphabet() const override { return 2; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    Sample s;
    if (n == 1) {
      s.input = {1};
      s.output = {1};
      return s;
    }
    const std::vector<int32_t> half = uniform_symbols(rng, n / 2, 2);
    s.input = half;
    s.input.insert(s.input.end(), half.begin(), half.end());
    const int64_t masked = rng.uniform_int(0, 2 * (n / 2) - 1);
    s.output = {s.input[masked]};
    s.input[masked] = 2;
    if (n % 2 == 1) s.input.push_back(3);
    return s;
  }
};

}  // namespace

TaskInfo task_info_missing_duplicate() {
  return {
      .name = "missing_duplicate",
      .summary = "Chomsky, context-sensitive: a bit string twice with one bit masked, then one slot for that bit (token head)",
      .default_min_len = TransductionTask::kDefaultMinLen,
      .default_max_len = TransductionTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<MissingDuplicateTask>(c); },
      .groups = {"chomsky"},
  };
}

}  // namespace ordo
