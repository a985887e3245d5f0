// study/session.h: one Study::run (study/study.h) as it trains: the worker threads of this
// process, which take runs from the grid (or, on a rank other than 0, from rank 0's queue:
// study/run_queue.h), train them, checkpoint them and put their records into results.h5.
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "core/mutex.h"
#include "io/results.h"
#include "study/run_queue.h"
#include "study/study.h"
#include "train/trainer.h"

namespace ordo {

// One Study::run: the state its worker threads share (and, over MPI, rank 0's queue and a
// remote rank's heartbeat), each member declared with the mutex that guards it. Workers take
// runs from the grid (or, on a rank other than 0, from rank 0's queue: study/run_queue.h),
// train them, and leave when none is left or the study stops (a failure, a signal).
class Session {
 public:
  Session(const std::vector<StudyRun>& runs, const StudyOptions& options, const StudyProgress& progress,
          const std::map<std::string, std::string>& shared, const std::string& results_path, int threads, int jobs,
          int64_t total_steps)
      : runs_(runs),
        options_(options),
        progress_(progress),
        shared_(shared),
        results_path_(results_path),
        world_(cluster()),
        remote_(world_.rank() != 0),
        threads_(threads),
        jobs_(jobs),
        total_steps_(total_steps),
        total_runs_(std::to_string(runs.size())),
        t0_(std::chrono::steady_clock::now()),
        slots_(runs.size()),
        status_(static_cast<size_t>(jobs)),
        workers_left_(jobs) {
    if (world_.distributed() && !remote_) {
      std::vector<std::string> labels;
      for (const StudyRun& r : runs_) labels.push_back(r.label());
      server_.emplace(world_, std::move(labels), mu_);
    }
    if (remote_) client_.emplace(world_);
  }

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
  void show_progress() REQUIRES(mu_);
  // The run's checkpoint, and (rank 0) its curve into results.h5.
  void save_state(size_t i, const Trainer& trainer, CheckpointClock& clock) REQUIRES(mu_);
  void run_failed(size_t i, const Trainer* trainer, std::exception_ptr error) REQUIRES(mu_);
  void run_stopped(size_t i) REQUIRES(mu_);
  void run_finished(size_t i, const Trainer& trainer) REQUIRES(mu_);
  // Rank 0 over MPI: another rank's run ended, its checkpoint on the shared filesystem.
  void remote_run_ended(int rank, size_t i, bool done) REQUIRES(mu_);
  std::optional<size_t> take_next() REQUIRES(mu_);
  void share_threads(int& my_threads) REQUIRES(mu_);
  void fail(std::exception_ptr error) REQUIRES(mu_);
  void save_results() REQUIRES(mu_);
  void message(const std::string& text) REQUIRES(mu_) {
    if (progress_.message) progress_.message(text);
  }
  std::string runs_done_text() const REQUIRES(mu_) {
    return "[" + std::to_string(runs_done_) + "/" + total_runs_ + "] ";
  }

  // Fixed for the whole run, read by every thread without a lock.
  const std::vector<StudyRun>& runs_;
  const StudyOptions& options_;
  const StudyProgress& progress_;
  const std::map<std::string, std::string>& shared_;
  const std::string results_path_;
  Cluster& world_;
  const bool remote_;  // a rank other than 0: trains what rank 0 hands it
  const int threads_, jobs_;
  const int64_t total_steps_;
  const std::string total_runs_;
  const std::chrono::steady_clock::time_point t0_;
  std::optional<QueueClient> client_;  // ranks other than 0 (thread-safe: Cluster serialises sends)

  // mu_ guards everything below, and also the progress callbacks and every HDF5 call
  // (Debian's HDF5 is not built thread-safe).
  Mutex mu_;
  std::optional<QueueServer> server_;  // rank 0 over MPI: the queue (its state guarded by mu_ too)
  std::vector<std::optional<RunRecord>> slots_ GUARDED_BY(mu_);  // finished or interrupted runs, grid order
  std::vector<std::string> status_ GUARDED_BY(mu_);             // each worker's run, for the progress line
  size_t next_ GUARDED_BY(mu_) = 0;                             // take_next's place in the grid
  int workers_left_ GUARDED_BY(mu_);
  int runs_done_ GUARDED_BY(mu_) = 0, trained_ GUARDED_BY(mu_) = 0;
  int sharing_processes_ GUARDED_BY(mu_) = 0;  // ordo processes on these cores when last said
  int64_t steps_done_ GUARDED_BY(mu_) = 0;
  bool stopping_ GUARDED_BY(mu_) = false;    // no run starts, every run checkpoints and stops
  std::exception_ptr failure_ GUARDED_BY(mu_);  // the first failure, rethrown at the end
  int64_t unreported_steps_ GUARDED_BY(mu_) = 0;  // a remote rank's progress not yet sent
  std::chrono::steady_clock::time_point last_report_ GUARDED_BY(mu_) = std::chrono::steady_clock::now();
  bool workers_done_ GUARDED_BY(mu_) = false;  // a remote rank's heartbeat stops
};

}  // namespace ordo
