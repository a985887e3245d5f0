// train/settings.h: every setting of a training run, in one table.
//
// The table is the single source of truth for: the command line (`--name value`, and
// `--help`, which lists each setting with its default), the config attributes of HDF5
// logs, and checkpoints (a run resumes only with the same settings). A setting is added
// here once and appears everywhere. The options a task or an encoding declares
// (TaskInfo::options, EncodingInfo::options) join the table by themselves.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/options.h"  // parse_int, parse_double, parse_bool, split_list
#include "train/config.h"

namespace ordo {

struct Setting {
  std::string name;    // the flag without "--", e.g. "d-model"
  std::string group;   // "task", "model", "training", "evaluation", "runtime"
  std::string help;
  bool is_switch;      // a boolean: `--causal` alone means true; `--causal=false` also works
  bool affects_results;  // stored in logs and checkpoints, compared on resume
  std::function<std::string(const TrainConfig&)> get;
  // Parses and stores; throws ordo::Error "--name expects ..., got '...'" on bad text.
  std::function<void(TrainConfig&, const std::string&)> set;
};

const std::vector<Setting>& settings();
const Setting* find_setting(const std::string& name);  // nullptr when unknown

// Checks every setting; throws ordo::Error naming the setting and the accepted values.
void validate(const TrainConfig& cfg);
// The settings as text (for HDF5 attributes and checkpoints), and back.
std::map<std::string, std::string> to_settings(const TrainConfig& cfg);
TrainConfig from_settings(const std::map<std::string, std::string>& settings);

}  // namespace ordo
