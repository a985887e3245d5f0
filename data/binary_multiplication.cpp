// data/binary_multiplication.cpp: the `binary_multiplication` task (docs/spec.md §3.10;
// Deletang et al. 2023, context-sensitive): `a 2 b` drawn as for binary_addition; n answer
// slots hold a b in little-endian binary without zeros at its high end (at most n - 1 bits),
// the end token (class 2), then 0s, scored up to the end token. Lengths 1 and 2 hold one
// number, uniform in [0, 2^n - 2], and the answer n - 1 zeros and the end token (the
// authors' code).
#include "data/binary_numbers.h"
#include "data/transduction.h"

namespace ordo {
namespace {

class BinaryMultiplicationTask final : public TransductionTask {
 public:
  explicit BinaryMultiplicationTask(const TaskConfig& config) : TransductionTask(config) {}
  std::string name() const override { return "binary_multiplication"; }
  int64_t input_alphabet() const override { return 3; }
  int64_t output_alphabet() const override { return 3; }
  int64_t output_length(int64_t n) const override { return n; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    Sample s;
    if (n <= 2) {
      const int64_t v = rng.uniform_int(0, (int64_t{1} << n) - 2);
      for (int64_t i = 0; i < n; ++i) s.input.push_back(static_cast<int32_t>((v >> i) & 1));
      s.output.assign(n - 1, 0);
    } else {
      const binary::Operands o = binary::draw_operands(rng, n);
      s.input = o.input;
      s.output = binary::multiply(o.a, o.b);
    }
    end_answer(s, 2, n);
    return s;
  }
};

}  // namespace

TaskInfo task_info_binary_multiplication() {
  return {
      .name = "binary_multiplication",
      .summary = "Chomsky, context-sensitive: a*b in little-endian binary, then n slots for the product and an end token (token head)",
      .default_min_len = TransductionTask::kDefaultMinLen,
      .default_max_len = TransductionTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<BinaryMultiplicationTask>(c); },
      .groups = {"chomsky"},
  };
}

}  // namespace ordo
