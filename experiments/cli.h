// experiments/cli.h: command-line parsing for the ordo subcommands.
//
// Every training setting comes from the one table in train/settings.h; a subcommand adds
// its own options (--out, --resume, ...). `--name value` and `--name=value` both work;
// a switch (`--causal`) needs no value. Anything unknown, missing or malformed is an
// ordo::Error naming the flag and what it accepts: main() prints it and exits with 2.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "train/settings.h"

namespace ordo::cli {

struct Option {
  std::string name;   // without "--"
  std::string help;
  std::string fallback;  // default value shown by --help ("" = none)
  bool is_switch = false;
};

struct Parsed {
  TrainConfig config;                        // defaults overwritten by the given settings
  std::map<std::string, std::string> given;  // every flag that appeared, by name
  std::map<std::string, std::string> options;  // the subcommand's own options (defaults filled)
  std::vector<std::string> positional;
  bool help = false;
  bool has(const std::string& name) const { return given.count(name) > 0; }
  const std::string& option(const std::string& name) const;
};

// with_settings: whether the training settings table applies to this subcommand.
// `list_settings` names settings that take a comma-separated list here (compare's
// --tasks/--encodings are its own options instead).
// An option named "config" (if the subcommand declares one) reads settings from a file
// (experiments/config_file.h): the file is applied first, the command line's flags override
// it, and `given` holds both. `command` ("ordo train") is named in the file's errors.
Parsed parse(const std::vector<std::string>& args, const std::vector<Option>& options, bool with_settings,
             size_t max_positional = 0, const std::string& command = "");

// The option `name` as a whole number in [1, max]; errors name the flag.
int64_t positive(const Parsed& p, const std::string& name, int64_t max);

// --help text: usage line, the subcommand's options, then every setting with its default.
std::string help_text(const std::string& usage, const std::string& description,
                      const std::vector<Option>& options, bool with_settings);

}  // namespace ordo::cli
