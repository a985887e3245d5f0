// train/settings.h: every setting of a training run, in one table.
//
// The table is the single source of truth for: the command line (`--name value`, and
// `--help`, which lists each setting with its default), the config attributes of HDF5
// logs, and checkpoints (a run resumes only with the same settings). A setting is added
// here once and appears everywhere.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "train/trainer.h"

namespace ordo {

struct Setting {
  const char* name;    // the flag without "--", e.g. "d-model"
  const char* group;   // "task", "model", "training", "evaluation", "runtime"
  const char* help;
  bool is_switch;      // a boolean: `--causal` alone means true; `--causal=false` also works
  bool affects_results;  // stored in logs and checkpoints, compared on resume
  std::function<std::string(const TrainConfig&)> get;
  // Parses and stores; throws ordo::Error "--name expects ..., got '...'" on bad text.
  std::function<void(TrainConfig&, const std::string&)> set;
};

const std::vector<Setting>& settings();
const Setting* find_setting(const std::string& name);  // nullptr when unknown

// Parsing helpers shared with the command line: strict, whole-string, named errors.
int64_t parse_int(const std::string& flag, const std::string& text);
double parse_double(const std::string& flag, const std::string& text);
bool parse_bool(const std::string& flag, const std::string& text);
std::vector<std::string> split_list(const std::string& text);  // "a,b,,c" -> {a, b, c}

}  // namespace ordo
