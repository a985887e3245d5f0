// data/registry.cpp: every task, found by name.
//
// To add a task: write data/<name>.cpp defining
//   TaskInfo task_info_<name>();   // name, summary, default lengths, options, factory
// and add ONE line to ORDO_TASKS below (docs/guides/add-task.md walks through it).
#include <algorithm>
#include <string>

#include "core/registry.h"
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
  ORDO_TASK(even_pairs) \
  ORDO_TASK(parity)     \
  ORDO_TASK(cycle_navigation) \
  ORDO_TASK(modular_arithmetic) \
  ORDO_TASK(stack_manipulation) \
  ORDO_TASK(modular_arithmetic_brackets) \
  ORDO_TASK(solve_equation) \
  ORDO_TASK(duplicate_string) \
  ORDO_TASK(missing_duplicate) \
  ORDO_TASK(odds_first) \
  ORDO_TASK(binary_addition) \
  ORDO_TASK(binary_multiplication) \
  ORDO_TASK(compute_sqrt) \
  ORDO_TASK(s5) \
  ORDO_TASK(a5) \
  ORDO_TASK(z60) \
  ORDO_TASK(counting) \
  ORDO_TASK(mqar) \
  ORDO_TASK(passkey) \
  ORDO_TASK(bin_majority) \
  ORDO_TASK(majority) \
  ORDO_TASK(unique_copy) \
  ORDO_TASK(repeat_copy) \
  ORDO_TASK(unique_sort) \
  ORDO_TASK(lm_parity) \
  /* end of the list: add new lines above this one */

namespace ordo {

#define ORDO_TASK(name) TaskInfo task_info_##name();
ORDO_TASKS
#undef ORDO_TASK

namespace {

// What an entry must hold beyond a unique name (core/registry.h checks that).
void check_entry(const TaskInfo& t) {
  ORDO_CHECK(t.make != nullptr, "task '", t.name, "' has no factory");
  ORDO_CHECK(t.default_min_len >= 1 && t.default_min_len <= t.default_max_len, "task '", t.name,
             "' has an empty default length range");
}

const Registry<TaskInfo>& registry() {
  // Pass 2: the table, in the order listed.
#define ORDO_TASK(name) task_info_##name(),
  static const Registry<TaskInfo> table("task", {ORDO_TASKS}, "known tasks", check_entry);
#undef ORDO_TASK
  return table;
}

}  // namespace

const std::vector<TaskInfo>& tasks() { return registry().all(); }

Options task_options() {
  static const Options defaults = registry().merged_options();
  return defaults;
}

const std::vector<std::string>& task_names() {
  static const std::vector<std::string> names = registry().name_list();
  return names;
}

std::vector<std::string> default_study_tasks() {
  std::vector<std::string> names;
  for (const TaskInfo& t : tasks())
    if (t.in_default_study) names.push_back(t.name);
  return names;
}

std::string task_names_list() { return registry().names(); }

std::vector<std::string> task_groups() {
  std::vector<std::string> groups;
  for (const TaskInfo& t : tasks())
    for (const std::string& g : t.groups)
      if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
  return groups;
}

std::vector<std::string> expand_task_groups(const std::vector<std::string>& names) {
  const std::vector<std::string> groups = task_groups();
  std::vector<std::string> out;
  for (const std::string& name : names) {
    if (std::find(groups.begin(), groups.end(), name) == groups.end()) {
      out.push_back(name);
      continue;
    }
    for (const TaskInfo& t : tasks())
      if (std::find(t.groups.begin(), t.groups.end(), name) != t.groups.end()) out.push_back(t.name);
  }
  return out;
}

const TaskInfo& task_info(const std::string& name) { return registry().at(name); }

std::unique_ptr<Task> make_task(const TaskConfig& config) { return task_info(config.name).make(config); }

}  // namespace ordo
