// experiments/main.cpp: `ordo <command> [flags]`, the command-line program.
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "cluster/cluster.h"
#include "core/error.h"
#include "cluster/shared_cores.h"
#include "experiments/commands.h"
#include "study/interrupt.h"
#include "train/version.h"

namespace {

void usage(std::FILE* out) {
  std::fprintf(out, "ordo %s: how does the positional encoding change what a Transformer learns about order?\n\n",
               ordo::version());
  std::fprintf(out, "usage: ordo <command> [flags]   (ordo <command> --help for its flags)\n\ncommands:\n");
  for (const ordo::CommandInfo& c : ordo::commands()) std::fprintf(out, "  %-12s %s\n", c.name.c_str(), c.summary.c_str());
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
  ordo::Cluster& world = ordo::cluster();
  if (const ordo::CommandInfo* c = ordo::find_command(name)) {
    try {
      world.join(&argc, &argv);  // only when mpirun or srun started this process (cluster/cluster.h)
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ordo %s: error: %s\n", c->name.c_str(), e.what());
      return 2;
    }
    // Other ranks say nothing their rank 0 says too; what is theirs alone names the rank.
    const bool rank0 = world.rank() == 0;
    const std::string who = rank0 ? c->name : c->name + " (rank " + std::to_string(world.rank()) + " on " + world.host() + ")";
    const int code = [&]() {
      if (world.distributed() && !c->runs_over_mpi) {
        if (rank0)
          std::fprintf(stderr, "ordo %s: error: this command runs in one process; over MPI (mpirun, srun) run "
                               "compare, demo or train\n", c->name.c_str());
        return 2;
      }
      ordo::join_shared_cores();  // other ordo processes on these cores take their share of them
      // Past a file size limit (ulimit -f), a write fails with EFBIG, which ordo reports like a
      // full disk, instead of the process being killed in the middle of it.
      std::signal(SIGXFSZ, SIG_IGN);
      try {
        return c->run(args);
      } catch (const ordo::PeerFailure&) {  // another rank failed and said why
        return 1;
      } catch (const ordo::Interrupted& e) {  // everything saved: say how to continue
        if (rank0) std::fprintf(stderr, "ordo %s: stopped by %s\n", c->name.c_str(), e.what());
        return 128 + e.signal;
      } catch (const ordo::InputError& e) {
        if (rank0) std::fprintf(stderr, "ordo %s: error: %s\n", c->name.c_str(), e.what());
        return 2;
      } catch (const std::exception& e) {
        std::fprintf(stderr, "ordo %s: error: %s\n", who.c_str(), e.what());
        return 1;
      }
    }();
    world.leave();
    return code;
  }
  std::fprintf(stderr, "ordo: error: unknown command '%s'; known: %s\n", name.c_str(), ordo::command_names().c_str());
  return 2;
}
