// experiments/main.cpp: `ordo <command> [flags]`, the command-line program.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "core/error.h"
#include "experiments/commands.h"
#include "train/version.h"

namespace {

struct Command {
  const char* name;
  int (*run)(const ordo::Args&);
  const char* summary;
};

const Command kCommands[] = {
    {"train", ordo::cmd_train, "train one model on one task and log its curves (HDF5)"},
    {"compare", ordo::cmd_compare, "train the task x encoding x seed grid; results.h5, plots, summary.md"},
    {"analyze", ordo::cmd_analyze, "attention maps and statistics (entropy, span, distance) of a checkpoint"},
    {"inspect-pe", ordo::cmd_inspect_pe, "an encoding's position-similarity matrix as a heatmap"},
    {"demo", ordo::cmd_demo, "the default comparison with a small preset, then its summary"},
    {"bench", ordo::cmd_bench, "time training steps on the docs/spec.md §8 configurations"},
};

void usage(std::FILE* out) {
  std::fprintf(out, "ordo %s: how does the positional encoding change what a Transformer learns about order?\n\n",
               ordo::version());
  std::fprintf(out, "usage: ordo <command> [flags]   (ordo <command> --help for its flags)\n\ncommands:\n");
  for (const Command& c : kCommands) std::fprintf(out, "  %-12s %s\n", c.name, c.summary);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (!std::strcmp(argv[1], "--version")) {
    std::printf("ordo %s\n", ordo::version());
    return 0;
  }
  const std::string name = argv[1];
  ordo::Args args(argv + 2, argv + argc);
  for (const Command& c : kCommands) {
    if (name != c.name) continue;
    try {
      return c.run(args);
    } catch (const ordo::InputError& e) {
      std::fprintf(stderr, "ordo %s: error: %s\n", c.name, e.what());
      return 2;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ordo %s: error: %s\n", c.name, e.what());
      return 1;
    }
  }
  std::string known;
  for (const Command& c : kCommands) known += (known.empty() ? "" : ", ") + std::string(c.name);
  std::fprintf(stderr, "ordo: error: unknown command '%s'; known: %s\n", name.c_str(), known.c_str());
  return 2;
}
