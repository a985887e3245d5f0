// data/z60.cpp: the `z60` task (docs/spec.md §3.11; Merrill et al. 2024): the word problem of
// Z60, the integers mod 60 under addition (abelian, as large as A5: the easy contrast). n
// elements, and at every position the running product (data/word_problem.h).
#include "data/word_problem.h"

namespace ordo {
namespace {

class Z60Task final : public WordProblemTask {
 public:
  explicit Z60Task(const TaskConfig& config) : WordProblemTask(config, word_problem::cyclic(60)) {}
  std::string name() const override { return "z60"; }
};

}  // namespace

TaskInfo task_info_z60() {
  return {
      .name = "z60",
      .summary = "state tracking: the integers mod 60 (60 ids), the running product at every position (token head)",
      .default_min_len = WordProblemTask::kDefaultMinLen,
      .default_max_len = WordProblemTask::kDefaultMaxLen,
      .options = {},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<Z60Task>(c); },
      .groups = {"state"},
  };
}

}  // namespace ordo
