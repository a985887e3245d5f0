// data/a5.cpp: the `a5` task (docs/spec.md §3.11; Merrill et al. 2024): the word problem of A5,
// the 60 even permutations of five items (the smallest non-solvable group). n elements, and at
// every position the running product (data/word_problem.h).
#include "data/word_problem.h"

namespace ordo {
namespace {

class A5Task final : public WordProblemTask {
 public:
  explicit A5Task(const TaskConfig& config) : WordProblemTask(config, word_problem::alternating(5)) {}
  std::string name() const override { return "a5"; }
};

}  // namespace

TaskInfo task_info_a5() {
  return {
      .name = "a5",
      .summary = "state tracking: the even permutations of 5 items (60 ids), the running product at every position (token head)",
      .default_min_len = WordProblemTask::kDefaultMinLen,
      .default_max_len = WordProblemTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<A5Task>(c); },
      .groups = {"state"},
  };
}

}  // namespace ordo
