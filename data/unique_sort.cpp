// data/unique_sort.cpp: `unique_sort` (Huang et al. 2025's `sort`; docs/spec.md §3.15): n
// distinct symbols of 150, then the same n in ascending order.
//
// As their SortDataset draws it (random.sample of range(150), sorted). Named apart from ordo's
// `sort` (data/sort.cpp), whose symbols repeat and whose answer fills BLANK slots. Decoder
// layout (data/next_token.h); alphabet 0..149, so n is at most 150.
#include "data/next_token.h"

namespace ordo {
namespace {

class UniqueSortTask final : public NextTokenTask {
 public:
  static constexpr int64_t kPool = 150;
  explicit UniqueSortTask(const TaskConfig& config) : NextTokenTask(config) {}
  std::string name() const override { return "unique_sort"; }
  int64_t alphabet() const override { return kPool; }
  int64_t max_valid_len() const override { return kPool; }
  int64_t answer_length(int64_t n) const override { return n; }

 protected:
  Sample sample(CounterRng& rng, int64_t n) const override {
    Sample s;
    s.input = distinct_symbols(rng, n, kPool);
    s.answer = s.input;
    std::sort(s.answer.begin(), s.answer.end());
    return s;
  }
};

}  // namespace

TaskInfo task_info_unique_sort() {
  return {
      .name = "unique_sort",
      .summary = "Huang et al.'s sort: BOS, n distinct symbols of 150, SEP, them ascending, EOS (next token)",
      .default_min_len = NextTokenTask::kDefaultMinLen,
      .default_max_len = NextTokenTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<UniqueSortTask>(c); },
      .causal_only = true,
      .groups = {"huang"},
  };
}

}  // namespace ordo
