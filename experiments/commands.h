// experiments/commands.h: the ordo subcommands. Each takes its arguments (after the
// subcommand name) and returns the process exit code: 0 success, 1 a failure while
// running (numerical fault, I/O), 2 bad input (nothing was written).
#pragma once

#include <string>
#include <vector>

namespace ordo {

using Args = std::vector<std::string>;

int cmd_train(const Args& args);
int cmd_compare(const Args& args);
int cmd_analyze(const Args& args);
int cmd_inspect_pe(const Args& args);
int cmd_demo(const Args& args);
int cmd_bench(const Args& args);

// Thrown for bad input before anything is written: main() prints it and exits with 2.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace ordo
