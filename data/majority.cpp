// data/majority.cpp: `majority` (Huang et al. 2025; docs/spec.md §3.15): n letters of 26
// with one strictly commonest, then that letter.
//
// As their MajorityDataset draws it: n letters i.i.d. uniform, drawn again (all n) until the
// commonest count is above the second's. Decoder layout (data/next_token.h); alphabet a..z.
#include "data/next_token.h"

namespace ordo {
namespace {

class MajorityTask final : public NextTokenTask {
 public:
  static constexpr int64_t kLetters = 26;
  explicit MajorityTask(const TaskConfig& config) : NextTokenTask(config) {}
  std::string name() const override { return "majority"; }
  int64_t alphabet() const override { return kLetters; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    Sample s;
    for (;;) {
      s.input = uniform_symbols(rng, n, kLetters);
      std::vector<int64_t> count(kLetters, 0);
      for (int32_t x : s.input) ++count[static_cast<size_t>(x)];
      const auto top = std::max_element(count.begin(), count.end());
      const bool unique = std::count(count.begin(), count.end(), *top) == 1;
      if (unique) {
        s.answer = {static_cast<int32_t>(top - count.begin())};
        return s;
      }
    }
  }
};

}  // namespace

TaskInfo task_info_majority() {
  return {
      .name = "majority",
      .summary = "Huang et al.: BOS, n letters of 26 with one commonest, SEP, that letter, EOS (next token)",
      .default_min_len = NextTokenTask::kDefaultMinLen,
      .default_max_len = NextTokenTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<MajorityTask>(c); },
      .causal_only = true,
      .groups = {"huang"},
  };
}

}  // namespace ordo
