// data/solve_equation.cpp: the `solve_equation` task (docs/spec.md §3.10; Deletang et al.
// 2023, context-free): a bracketed expression of n - 2 symbols over digits 0..m-1 and + -
// (no *, so the solution is unique; data/modular_expressions.h), one of its digits replaced
// by x, then `= v` with v its value; one answer slot, class = the replaced digit. The digit
// is found as the authors' code finds it: a place uniform over the expression, then forward
// (cyclically) to the next digit. Lengths 1 and 2 hold n zeros and class 0 (their placeholder).
//
// Symbols: digits 0..m-1, + m, - m+1, ( m+2, ) m+3, x m+4, = m+5.
#include "data/modular_expressions.h"
#include "data/transduction.h"

namespace ordo {
namespace {

class SolveEquationTask final : public TransductionTask {
 public:
  explicit SolveEquationTask(const TaskConfig& config) : TransductionTask(config) {
    modulus_ = config_.options.integer("modulus");  // >= 2, checked with the option
  }
  std::string name() const override { return "solve_equation"; }
  int64_t input_alphabet() const override { return modulus_ + 6; }
  int64_t output_alphabet() const override { return modulus_; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    Sample s;
    if (n < 3) {
      s.input.assign(n, 0);
      s.output = {0};
      return s;
    }
    const auto m = static_cast<int32_t>(modulus_);
    modular::Expression e = modular::bracket_expression(rng, n - 2, modulus_, /*mult=*/false);
    for (int32_t& sym : e.symbols)  // no * here: ( and ) move down one place
      if (sym >= m + 3) --sym;
    const auto size = static_cast<int64_t>(e.symbols.size());
    int64_t place = rng.uniform_int(0, size - 1);
    while (e.symbols[place] >= m) place = (place + 1) % size;
    s.output = {e.symbols[place]};
    s.input = e.symbols;
    s.input[place] = m + 4;  // x
    s.input.push_back(m + 5);  // =
    s.input.push_back(static_cast<int32_t>(e.value));
    return s;
  }

 private:
  int64_t modulus_ = 0;
};

}  // namespace

TaskInfo task_info_solve_equation() {
  return {
      .name = "solve_equation",
      .summary = "Chomsky, context-free: a bracketed equation mod m with one unknown digit x, then one slot for x (token head)",
      .default_min_len = TransductionTask::kDefaultMinLen,
      .default_max_len = TransductionTask::kDefaultMaxLen,
      .options = {modular::modulus_option()},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<SolveEquationTask>(c); },
      .groups = {"chomsky"},
  };
}

}  // namespace ordo
