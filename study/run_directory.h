// study/run_directory.h: one training run whose files live in one directory.
//
// The library behind `ordo train`: run.h5 (config attributes and the run's curves under
// /runs/<task>/<encoding>/seed<k>/, docs/spec.md §7) and checkpoint.h5 (every ckpt_every
// steps and at the end), both written atomically. Resume continues from checkpoint.h5 with
// the same bits as a run that never stopped; Replace starts over; Refuse (the default)
// will not touch a directory that already holds a run.
//
// Started by mpirun or srun (cluster/cluster.h), the run is data-parallel over the ranks
// (Trainer::train_over): every rank trains, rank 0 alone writes, and the files are the
// files of the one-process run.
//
//   RunDirectory run(config, {}, {.out = "runs/x"});  // checks everything; writes nothing yet
//   run.train();                                      // trains to config.steps, writes both files
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "study/output_lock.h"
#include "study/study.h"  // ExistingOutput
#include "train/trainer.h"

namespace ordo {

struct RunDirectoryOptions {
  std::string out;
  ExistingOutput existing = ExistingOutput::Refuse;
  int64_t ckpt_every = 0;     // also checkpoint every N steps (0 = off)
  double ckpt_minutes = 5;    // and after every this many minutes of training (0 = off)
};

class RunDirectory {
 public:
  // With Resume the checkpoint's settings are used, with the settings in `given` (by name,
  // as text) applied on top; a checkpoint of other settings is refused. Throws ordo::Error
  // naming the problem, before anything is written. Then locks the directory against a
  // second writer and removes temporaries an earlier, killed writer left there.
  RunDirectory(const TrainConfig& config, const std::map<std::string, std::string>& given,
               RunDirectoryOptions options);

  Trainer& trainer() { return *trainer_; }
  bool resumed() const { return resumed_; }
  std::string run_path() const { return options_.out + "/run.h5"; }
  std::string checkpoint_path() const { return options_.out + "/checkpoint.h5"; }

  // Trains to the configured step count; on_step runs after every step (progress). When a
  // step fails, run.h5 keeps the curve up to the fault and the last checkpoint stays as it
  // was; the error is rethrown. After a signal (study/interrupt.h) the step in progress
  // finishes, both files are written, and Interrupted is thrown.
  void train(const std::function<void(const StepInfo&)>& on_step = {});

 private:
  void set_up(const TrainConfig& config, const std::map<std::string, std::string>& given);
  void save_log();
  void save_log_after_failure();  // save_log, its own failure only printed (the first one is thrown)

  RunDirectoryOptions options_;
  OutputLock lock_;  // held from the end of the constructor (study/output_lock.h)
  std::unique_ptr<Trainer> trainer_;
  bool resumed_ = false;
  bool leader_ = true;  // writes the files: rank 0 of a data-parallel MPI job, or the process alone
};

}  // namespace ordo
