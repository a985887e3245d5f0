// data/lm_parity.cpp: `lm_parity` (Huang et al. 2025's `parity`; docs/spec.md §3.15): n bits,
// then e if their count of ones is even, o if odd.
//
// As their ParityDataset draws it: the count of ones uniform in [0, n], the bits shuffled (so
// the count, not each bit, is uniform). Named apart from ordo's `parity` (Deletang et al.'s, in
// the answer-slot layout with i.i.d. bits). Their training range starts at n = 0; ordo's
// lengths start at 1 (docs/spec.md §3.15 says why that is kept). Decoder layout
// (data/next_token.h); alphabet {0, 1, e, o}, answers from {e, o}.
#include "data/next_token.h"

namespace ordo {
namespace {

class LmParityTask final : public NextTokenTask {
 public:
  static constexpr int32_t kEven = 2, kOdd = 3;  // symbols 0, 1, e, o
  explicit LmParityTask(const TaskConfig& config) : NextTokenTask(config) {}
  std::string name() const override { return "lm_parity"; }
  int64_t alphabet() const override { return 4; }
  int64_t answer_alphabet() const override { return 2; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    const int64_t ones = rng.uniform_int(0, n);
    Sample s;
    s.input.assign(static_cast<size_t>(ones), 1);
    s.input.resize(static_cast<size_t>(n), 0);
    shuffle(rng, s.input);
    s.answer = {ones % 2 == 0 ? kEven : kOdd};
    return s;
  }
};

}  // namespace

TaskInfo task_info_lm_parity() {
  return {
      .name = "lm_parity",
      .summary = "Huang et al.'s parity: BOS, n bits, SEP, e (even ones) or o, EOS (next token)",
      .default_min_len = NextTokenTask::kDefaultMinLen,
      .default_max_len = NextTokenTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<LmParityTask>(c); },
      .causal_only = true,
      .groups = {"huang"},
  };
}

}  // namespace ordo
