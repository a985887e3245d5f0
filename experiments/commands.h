// experiments/commands.h: the ordo subcommands, found by name.
//
// A subcommand is one file in experiments/ defining
//   CommandInfo command_info_<name>();   // name, one-line summary, entry point
// plus one line in experiments/commands.cpp (docs/guides/add-subcommand.md walks through
// it). The entry point takes the arguments after the subcommand's name and returns the exit
// code: 0 success, 1 a failure while running (numerical fault, I/O), 2 bad input (nothing
// was written; throw InputError).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace ordo {

using Args = std::vector<std::string>;

struct CommandInfo {
  std::string name;     // what follows `ordo`, e.g. "inspect-pe"
  std::string summary;  // one line for `ordo --help`
  int (*run)(const Args& args);
  bool runs_over_mpi = false;  // mpirun / srun may start it on many ranks (cluster/cluster.h)
};

// Every subcommand, in `ordo --help` order.
const std::vector<CommandInfo>& commands();
// nullptr when no subcommand has that name.
const CommandInfo* find_command(const std::string& name);
// "train, compare, ...": the names, in `ordo --help` order.
std::string command_names();

// Thrown for bad input before anything is written: main() prints it and exits with 2.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace ordo
