// data/reverse.cpp: the `reverse` task (docs/spec.md §3.4): slot i outputs x_{n+1-i}.
//
// The layout, ids and metrics are the answer-slot family's (data/answer_slots.h): n input
// symbols, SEP, n BLANK answer slots; slot i is scored with the class of y_i.
#include <algorithm>

#include "data/answer_slots.h"

namespace ordo {
namespace {

class ReverseTask final : public AnswerSlotTask {
 public:
  explicit ReverseTask(const TaskConfig& config) : AnswerSlotTask(config, "reverse") {}
  std::string name() const override { return "reverse"; }

 protected:
  void answer(std::vector<int32_t>& symbols) const override { std::reverse(symbols.begin(), symbols.end()); }
};

}  // namespace

TaskInfo task_info_reverse() {
  return {
      .name = "reverse",
      .summary = "output the input symbols reversed after the separator (token head)",
      .default_min_len = AnswerSlotTask::kDefaultMinLen,
      .default_max_len = AnswerSlotTask::kDefaultMaxLen,
      .options = {AnswerSlotTask::symbols_option()},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<ReverseTask>(c); },
      .groups = {"chomsky"},
  };
}

}  // namespace ordo
