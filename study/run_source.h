// study/run_source.h: where a study's workers get their runs, and whom they tell how each
// ended. One of three, by the process's place in the job (study/session.h picks it):
//   GridSource    one process alone: the grid's unfinished runs, in grid order;
//   QueueSource   rank 0 of an MPI job: the same grid, also served to the other ranks by rank
//                 0's queue (study/run_queue.h) on a thread of its own;
//   ClientSource  any other rank: asks rank 0's queue, tells it how each run ended, says it
//                 is alive (a heartbeat thread) and forwards its progress.
// Each owns its state and guards it itself; none calls back into the session except through
// the QueueHandlers it is started with (rank 0's queue, on its own thread).
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cluster/cluster.h"
#include "core/mutex.h"
#include "study/run_queue.h"

namespace ordo {

// How a run a worker took came out.
enum class RunEnd { finished, stopped, failed };

class RunSource {
 public:
  virtual ~RunSource() = default;

  // Starts what works beside this process's workers: rank 0's queue for the other ranks
  // (`handlers` reach the session; take_next is the source's own), a remote rank's heartbeat.
  virtual void start(const QueueHandlers& handlers) { (void)handlers; }
  // The next run for worker `worker`, or nullopt when none is left. May wait for rank 0:
  // call it holding no lock.
  virtual std::optional<size_t> next(int worker) = 0;
  // How a run from next() came out (`error`: why it failed). A remote rank tells rank 0.
  virtual void ended(size_t run, RunEnd end, std::exception_ptr error) {
    (void)run, (void)end, (void)error;
  }
  // Whether rank 0 asked this process to stop (another rank failed, or a signal). Does not wait.
  virtual bool stop_requested() { return false; }
  // Whether this process shows the study's progress (rank 0 or a lone process); a remote
  // rank hands each step to step_done() instead, which forwards them once a second.
  virtual bool shows_progress() const { return true; }
  virtual void step_done(const std::string& status) { (void)status; }
  // A run's failure as this process reports it: named by its run (`label`), and by rank 0
  // over MPI; a remote rank's as a PeerFailure (rank 0 reports it).
  virtual std::exception_ptr failure(const std::string& label, std::exception_ptr error) const;
  // After the workers left: waits for what start() began to end (rank 0's queue serves until
  // every other rank finished or went silent; a remote rank's heartbeat stops).
  virtual void join() {}
  // Then settles the end with the other ranks. `failed`: this process fails the study;
  // `stopped`: a signal stops it (read once by the caller); `kept`: "3 of 8 runs finished and kept".
  // Returns the failure the other ranks make of it, if any: rank 0's word that ranks went
  // silent (and the runs they held); a remote rank's, that rank 0 failed or stopped the study
  // while no signal reached this rank.
  virtual std::exception_ptr finish(bool failed, bool stopped, const std::string& kept) {
    (void)failed, (void)stopped, (void)kept;
    return nullptr;
  }
};

// One process alone: the grid's unfinished runs, in grid order.
class GridSource : public RunSource {
 public:
  // finished[i]: run i finished in an earlier session, so it is skipped.
  explicit GridSource(std::vector<bool> finished) : finished_(std::move(finished)) {}
  std::optional<size_t> next(int worker) override EXCLUDES(mu_);

 private:
  const std::vector<bool> finished_;
  Mutex mu_;
  size_t next_ GUARDED_BY(mu_) = 0;  // the first run not yet handed out
};

// Rank 0 of an MPI job: the grid, handed to its own workers and, through its queue, to the
// other ranks' (whoever asks first).
class QueueSource : public RunSource {
 public:
  QueueSource(Cluster& world, std::vector<bool> finished, std::vector<std::string> labels)
      : grid_(std::move(finished)), server_(world, std::move(labels)) {}
  ~QueueSource() override;
  void start(const QueueHandlers& handlers) override;
  void join() override;
  std::optional<size_t> next(int worker) override { return grid_.next(worker); }
  std::exception_ptr failure(const std::string& label, std::exception_ptr error) const override;
  std::exception_ptr finish(bool failed, bool stopped, const std::string& kept) override;

 private:
  GridSource grid_;
  QueueServer server_;
  QueueHandlers handlers_;  // set by start(), then read by the serving thread only
  std::thread serving_;
};

// A rank other than 0: its runs come from rank 0's queue.
class ClientSource : public RunSource {
 public:
  explicit ClientSource(Cluster& world) : client_(world) {}
  ~ClientSource() override;
  void start(const QueueHandlers& handlers) override;
  void join() override EXCLUDES(mu_);
  std::optional<size_t> next(int worker) override { return client_.request(worker); }
  void ended(size_t run, RunEnd end, std::exception_ptr error) override;
  bool stop_requested() override { return client_.stop_requested(); }
  bool shows_progress() const override { return false; }
  void step_done(const std::string& status) override EXCLUDES(mu_);
  std::exception_ptr failure(const std::string& label, std::exception_ptr error) const override;
  std::exception_ptr finish(bool failed, bool stopped, const std::string& kept) override;

 private:
  QueueClient client_;  // thread-safe: every call sends one message
  std::thread heartbeat_;
  Mutex mu_;
  bool workers_done_ GUARDED_BY(mu_) = false;  // the heartbeat stops
  int64_t unreported_steps_ GUARDED_BY(mu_) = 0;
  std::chrono::steady_clock::time_point last_report_ GUARDED_BY(mu_) = std::chrono::steady_clock::now();
};

// The source for this process's place in `world`: alone, rank 0 of several, or another rank.
std::unique_ptr<RunSource> make_run_source(Cluster& world, std::vector<bool> finished,
                                           std::vector<std::string> labels);

}  // namespace ordo
