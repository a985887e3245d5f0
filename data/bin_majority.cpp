// data/bin_majority.cpp: `bin_majority` (Huang et al. 2025; docs/spec.md §3.15): n bits with
// a strict majority, then the majority bit.
//
// As their BinaryMajorityDataset draws it: the count of zeros uniform in [0, n], drawn again
// on a tie (so an even n never has n/2 of each), the bits shuffled. Decoder layout
// (data/next_token.h); alphabet {0, 1}.
#include "data/next_token.h"

namespace ordo {
namespace {

class BinMajorityTask final : public NextTokenTask {
 public:
  explicit BinMajorityTask(const TaskConfig& config) : NextTokenTask(config) {}
  std::string name() const override { return "bin_majority"; }
  int64_t alphabet() const override { return 2; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    int64_t zeros = 0;
    do zeros = rng.uniform_int(0, n);
    while (2 * zeros == n);
    Sample s;
    s.input.assign(static_cast<size_t>(zeros), 0);
    s.input.resize(static_cast<size_t>(n), 1);
    shuffle(rng, s.input);
    s.answer = {2 * zeros > n ? 0 : 1};
    return s;
  }
};

}  // namespace

TaskInfo task_info_bin_majority() {
  return {
      .name = "bin_majority",
      .summary = "Huang et al.: BOS, n bits with a strict majority, SEP, the majority bit, EOS (next token)",
      .default_min_len = NextTokenTask::kDefaultMinLen,
      .default_max_len = NextTokenTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<BinMajorityTask>(c); },
      .causal_only = true,
      .groups = {"huang"},
  };
}

}  // namespace ordo
