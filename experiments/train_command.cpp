// experiments/train_command.cpp: `ordo train`, one model on one task.
//
// Flags to a RunDirectory (study/run_directory.h: run.h5 and checkpoint.h5 in --out, resume
// and replace), and the progress line.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <sstream>

#include "cluster/cluster.h"
#include "experiments/cli.h"
#include "experiments/commands.h"
#include "cluster/shared_cores.h"
#include "experiments/progress.h"
#include "report/summary.h"
#include "study/interrupt.h"
#include "study/run_directory.h"
#include "train/memory.h"
#include "train/settings.h"

namespace ordo {

namespace {

const std::vector<cli::Option>& train_options() {
  static const std::vector<cli::Option> opts = {
      {"out", "output directory (run.h5, checkpoint.h5)", "runs/<task>-<encoding>-seed<seed>", false},
      {"resume", "continue the run in --out from its checkpoint.h5", "", true},
      {"force", "replace a finished or partial run already in --out", "", true},
      {"ckpt-every", "also write checkpoint.h5 every N steps (0 = off)", "0", false},
      {"ckpt-minutes", "and after every N minutes of training, so a hard kill loses at most that (0 = off)", "5",
       false},
      {"quiet", "print nothing but errors", "", true},
      {"config", "read settings from FILE: `key = value` lines, keys named as the flags without --, "
                 "# comments; flags given here override it", "", false},
  };
  return opts;
}

}  // namespace

int cmd_train(const Args& args) {
  cli::Parsed p;
  std::unique_ptr<RunDirectory> run;
  std::string out_dir;
  try {
    p = cli::parse(args, train_options(), true, 0, "ordo train");
    if (p.help) {
      std::printf("%s", cli::help_text("ordo train [flags]",
                                       "Trains one encoder on one synthetic task, evaluating on the training "
                                       "lengths and on longer ones.",
                                       train_options(), true).c_str());
      return 0;
    }
    const bool resume = p.option("resume") == "true", force = p.option("force") == "true";
    ORDO_CHECK(!resume || !force,
               "--resume and --force contradict each other: --resume continues the run in --out, --force "
               "replaces it; pass one");
    RunDirectoryOptions how;
    how.ckpt_every = parse_int("ckpt-every", p.option("ckpt-every"));
    how.ckpt_minutes = parse_double("ckpt-minutes", p.option("ckpt-minutes"));
    out_dir = p.has("out") ? p.option("out")
                           : "runs/" + p.config.task.name + "-" + encoding_label(p.config.model) + "-seed" +
                                 std::to_string(p.config.seed);
    how.out = out_dir;
    how.existing = resume ? ExistingOutput::Resume : force ? ExistingOutput::Replace : ExistingOutput::Refuse;
    run = std::make_unique<RunDirectory>(p.config, p.given, how);
  } catch (const Error& e) {
    throw InputError(e.what());
  }

  install_interrupt_handlers();  // Ctrl-C / SIGTERM: finish the step, checkpoint, exit 130 / 143
  Trainer& trainer = run->trainer();
  const TrainConfig& cfg = trainer.config();
  const bool quiet = p.option("quiet") == "true" || cluster().rank() != 0;  // rank 0 speaks for an MPI job
  Progress progress(quiet, 100);
  if (!quiet)
    progress.message("ordo train: task " + cfg.task.name + ", encoding " + encoding_label(cfg.model) + ", " +
                     std::to_string(cfg.steps) + " steps -> " + out_dir +
                     (cluster().distributed() ? ", data-parallel over " + std::to_string(cluster().size()) +
                                                    " MPI ranks (" + std::to_string(cfg.micro_batches) + " micro-batches)"
                                              : "") +
                     (run->resumed() ? " (resumed at step " + std::to_string(trainer.step()) + ")" : "") +
                     "; memory: about " + format_bytes(static_cast<double>(estimate_memory(cfg, trainer.task()).total())) +
                     " of " + format_bytes(static_cast<double>(available_memory())) + " available");
  // An evaluation that takes more than a few seconds (long --eval-lens) shows its batches.
  trainer.set_eval_observer([&](int64_t length, int64_t done, int64_t batches, double seconds) {
    if (seconds < 3) return;
    progress.update(done, batches,
                    "evaluating at step " + std::to_string(trainer.step()) + ", " +
                        (length == 0 ? std::string("training lengths") : "length " + std::to_string(length)),
                    seconds);
  });
  const int64_t first_step = trainer.step();  // s.seconds counts from here (a resume's start)
  int sharing_processes = 1;  // a line of its own whenever other ordo processes come or go
  try {
    run->train([&](const StepInfo& s) {
      char text[320];
      const CoreShare share = shared_cores();
      if (share.processes != sharing_processes) {
        progress.message(describe(share));
        sharing_processes = share.processes;
      }
      std::snprintf(text, sizeof text, "loss %.4f  %s %.1f steps/s", s.loss, eval_summary(*s.log).c_str(),
                    static_cast<double>(s.step + 1 - first_step) / std::max(1e-9, s.seconds));
      progress.update(s.step + 1, s.total, text, s.seconds);
    });
  } catch (const Interrupted&) {  // every rank stopped at the same step
    progress.finish("");
    throw;
  } catch (const std::exception& e) {
    progress.finish("");
    // The ranks train in step: one that fails leaves the others waiting for its gradients.
    if (cluster().distributed()) {
      std::fprintf(stderr, "ordo train (rank %d on %s): error: %s\n", cluster().rank(), cluster().host().c_str(), e.what());
      cluster().abort(1);
    }
    throw;
  }
  progress.finish("done in " + format_duration(trainer.log().total_wall_seconds) + ": " + eval_summary(trainer.log()) +
                  "\n  " + run->run_path() + "\n  " + run->checkpoint_path());
  return 0;
}

CommandInfo command_info_train() {
  return {"train", "train one model on one task and log its curves (HDF5)", cmd_train, true};
}

}  // namespace ordo
