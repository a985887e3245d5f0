// data/unique_copy.cpp: `unique_copy` (Huang et al. 2025; docs/spec.md §3.15): n distinct
// symbols of 150, then the same n in the same order.
//
// As their UniqueCopyDataset draws it (random.sample of range(150)). Decoder layout
// (data/next_token.h); alphabet 0..149, so n is at most 150.
#include "data/next_token.h"

namespace ordo {
namespace {

class UniqueCopyTask final : public NextTokenTask {
 public:
  static constexpr int64_t kPool = 150;
  explicit UniqueCopyTask(const TaskConfig& config) : NextTokenTask(config) {}
  std::string name() const override { return "unique_copy"; }
  int64_t alphabet() const override { return kPool; }
  int64_t max_valid_len() const override { return kPool; }
  int64_t answer_length(int64_t n) const override { return n; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    Sample s;
    s.input = distinct_symbols(rng, n, kPool);
    s.answer = s.input;
    return s;
  }
};

}  // namespace

TaskInfo task_info_unique_copy() {
  return {
      .name = "unique_copy",
      .summary = "Huang et al.: BOS, n distinct symbols of 150, SEP, the same in order, EOS (next token)",
      .default_min_len = NextTokenTask::kDefaultMinLen,
      .default_max_len = NextTokenTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<UniqueCopyTask>(c); },
      .causal_only = true,
      .groups = {"huang"},
  };
}

}  // namespace ordo
