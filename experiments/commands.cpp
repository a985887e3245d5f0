// experiments/commands.cpp: every subcommand of `ordo`, found by name.
//
// To add a subcommand: write experiments/<name>_command.cpp defining
//   CommandInfo command_info_<name>();
// and add ONE line to ORDO_COMMANDS below (docs/guides/add-subcommand.md walks through it).
#include "experiments/commands.h"

#include "core/registry.h"

// One line per subcommand, in `ordo --help` order (a '-' in a name is '_' here).
#define ORDO_COMMANDS      \
  ORDO_COMMAND(train)      \
  ORDO_COMMAND(compare)    \
  ORDO_COMMAND(report)     \
  ORDO_COMMAND(export)     \
  ORDO_COMMAND(upgrade)    \
  ORDO_COMMAND(analyze)    \
  ORDO_COMMAND(evaluate)   \
  ORDO_COMMAND(inspect_pe) \
  ORDO_COMMAND(demo)       \
  ORDO_COMMAND(bench)      \
  /* end of the list: add new lines above this one */

namespace ordo {

#define ORDO_COMMAND(name) CommandInfo command_info_##name();
ORDO_COMMANDS
#undef ORDO_COMMAND

namespace {

const Registry<CommandInfo>& registry() {
#define ORDO_COMMAND(name) command_info_##name(),
  static const Registry<CommandInfo> table("command", {ORDO_COMMANDS});
#undef ORDO_COMMAND
  return table;
}

}  // namespace

const std::vector<CommandInfo>& commands() { return registry().all(); }

const CommandInfo* find_command(const std::string& name) { return registry().find(name); }

std::string command_names() { return registry().names(); }

}  // namespace ordo
