// study/session.h: one Study::run (study/study.h) as it trains: the worker threads of this
// process, which take runs from a source (the grid, or rank 0's queue: study/run_source.h),
// train them, and hand what they make to a sink (checkpoints, results.h5:
// study/result_sink.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "core/mutex.h"
#include "io/results.h"
#include "study/result_sink.h"
#include "study/run_source.h"
#include "study/study.h"
#include "train/trainer.h"

namespace ordo {

// One Study::run: the worker threads of this process and the state they share, each member
// declared with the mutex that guards it. Workers take runs from the source
// (study/run_source.h), train them, hand their checkpoints and records to the sink
// (study/result_sink.h), and leave when none is left or the study stops (a failure, a signal).
// The source and the sink guard their own state: the session never holds its mutex while it
// calls them.
class Session {
 public:
  Session(const std::vector<StudyRun>& runs, const StudyOptions& options, const StudyProgress& progress,
          const std::map<std::string, std::string>& shared, const std::string& results_path, int threads, int jobs,
          int64_t total_steps);

  // Trains every unfinished run; returns every run's record, in grid order (rank 0), or
  // nothing (the other ranks). Throws the first failure, or Interrupted after a signal.
  std::vector<RunRecord> run() EXCLUDES(mu_);
  int64_t trained() EXCLUDES(mu_) {
    MutexLock lock(mu_);
    return trained_;
  }
  double elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(); }

 private:
  void worker(int id) EXCLUDES(mu_);
  // The next run for worker `id`, or nullopt: none left, or the study stops.
  std::optional<size_t> next_run(int id, int& my_threads) EXCLUDES(mu_);
  void train(int id, size_t i, int& my_threads) EXCLUDES(mu_);
  bool on_step(int id, size_t i, const Trainer& trainer, const StepInfo& s, CheckpointClock& clock,
               int& my_threads) EXCLUDES(mu_);
  bool after_final_length(int id, size_t i, const Trainer& trainer, CheckpointClock& clock, int& my_threads)
      EXCLUDES(mu_);
  void run_failed(size_t i, const Trainer* trainer, std::exception_ptr error) EXCLUDES(mu_);
  void run_finished(size_t i, const Trainer& trainer) EXCLUDES(mu_);
  // What rank 0's queue asks of this session as it serves the other ranks.
  QueueHandlers queue_handlers() EXCLUDES(mu_);
  // Rank 0 over MPI: another rank's run ended, its checkpoint on the shared filesystem.
  void ended_elsewhere(int rank, size_t i, bool done) EXCLUDES(mu_);
  // Whether the study stops (a signal; `asked`: rank 0 said so); then no run starts, and every
  // run checkpoints and stops.
  bool check_stopping(bool asked) REQUIRES(mu_);
  void show_progress() REQUIRES(mu_);
  void share_threads(int& my_threads) REQUIRES(mu_);
  void fail(std::exception_ptr error) REQUIRES(mu_) {
    if (!failure_) failure_ = error;
  }
  void message(const std::string& text) REQUIRES(mu_) {
    if (progress_.message) progress_.message(text);
  }
  std::string runs_done_text() const REQUIRES(mu_) {
    return std::string("[").append(std::to_string(runs_done_)).append("/").append(total_runs_).append("] ");
  }

  // Fixed for the whole run, read by every thread without a lock.
  const std::vector<StudyRun>& runs_;
  const StudyOptions& options_;
  const StudyProgress& progress_;
  Cluster& world_;
  const int threads_, jobs_;
  const int64_t total_steps_;
  const std::string total_runs_;
  const std::chrono::steady_clock::time_point t0_;
  const std::unique_ptr<RunSource> source_;      // where runs come from; guards itself
  const std::unique_ptr<CheckpointSink> sink_;   // where results go; guards itself
  const bool shows_progress_;                    // rank 0 or alone: the progress line, the messages

  // mu_ guards everything below, and also the progress callbacks.
  Mutex mu_;
  std::vector<std::string> status_ GUARDED_BY(mu_);  // each worker's run, for the progress line
  int workers_left_ GUARDED_BY(mu_);
  int runs_done_ GUARDED_BY(mu_) = 0, trained_ GUARDED_BY(mu_) = 0;
  int sharing_processes_ GUARDED_BY(mu_) = 0;  // ordo processes on these cores when last said
  int64_t steps_done_ GUARDED_BY(mu_) = 0;
  bool stopping_ GUARDED_BY(mu_) = false;       // no run starts, every run checkpoints and stops
  std::exception_ptr failure_ GUARDED_BY(mu_);  // the first failure, rethrown at the end
};

}  // namespace ordo
