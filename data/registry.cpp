// data/registry.cpp: every task, found by name.
//
// To add a task: write data/<name>.cpp defining
//   TaskInfo task_info_<name>();   // name, summary, default lengths, options, factory
// and add ONE line to ORDO_TASKS below (docs/guides/add-task.md walks through it).
#include <set>
#include <string>

#include "data/task.h"

// One line per task, in --help order.
#define ORDO_TASKS    \
  ORDO_TASK(order)    \
  ORDO_TASK(shift)    \
  ORDO_TASK(periodic) \
  ORDO_TASK(copy)     \
  ORDO_TASK(reverse)  \
  ORDO_TASK(sort)     \
  ORDO_TASK(flipflop) \
  ORDO_TASK(recall)   \
  /* end of the list: add new lines above this one */

namespace ordo {

#define ORDO_TASK(name) TaskInfo task_info_##name();
ORDO_TASKS
#undef ORDO_TASK

namespace {

std::vector<TaskInfo> build_table() {
#define ORDO_TASK(name) task_info_##name(),
  std::vector<TaskInfo> table = {ORDO_TASKS};
#undef ORDO_TASK
  std::set<std::string> names;
  for (const TaskInfo& t : table) {
    ORDO_CHECK(names.insert(t.name).second, "task '", t.name, "' is registered twice");
    ORDO_CHECK(t.make != nullptr, "task '", t.name, "' has no factory");
    ORDO_CHECK(t.default_min_len >= 1 && t.default_min_len <= t.default_max_len, "task '", t.name,
               "' has an empty default length range");
  }
  return table;
}

}  // namespace

const std::vector<TaskInfo>& tasks() {
  static const std::vector<TaskInfo> table = build_table();
  return table;
}

Options task_options() {
  static const Options defaults = [] {
    std::vector<OptionSpec> specs;
    for (const TaskInfo& t : tasks()) specs.insert(specs.end(), t.options.begin(), t.options.end());
    return Options(specs);
  }();
  return defaults;
}

const std::vector<std::string>& task_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const TaskInfo& t : tasks()) n.push_back(t.name);
    return n;
  }();
  return names;
}

std::vector<std::string> default_study_tasks() {
  std::vector<std::string> names;
  for (const TaskInfo& t : tasks())
    if (t.in_default_study) names.push_back(t.name);
  return names;
}

std::string task_names_list() {
  std::string known;
  for (const std::string& n : task_names()) known += (known.empty() ? "" : ", ") + n;
  return known;
}

const TaskInfo& task_info(const std::string& name) {
  for (const TaskInfo& t : tasks())
    if (t.name == name) return t;
  fail("unknown task '", name, "'; known tasks: ", task_names_list());
}

std::unique_ptr<Task> make_task(const TaskConfig& config) { return task_info(config.name).make(config); }

}  // namespace ordo
