// study/study.h: a grid of training runs (tasks x encodings x seeds), run to completion.
//
// The library behind `ordo compare` and `ordo demo`, for any front end (a script, another
// launcher): it validates every run before writing anything, schedules the runs over worker
// threads that share the OpenMP threads, resumes or replaces an earlier grid in the same
// directory, keeps finished work when a run fails, and writes the results, the plots and
// summary.md. A run's numbers depend only on its settings, never on the schedule.
//
//   StudySpec spec;                       // what to run
//   spec.base = config;                   // every setting shared by the runs (train/config.h)
//   spec.tasks = {"order", "shift"};
//   spec.encodings = {"rope", "t5"};
//   spec.seeds = 3;                       // base.seed, base.seed + 1, base.seed + 2
//   spec.vary = parse_vary({"causal=false,true", "layers=1,2"});  // optional: x 4 variants
//   StudyOptions how;                     // where and how
//   how.out = "runs/my-study";
//   Study study(spec, how);               // throws ordo::Error on any bad run; nothing written yet
//   StudyOutcome done = study.run();      // trains what is not finished, writes everything
//   // done.summary_path, done.findings, done.records ...
//
// Over MPI (`mpirun -np N ordo compare`, cluster/cluster.h; docs/cluster.md): every rank builds
// and checks the same runs; rank 0 locks `out`, serves the runs in grid order to whichever
// rank asks (its own workers too), reads each finished run's log from its final checkpoint
// (`out` is on a filesystem every rank shares) and writes results.h5, the plots and
// summary.md. A run that fails stops the study naming the rank and the run; a rank that goes
// silent (killed, crashed; heartbeats every 0.1 s) is named with the run it held. The files
// are the one-process study's, bit for bit; Resume works with any N. With kept_seeds or
// lr_seeds, rank 0 decides each further round from the records and every rank trains it.
//
// Files in `out` (docs/outputs.md):
//   results.h5                                 every run's log, /runs/<task>/<encoding>/seed<k>/,
//                                              rewritten atomically after each run; with
//                                              spec.vary /runs/<task>/<encoding>/<variant>/seed<k>/
//                                              (variant "causal=true,layers=2")
//   checkpoints/<task>/<encoding>/[<variant>/]seed<k>.h5   each run's final checkpoint
//   plots/overview.*, <task>_curves.*, ...     the figures (report/plots.h)
//   summary.md                                 overview, ranked tables, findings (report/summary.h)
//   report.html                                the interactive report (report/html_report.h)
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "io/results.h"
#include "report/findings.h"
#include "report/summary.h"
#include "study/output_lock.h"
#include "train/checkpoint.h"
#include "train/config.h"

namespace ordo {

// One setting a study sweeps (`--vary KEY=V1,V2,...`): its name in the settings table
// (train/settings.h) and its values, as given.
struct Variation {
  std::string key;
  std::vector<std::string> values;
};

// {"causal=false,true", "layers=1,2"} -> the variations, checked: each key a setting that is
// not an axis of its own (task, encoding, seed), given once, with distinct values that can
// name a directory. Errors name --vary and the accepted values. A value's type is checked
// when the runs are built (the setting parses it).
std::vector<Variation> parse_vary(const std::vector<std::string>& texts);

// The Cartesian product of the variations, in the order given (the last one fastest): each
// variant a list of (key, value); one empty variant when there are none.
std::vector<std::vector<std::pair<std::string, std::string>>> variants(const std::vector<Variation>& vary);

// "causal=true,layers=2" ("" for the empty variant): the group name in results.h5.
std::string variant_label(const std::vector<std::pair<std::string, std::string>>& variant);

struct StudySpec {
  TrainConfig base;                     // task, encoding and seed are set per run
  std::vector<std::string> tasks;       // registered task names, each once
  std::vector<std::string> encodings;   // registered encoding names, each once
  int64_t seeds = 1;                    // seeds base.seed .. base.seed + seeds - 1
  // Seeds until learned (Huang et al. 2025's protocol; docs/spec.md §7.3): kept_seeds N > 0:
  // after its `seeds` seeds, each cell trains the next seeds until N of its runs learned
  // (run_learned), at most max_seeds seeds in all (0: 4 N). 0 = off: exactly `seeds`.
  int64_t kept_seeds = 0;
  int64_t max_seeds = 0;
  // Rates chosen on a few seeds (docs/spec.md §7.6): lr_seeds N > 0, with a learning-rate
  // sweep: every rate trains seeds base.seed .. base.seed + N - 1; once those have finished,
  // each cell's rate is chosen on them alone (report/rate_selection.h), and only the chosen
  // rate trains the remaining seeds up to `seeds`. 0 = off: every rate trains every seed.
  int64_t lr_seeds = 0;
  // Training steps per task, in the order given; tasks not named train base.steps.
  std::vector<std::pair<std::string, int64_t>> task_steps;
  // The settings the user changed from the defaults, by name: summary.md names them.
  std::map<std::string, std::string> given;
  // Settings swept over (Cartesian product with tasks x encodings x seeds); none by default.
  std::vector<Variation> vary;
};

// "order=1200,shift=400" -> {{order, 1200}, {shift, 400}}; every task must be in `tasks`,
// once, with at least one step. Errors name --task-steps and the accepted values.
std::vector<std::pair<std::string, int64_t>> parse_task_steps(const std::string& text,
                                                               const std::vector<std::string>& tasks);

// What to do with an `out` that already holds files.
enum class ExistingOutput { Refuse, Resume, Replace };

struct StudyOptions {
  std::string out = "runs/compare";
  ExistingOutput existing = ExistingOutput::Refuse;  // Resume: skip finished runs, continue partial ones
  int64_t ckpt_every = 0;     // also checkpoint each run every N steps (0 = off)
  double ckpt_minutes = 5;    // and after every this many minutes of its training (0 = off)
  int64_t jobs = 0;         // runs trained at once (0 = one per OpenMP thread)
};

// A checkpoint every `minutes` of wall time (0 = never), so that a hard kill loses minutes,
// not the run. Checkpoints change no number: a run resumed from any of them ends the same.
class CheckpointClock {
 public:
  explicit CheckpointClock(double minutes);
  bool due() const;
  void reset();

 private:
  double seconds_;
  std::chrono::steady_clock::time_point last_;
};

// What a front end shows while a study runs; either may be empty. Called with the study's
// lock held, from whichever worker thread made progress.
struct StudyProgress {
  std::function<void(const std::string& line)> message;  // a run finished, was skipped, ...
  std::function<void(int64_t steps_done, int64_t total_steps, const std::string& line, double seconds)> update;
};

// One run of the grid.
struct StudyRun {
  TrainConfig config;                            // the base with task, encoding, seed, steps, variant set
  std::string variant;                           // variant_label of its varied settings ("" = none)
  std::map<std::string, std::string> settings;   // resolved, as stored (to_settings of the Trainer's config)
  std::string checkpoint_path;
  std::shared_ptr<const Checkpoint> checkpoint;  // Resume: the checkpoint found, if any
  // Resume without a checkpoint: the run's complete log in results.h5 (a study directory
  // kept without its checkpoints, as docs/results/ keeps them), which stands for it.
  std::shared_ptr<const RunLog> recorded;
  size_t cell = 0;                               // its (task, encoding, variant) in grid order
  std::string label() const;                     // "order/rope/seed0", "order/rope/causal=true/seed0"
  bool finished() const;                         // its final checkpoint and complete log exist, or its record
  const RunLog& finished_log() const;            // a finished run's log, from either
};

// Whether a run learned its training lengths by its own rule: it stopped `learned`, or its
// last training-range accuracy is >= learned_at (a run of fixed steps). What kept_seeds counts.
bool run_learned(const RunLog& log, double learned_at);

struct StudyOutcome {
  std::vector<RunRecord> records;      // every run, in grid order (task, encoding, seed)
  int64_t trained = 0, skipped = 0;    // runs trained in this session / finished earlier
  double seconds = 0;                  // wall time of this session
  double run_seconds = 0;              // the runs' own wall times, whichever session ran them
  std::vector<Finding> findings;       // as in summary.md and report.html
  std::string findings_legend;         // what their words mean (summary.h's findings_legend)
  std::string results_path, summary_path, report_path, plot_dir;
  int plots_rendered = 0;              // figures gnuplot drew (0 without gnuplot)
  std::vector<std::string> warnings;   // plotting problems: the data and scripts are still written
};

class Study {
 public:
  // Builds and checks every run (a Trainer each; with Resume, each checkpoint found is
  // checked against its run). Throws ordo::Error naming the run and the problem; writes
  // nothing. Then locks `out` against a second writer (study/output_lock.h: refused at once,
  // naming the holder) and removes temporaries a killed writer left there.
  Study(StudySpec spec, StudyOptions options);

  const std::vector<StudyRun>& runs() const { return runs_; }
  const StudySpec& spec() const { return spec_; }
  const StudyOptions& options() const { return options_; }
  int64_t steps_to_train() const;  // over every run, from where each stands

  // Trains every unfinished run and writes results.h5, the checkpoints, the plots and
  // summary.md. When a run fails, the runs beside it stop at a checkpoint, every curve so
  // far is saved, and the first failure is rethrown naming its run: Resume continues. After
  // a signal (study/interrupt.h) every running run finishes its step and is checkpointed,
  // results.h5 is written, and Interrupted is thrown (no summary: the grid is not done).
  StudyOutcome run(const StudyProgress& progress = {});

 private:
  // One cell of the grid: a task, an encoding entry, its variant (the varied settings, with
  // causal=true added where the encoding or task needs it).
  struct Cell {
    std::string task, encoding;
    std::vector<std::pair<std::string, std::string>> variant;
  };
  void build_runs();  // runs_ from spec_, each checked; throws naming the run
  StudyRun make_run(const Cell& cell, int64_t seed_index) const;  // checked; throws naming the run
  // Resume: the finished runs results.h5 records whose checkpoints are gone (make_run).
  void read_records();
  // Resume: the --kept-seeds or --lr-seeds rounds whose runs are all finished, appended to runs_.
  void claim_finished_rounds();
  // The runs a further round adds after `records` (one per run of runs_): more_kept_seeds or
  // more_lr_seeds, whichever the study uses. Empty when nothing is to add.
  std::vector<StudyRun> more_seeds(const std::vector<RunRecord>& records) const;
  // more_seeds, over MPI decided by rank 0 (the only rank with every record; `records` is
  // read there alone) and sent to every rank, each building the same runs in the same order.
  std::vector<StudyRun> next_round(const std::vector<RunRecord>& records) const;
  // kept_seeds: for each cell, the next seeds up to its shortfall of learned runs, within
  // max_seeds.
  std::vector<StudyRun> more_kept_seeds(const std::vector<RunRecord>& records) const;
  // lr_seeds: for each cell at the rate chosen on the first lr_seeds seeds, its seeds from
  // lr_seeds to `seeds`; nothing for the other rates. The choice reads only the first lr_seeds
  // seeds' records, so it is the same in every round and on every resume.
  std::vector<StudyRun> more_lr_seeds(const std::vector<RunRecord>& records) const;

  StudySpec spec_;
  StudyOptions options_;
  std::vector<StudyRun> runs_;
  std::vector<Cell> cells_;
  std::map<std::string, RunRecord> records_;  // read_records(): by results group (run_group_path)
  int64_t records_revision_ = 1;              // the encodings revision results.h5 was written at
  std::string records_version_ = "(unknown)";  // and the ordo that wrote it
  OutputLock lock_;  // one writer per directory, from the end of the constructor
};

}  // namespace ordo
