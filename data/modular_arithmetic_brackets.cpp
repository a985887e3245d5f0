// data/modular_arithmetic_brackets.cpp: the `modular_arithmetic_brackets` task (docs/spec.md
// §3.10; Deletang et al. 2023, context-free): a bracketed expression of exactly n symbols over
// digits 0..m-1 and + - * (m = --modulus, 5 as in the paper; the grammar is in
// data/modular_expressions.h), one answer slot, class = its value mod m. The paper's setting
// has multiplication (set in the authors' experiment constants).
#include "data/modular_expressions.h"
#include "data/transduction.h"

namespace ordo {
namespace {

class ModularArithmeticBracketsTask final : public TransductionTask {
 public:
  explicit ModularArithmeticBracketsTask(const TaskConfig& config) : TransductionTask(config) {
    modulus_ = config_.options.integer("modulus");  // >= 2, checked with the option
  }
  std::string name() const override { return "modular_arithmetic_brackets"; }
  int64_t input_alphabet() const override { return modulus_ + 5; }
  int64_t output_alphabet() const override { return modulus_; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    const modular::Expression e = modular::bracket_expression(rng, n, modulus_, /*mult=*/true);
    Sample s;
    s.input = e.symbols;
    s.output = {static_cast<int32_t>(e.value)};
    return s;
  }

 private:
  int64_t modulus_ = 0;
};

}  // namespace

TaskInfo task_info_modular_arithmetic_brackets() {
  return {
      .name = "modular_arithmetic_brackets",
      .summary = "Chomsky, context-free: a bracketed expression of + - * mod m, then one slot for its value (token head)",
      .default_min_len = TransductionTask::kDefaultMinLen,
      .default_max_len = TransductionTask::kDefaultMaxLen,
      .options = {modular::modulus_option()},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> {
        return std::make_unique<ModularArithmeticBracketsTask>(c);
      },
      .groups = {"chomsky"},
  };
}

}  // namespace ordo
