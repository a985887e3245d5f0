// train/trainer.h: one training run: task + model + optimizer + schedule + evaluation.
//
//   TrainConfig cfg;                    // the defaults of docs/spec.md §5.3
//   cfg.task.name = "shift"; cfg.model.encoding = "rope";
//   Trainer trainer(cfg);
//   trainer.run();                      // 2000 steps, evaluated every cfg.eval_every
//   trainer.log();                      // curves (train/run_log.h)
//
// Everything a step does is a function of (seed, step): the batch is task.batch(seed,
// step), dropout masks come from (seed, step), and the state carried between steps is
// the parameters and the optimizer moments. So a run resumed from a checkpoint continues
// with the same bits as one that never stopped.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "data/eval.h"
#include "data/task.h"
#include "layers/model.h"
#include "train/checkpoint.h"
#include "train/config.h"
#include "train/metrics.h"
#include "train/optimizer.h"
#include "train/run_log.h"

namespace ordo {

struct StepInfo {
  int64_t step;         // 0-based index of the step just taken
  int64_t total;
  double loss, lr, grad_norm;
  double seconds;       // wall time since the run (or resume) started
  const RunLog* log;    // includes the latest evaluation
  bool evaluated;       // an evaluation ran after this step
};

struct EvalResult {
  int64_t length;       // 0 = training range
  MetricCounts counts;
};

// The model a run of `cfg` on `task` builds: cfg.model completed from the task (vocabulary,
// classes, head, position count) and the seed.
ModelConfig model_config(const TrainConfig& cfg, const Task& task);

// The lengths of cfg.eval_lens_final that log holds no score for at step cfg.steps, in the
// order given: what is left of a run's final sweep (all of them before the last step).
std::vector<int64_t> final_lengths_pending(const TrainConfig& cfg, const RunLog& log);

// Appends "from step <step>: <here>" to log.machines unless its last entry names `here`
// already: what Trainer::run does before it trains or evaluates, `here` being this machine
// (core/machine.h) or, data-parallel, ranks_machine of every rank's.
void note_machine(RunLog& log, int64_t step, const std::string& here);

// Where a data-parallel run's steps are taken, from each rank's machine (of_rank[r]): the
// machine alone when every rank has the same (as a one-process run records it), else each
// machine with its ranks, "<A> (ranks 0, 2) + <B> (rank 1)".
std::string ranks_machine(const std::vector<std::string>& of_rank);

// Throws unless `theirs` (a checkpoint's or a results record's settings, as text) trained the
// run `cfg` describes; a setting it lacks reads as its default. `what` names the file.
void check_same_settings(const TrainConfig& cfg, const std::map<std::string, std::string>& theirs,
                         const std::string& what);

class Trainer {
 public:
  explicit Trainer(const TrainConfig& cfg);

  // Trains from the current step to cfg.steps (a --until-learned run: until it stops), then scores the lengths of --eval-lens-final
  // (rank 0), each built, scored, recorded and dropped in turn. on_step runs after every step,
  // at the last one before that final sweep (which can take hours: a caller checkpoints the
  // trained weights there); after_length runs after each final length. Either returning false
  // stops the run; the state stays consistent: checkpoint() and run() again resume, and a
  // resumed sweep scores only the lengths it has not scored yet (docs/spec.md §3.8).
  void run(const std::function<bool(const StepInfo&)>& on_step = {},
           const std::function<bool()>& after_length = {});
  // Scores every kept evaluation set (no gradients recorded): the training range and --eval-lens.
  std::vector<EvalResult> evaluate();
  // Scores one evaluation set built by the caller (`ordo evaluate`: a held-out set of another
  // seed), drawn from `held_out_seed` (TrainConfig::held_out_seed), which also keys the
  // sampled positions of --random-positions-eval.
  EvalResult evaluate(const EvalSet& set, uint64_t held_out_seed) { return evaluate_set(set, held_out_seed); }
  // Called after each evaluation batch (evaluations at long lengths can take hours): the
  // set's length (0 = training range), batches done and in the set, seconds in this set.
  using EvalObserver = std::function<void(int64_t length, int64_t done, int64_t batches, double seconds)>;
  void set_eval_observer(EvalObserver observer) { eval_observer_ = std::move(observer); }
  // One optimisation step at the current step, with no logging or evaluation (benchmarks).
  // Returns the training loss.
  double step_once();

  // Data-parallel training over the ranks of an MPI job (cluster/cluster.h), from the next
  // step on: each rank computes its consecutive share of the batch's micro-batches, and the
  // gradients are summed in micro-batch order along the ranks (docs/spec.md §5.4), so the
  // run has the bits of the one-process run. Every rank holds the whole model and takes the
  // same optimizer step; rank 0 alone evaluates and keeps the log, and decides when the run
  // stops. Throws unless the ranks divide --micro-batches.
  void train_over(Cluster& world);

  Checkpoint checkpoint() const;
  void restore(const Checkpoint& ck);  // refuses a checkpoint of another configuration

  int64_t step() const { return step_; }
  // Training is over: cfg.steps taken, or a --until-learned run stopped (log().stop_reason
  // says why); the final sweep of --eval-lens-final may be left.
  bool trained() const;
  // Trained to cfg.steps and every final length scored (by rank 0, which evaluates; the other
  // ranks wait for it at the end of run(), so that all of them end the same way).
  bool finished() const;
  const TrainConfig& config() const { return cfg_; }
  const RunLog& log() const { return log_; }
  EncoderModel& model() { return *model_; }
  Tape& tape() { return tape_; }  // e.g. to turn on op profiling
  const Task& task() const { return *task_; }
  const std::vector<EvalSet>& eval_sets() const { return eval_sets_; }

 private:
  // One optimisation step at step_ with learning rate lr; returns the batch's mean loss:
  // the batch, its gradient (in parts, over the ranks: train/micro_batches.h), clipping,
  // the optimizer's update, the bounded parameters projected back.
  double train_step(double lr);
  // Forward and backward of one part of a batch (a MicroBatches PartStep).
  double forward_backward(const Batch& part, double weight, int64_t index);
  const char* numerics_hint() const {
    return cfg_.check_numerics ? "" : "; rerun with --check-numerics to find the first op that produced it";
  }
  void record_eval(const std::vector<EvalResult>& results);
  void decide_stop(bool leader);

  TrainConfig cfg_;
  std::unique_ptr<Task> task_;
  std::unique_ptr<EncoderModel> model_;
  std::vector<Parameter*> params_;
  std::unique_ptr<Optimizer> optimizer_;
  std::vector<EvalSet> eval_sets_;  // the training range and --eval-lens (not --eval-lens-final)
  EvalResult evaluate_set(const EvalSet& set) { return evaluate_set(set, cfg_.held_out_seed()); }
  EvalResult evaluate_set(const EvalSet& set, uint64_t held_out_seed);
  Tape tape_;
  RunLog log_;
  int64_t step_ = 0;
  double last_grad_norm_ = 0;
  double elapsed_before_ = 0;  // wall seconds of earlier sessions of a resumed run
  EvalObserver eval_observer_;
  Cluster* world_ = nullptr;  // data-parallel over these ranks; nullptr = this process alone
  bool leader_swept_ = false;  // the other ranks: rank 0 said, at the end of run(), that its sweep is done
};

}  // namespace ordo
