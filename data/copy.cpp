// data/copy.cpp: the `copy` task (docs/spec.md §3.4): slot i outputs x_i.
//
// The layout, ids and metrics are the answer-slot family's (data/answer_slots.h): n input
// symbols, SEP, n BLANK answer slots; slot i is scored with the class of y_i.
#include "data/answer_slots.h"

namespace ordo {
namespace {

class CopyTask final : public AnswerSlotTask {
 public:
  explicit CopyTask(const TaskConfig& config) : AnswerSlotTask(config, "copy") {}
  std::string name() const override { return "copy"; }

 protected:
  void answer(std::vector<int32_t>& /*symbols*/) const override {}  // y = x: slot i outputs x_i
};

}  // namespace

TaskInfo task_info_copy() {
  return {
      .name = "copy",
      .summary = "output the input symbols in order after the separator (token head)",
      .default_min_len = AnswerSlotTask::kDefaultMinLen,
      .default_max_len = AnswerSlotTask::kDefaultMaxLen,
      .options = {AnswerSlotTask::symbols_option()},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<CopyTask>(c); },
  };
}

}  // namespace ordo
