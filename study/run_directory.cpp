// study/run_directory.cpp: see study/run_directory.h.
#include "study/run_directory.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include <omp.h>

#include "cluster/cluster.h"
#include "core/parallel.h"
#include "cluster/shared_cores.h"
#include "io/checkpoint_file.h"
#include "io/results.h"
#include "layers/model.h"
#include "study/interrupt.h"
#include "train/settings.h"

namespace ordo {
namespace fs = std::filesystem;

namespace {

// `out` must be a directory, or creatable as one: its nearest existing ancestor is a directory.
void check_output_directory(const std::string& out_dir) {
  ORDO_CHECK(!out_dir.empty(), "--out must not be empty");
  std::error_code ec;
  fs::path dir = fs::absolute(out_dir, ec);
  ORDO_CHECK(!ec, "--out ", out_dir, ": ", ec.message());
  if (fs::exists(dir, ec)) {
    ORDO_CHECK(fs::is_directory(dir, ec), "--out ", out_dir, " exists and is not a directory; name a directory");
    return;
  }
  fs::path parent = dir.parent_path();
  while (!parent.empty() && !fs::exists(parent, ec) && parent != parent.parent_path()) parent = parent.parent_path();
  ORDO_CHECK(fs::is_directory(parent, ec), "--out: cannot create ", out_dir, ": ", parent.string(),
             " is not a directory");
}

}  // namespace

RunDirectory::RunDirectory(const TrainConfig& config, const std::map<std::string, std::string>& given,
                           RunDirectoryOptions options)
    : options_(std::move(options)) {
  Cluster& world = cluster();
  if (!world.distributed()) {
    set_up(config, given);
    return;
  }
  // Data-parallel over MPI: every rank builds the same run; rank 0 owns the directory. The
  // ranks agree before training: one that failed stops them all.
  std::exception_ptr mine;
  try {
    set_up(config, given);
  } catch (...) {
    mine = std::current_exception();
  }
  const int64_t rank0_ok = world.min_over_ranks(world.rank() == 0 ? (mine ? 0 : 1) : 1);
  const int64_t all_ok = world.min_over_ranks(mine ? 0 : 1);
  if (all_ok) return;
  if (mine && (world.rank() == 0 || rank0_ok)) std::rethrow_exception(mine);
  if (world.rank() == 0) fail("another rank could not set up the run; its error is printed above");
  throw PeerFailure("rank 0 could not set up the run");
}

void RunDirectory::set_up(const TrainConfig& config, const std::map<std::string, std::string>& given) {
  Cluster& world = cluster();
  leader_ = world.rank() == 0;
  ORDO_CHECK(options_.ckpt_every >= 0, "--ckpt-every must be >= 0, got ", options_.ckpt_every);
  ORDO_CHECK(options_.ckpt_minutes >= 0, "--ckpt-minutes must be >= 0 (0 = off), got ", options_.ckpt_minutes);
  check_output_directory(options_.out);
  std::unique_ptr<Checkpoint> ck;
  TrainConfig cfg = config;
  if (options_.existing == ExistingOutput::Resume) {
    ORDO_CHECK(fs::exists(checkpoint_path()), "--resume: no checkpoint at ", checkpoint_path());
    if (leader_) lock_ = OutputLock(options_.out);  // no other writer from here on (writes nothing)
    ck = std::make_unique<Checkpoint>(load_checkpoint(checkpoint_path()));
    // The checkpoint's settings, with any setting given now on top (a mismatch is refused).
    cfg = from_settings(ck->config);
    cfg.check_numerics = config.check_numerics;
    for (const auto& [name, value] : given)
      if (const Setting* s = find_setting(name)) s->set(cfg, value);
    resumed_ = true;
  } else if (options_.existing == ExistingOutput::Refuse) {
    ORDO_CHECK(!fs::exists(run_path()) && !fs::exists(checkpoint_path()), options_.out,
               " already holds a run; pass --resume to continue it, --force to replace it, or another --out");
  }
  // (Refuse: a second process racing this check is refused by the lock below.)
  trainer_ = std::make_unique<Trainer>(cfg);  // every setting checked before the first write
  if (ck) trainer_->restore(*ck);
  if (world.distributed()) trainer_->train_over(world);
  if (!ck && leader_) lock_ = OutputLock(options_.out);
  if (leader_) remove_stale_temporaries(options_.out);
}

void RunDirectory::save_log() {
  if (!leader_) return;
  const TrainConfig& cfg = trainer_->config();
  RunRecord rec{cfg.task.name, encoding_label(cfg.model), cfg.seed, trainer_->log(), to_settings(cfg)};
  write_results(run_path(), {rec}, to_settings(cfg));
}

void RunDirectory::save_log_after_failure() {
  try {
    save_log();
  } catch (const Error& e) {  // the first failure is the one reported
    std::fprintf(stderr, "ordo: also failed: %s\n", e.what());
  }
}

void RunDirectory::train(const std::function<void(const StepInfo&)>& on_step) {
  if (leader_) fs::create_directories(options_.out);
  const int64_t every = options_.ckpt_every;
  CheckpointClock clock(options_.ckpt_minutes);
  // This process's share of the cores, looked at again at every step (cluster/shared_cores.h).
  const int limit = shared_cores().limit;  // the threads this process may use when alone
  auto share_cores = [&]() {
    const int want = std::min(limit, shared_cores().threads);
    if (want != num_threads()) omp_set_num_threads(want);
  };
  share_cores();
  auto checkpoint = [&] {
    save_checkpoint(checkpoint_path(), trainer_->checkpoint());
    save_log();
    clock.reset();
  };
  try {
    trainer_->run(
        [&](const StepInfo& s) {
          share_cores();
          if (on_step) on_step(s);
          const bool by_step = every > 0 && (s.step + 1) % every == 0;
          const bool last = trainer_->trained();  // before the final sweep, if one is left
          if (leader_ && (last ? !trainer_->finished() : by_step || clock.due())) checkpoint();
          return interrupt_signal() == 0;  // a signal: stop after this step
        },
        [&] {  // after each final length: the sweep can take hours
          share_cores();
          if (leader_ && clock.due()) checkpoint();
          return interrupt_signal() == 0;
        });
  } catch (const Error&) {
    omp_set_num_threads(limit);
    save_log_after_failure();  // the curve up to the fault; the last good checkpoint stays as it was
    throw;
  }
  omp_set_num_threads(limit);
  try {
    if (leader_) save_checkpoint(checkpoint_path(), trainer_->checkpoint());
  } catch (const Error&) {
    save_log_after_failure();  // run.h5 is much smaller: it may still fit
    throw;
  }
  save_log();
  if (!trainer_->finished()) {
    const TrainConfig& cfg = trainer_->config();
    const std::string where =
        !trainer_->trained()
            ? "at step " + std::to_string(trainer_->step()) + " of " + std::to_string(cfg.steps)
            : "in the final evaluation, " + std::to_string(final_lengths_pending(cfg, trainer_->log()).size()) +
                  " of its " + std::to_string(cfg.eval_lens_final.size()) + " lengths left";
    throw Interrupted(interrupt_signal(), signal_name(interrupt_signal()) + " " + where + ": checkpointed in " +
                                              checkpoint_path() + "; continue with --resume");
  }
}

}  // namespace ordo
