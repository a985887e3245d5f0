// data/modular_arithmetic.cpp: the `modular_arithmetic` task (docs/spec.md §3.10; Deletang
// et al. 2023, regular): an expression d o d o .. d of digits 0..m-1 (m = --modulus, 5 as in
// the paper) and operators + - * (uniform), evaluated mod m with * before + and -; one answer
// slot, class = the value. An expression has an odd number of symbols, so an even length n
// gives n - 1 of them (as the paper's generator does).
//
// Symbols: the digits 0..m-1, then + (m), - (m + 1), * (m + 2).
#include "data/modular_expressions.h"
#include "data/transduction.h"

namespace ordo {
namespace {

class ModularArithmeticTask final : public TransductionTask {
 public:
  explicit ModularArithmeticTask(const TaskConfig& config) : TransductionTask(config) {
    modulus_ = config_.options.integer("modulus");  // >= 2, checked with the option
  }
  std::string name() const override { return "modular_arithmetic"; }
  int64_t input_alphabet() const override { return modulus_ + 3; }
  int64_t output_alphabet() const override { return modulus_; }
  int64_t input_length(int64_t n) const override { return n % 2 == 1 ? n : n - 1; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    const int64_t m = input_length(n);
    Sample s;
    s.input.resize(m);
    for (int64_t i = 0; i < m; ++i)
      s.input[i] = static_cast<int32_t>(i % 2 == 0 ? rng.uniform_int(0, modulus_ - 1) : modulus_ + rng.uniform_int(0, 2));
    // A sum of products: `term` is the running product, `sign` the sign before it.
    int64_t sum = 0, term = s.input[0], sign = 1;
    for (int64_t i = 1; i < m; i += 2) {
      const int64_t op = s.input[i] - modulus_, digit = s.input[i + 1];
      if (op == 2) {
        term = term * digit % modulus_;
      } else {
        sum = (sum + sign * term) % modulus_;
        sign = op == 0 ? 1 : -1;
        term = digit;
      }
    }
    sum = ((sum + sign * term) % modulus_ + modulus_) % modulus_;
    s.output = {static_cast<int32_t>(sum)};
    return s;
  }

 private:
  int64_t modulus_ = 0;
};

}  // namespace

TaskInfo task_info_modular_arithmetic() {
  return {
      .name = "modular_arithmetic",
      .summary = "Chomsky, regular: an expression d o d .. d of + - * mod m, then one slot for its value (token head)",
      .default_min_len = TransductionTask::kDefaultMinLen,
      .default_max_len = TransductionTask::kDefaultMaxLen,
      .options = {modular::modulus_option()},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<ModularArithmeticTask>(c); },
      .groups = {"chomsky"},
  };
}

}  // namespace ordo
