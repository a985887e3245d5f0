// data/repeat_copy.cpp: `repeat_copy` (Huang et al. 2025; docs/spec.md §3.15): n symbols of
// {a, b}, then the same n in the same order.
//
// As their RepeatCopyDataset draws it (random.choices, i.i.d. uniform). Decoder layout
// (data/next_token.h); alphabet {a, b}.
#include "data/next_token.h"

namespace ordo {
namespace {

class RepeatCopyTask final : public NextTokenTask {
 public:
  explicit RepeatCopyTask(const TaskConfig& config) : NextTokenTask(config) {}
  std::string name() const override { return "repeat_copy"; }
  int64_t alphabet() const override { return 2; }
  int64_t answer_length(int64_t n) const override { return n; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    Sample s;
    s.input = uniform_symbols(rng, n, 2);
    s.answer = s.input;
    return s;
  }
};

}  // namespace

TaskInfo task_info_repeat_copy() {
  return {
      .name = "repeat_copy",
      .summary = "Huang et al.: BOS, n symbols of {a, b}, SEP, the same in order, EOS (next token)",
      .default_min_len = NextTokenTask::kDefaultMinLen,
      .default_max_len = NextTokenTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<RepeatCopyTask>(c); },
      .causal_only = true,
      .groups = {"huang"},
  };
}

}  // namespace ordo
