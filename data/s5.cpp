// data/s5.cpp: the `s5` task (docs/spec.md §3.11; Merrill et al. 2024): the word problem of S5,
// the 120 permutations of five items (non-solvable: Merrill et al.'s hard case). n elements,
// and at every position the running product (data/word_problem.h).
#include "data/word_problem.h"

namespace ordo {
namespace {

class S5Task final : public WordProblemTask {
 public:
  explicit S5Task(const TaskConfig& config) : WordProblemTask(config, word_problem::symmetric(5)) {}
  std::string name() const override { return "s5"; }
};

}  // namespace

TaskInfo task_info_s5() {
  return {
      .name = "s5",
      .summary = "state tracking: the permutations of 5 items (120 ids), the running product at every position (token head)",
      .default_min_len = WordProblemTask::kDefaultMinLen,
      .default_max_len = WordProblemTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<S5Task>(c); },
      .groups = {"state"},
  };
}

}  // namespace ordo
