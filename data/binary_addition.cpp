// data/binary_addition.cpp: the `binary_addition` task (docs/spec.md §3.10; Deletang et al.
// 2023, context-sensitive): `a 2 b`, two numbers in little-endian binary around the separator
// (symbol 2), n symbols in all; n + 1 answer slots hold a + b in little-endian binary without
// zeros at its high end, the end token (class 2), then 0s. The slots up to the end token are
// scored (the authors' accuracy mask). |a| is uniform in [1, n - 2], |b| = n - 1 - |a|, each
// number uniform in [1, 2^width - 1] and written at its width. Lengths 1 and 2 hold one
// number, uniform in [0, 2^n - 2], and its sum is itself (the authors' code).
#include "data/binary_numbers.h"
#include "data/transduction.h"

namespace ordo {
namespace {

class BinaryAdditionTask final : public TransductionTask {
 public:
  explicit BinaryAdditionTask(const TaskConfig& config) : TransductionTask(config) {}
  std::string name() const override { return "binary_addition"; }
  int64_t input_alphabet() const override { return 3; }
  int64_t output_alphabet() const override { return 3; }
  int64_t output_length(int64_t n) const override { return n + 1; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    Sample s;
    binary::Bits result;
    if (n <= 2) {
      const int64_t v = rng.uniform_int(0, (int64_t{1} << n) - 2);
      for (int64_t i = 0; i < n; ++i) s.input.push_back(static_cast<int32_t>((v >> i) & 1));
      result = binary::trimmed(s.input);
    } else {
      const binary::Operands o = binary::draw_operands(rng, n);
      s.input = o.input;
      result = binary::add(o.a, o.b);
    }
    if (result.empty()) result = {0};  // zero is written "0"
    s.output = result;
    end_answer(s, 2, n + 1);
    return s;
  }
};

}  // namespace

TaskInfo task_info_binary_addition() {
  return {
      .name = "binary_addition",
      .summary = "Chomsky, context-sensitive: a+b in little-endian binary, then n+1 slots for the sum and an end token (token head)",
      .default_min_len = TransductionTask::kDefaultMinLen,
      .default_max_len = TransductionTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<BinaryAdditionTask>(c); },
      .groups = {"chomsky"},
  };
}

}  // namespace ordo
