// data/sort.cpp: the `sort` task (docs/spec.md §3.4): the slots hold the input sorted ascending (repeats kept).
//
// The layout, ids and metrics are the answer-slot family's (data/answer_slots.h): n input
// symbols, SEP, n BLANK answer slots; slot i is scored with the class of y_i.
#include <algorithm>

#include "data/answer_slots.h"

namespace ordo {
namespace {

class SortTask final : public AnswerSlotTask {
 public:
  explicit SortTask(const TaskConfig& config) : AnswerSlotTask(config, "sort") {}
  std::string name() const override { return "sort"; }

 protected:
  void answer(std::vector<int32_t>& symbols) const override { std::sort(symbols.begin(), symbols.end()); }
};

}  // namespace

TaskInfo task_info_sort() {
  return {
      .name = "sort",
      .summary = "output the input symbols sorted after the separator (token head)",
      .default_min_len = AnswerSlotTask::kDefaultMinLen,
      .default_max_len = AnswerSlotTask::kDefaultMaxLen,
      .options = {AnswerSlotTask::symbols_option()},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<SortTask>(c); },
      .groups = {"chomsky"},
  };
}

}  // namespace ordo
