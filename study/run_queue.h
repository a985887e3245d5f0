// study/run_queue.h: a study's coordination over MPI (study/study.h, "Over MPI").
//
// Rank 0 holds the grid's queue of runs (QueueServer); every other rank's workers ask it for
// runs and report what became of each (QueueClient). The messages:
//   rank r -> 0: request (worker id) | done, stopped (run) | failed (run, error) |
//                progress (steps, status line) | alive (heartbeat, every 0.1 s) | finished
//   0 -> rank r: assign (run, or -1: no more) | stop (another rank failed, or a signal) |
//                final (how the study ended: ok, stopped or failed)
// A done run's log reaches rank 0 by its checkpoint on the shared filesystem.
//
// Rank 0's own state: which runs each rank holds, which ranks finished, and which went silent
// (killed or crashed: no message for 120 s, or for 0.35 s after a signal, when mpirun has
// signalled every rank and the living answer within a heartbeat). A silent rank is never
// sent anything again.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "cluster/tags.h"
#include "core/mutex.h"

namespace ordo {

// What rank 0's queue asks of the study while it serves, each called on the serving thread
// with the queue's own lock held (so a handler never calls back into the QueueServer; it takes
// the study's locks itself).
struct QueueHandlers {
  std::function<bool()> stopping;                              // no new run is handed out
  std::function<void()> stop;                                  // stop every run (a signal, a failure)
  std::function<void(std::exception_ptr)> fail;                // the study's failure, if the first
  std::function<std::optional<size_t>()> take_next;            // the grid's next unfinished run
  // Run `run` of rank `rank` ended: done (finished and checkpointed) or stopped early.
  std::function<void(int rank, size_t run, bool done)> run_ended;
  std::function<void(int rank, int64_t steps, const std::string& status)> progress;
};

class QueueServer {
 public:
  // run_labels: how messages name each run of the grid ("order/rope/seed0").
  QueueServer(Cluster& world, std::vector<std::string> run_labels);

  // Serves the other ranks until each has finished or gone silent. Polls every millisecond
  // (rank 0 trains too, and a faster poll cost it measurably) and takes its lock for each
  // message.
  void serve(const QueueHandlers& handlers) EXCLUDES(mu_);

  // After serve(): tells each rank that did not go silent how the study ended.
  void send_final(const std::string& end) EXCLUDES(mu_);
  // After serve(): "rank 2 went silent (killed or crashed) while training order/rope/seed0;
  // rank 3 ...", or "" when every rank answered to the end.
  std::string lost() const EXCLUDES(mu_);

 private:
  using Clock = std::chrono::steady_clock;
  bool others_left() const REQUIRES(mu_);
  void assigned(int rank, size_t run) REQUIRES(mu_) { held_[rank].insert(run); }
  void released(int rank, size_t run) REQUIRES(mu_) { held_[rank].erase(run); }
  // Marks ranks silent for too long; their runs are named in lost().
  void find_silent(Clock::time_point now, const QueueHandlers& handlers) REQUIRES(mu_);
  void handle(const ClusterMessage& m, const QueueHandlers& handlers) REQUIRES(mu_);

  Cluster& world_;  // thread-safe
  const std::vector<std::string> labels_;  // run -> its label
  mutable Mutex mu_;
  std::map<int, std::set<size_t>> held_ GUARDED_BY(mu_);       // rank -> the runs it trains now (ranks >= 1)
  std::vector<bool> finished_ GUARDED_BY(mu_);                 // rank -> said finished, or went silent
  std::vector<Clock::time_point> last_heard_ GUARDED_BY(mu_);  // rank -> its last message
  std::set<int> silent_ GUARDED_BY(mu_);                       // ranks taken for dead
  std::vector<std::string> lost_ GUARDED_BY(mu_);              // what each silent rank held, as said
  std::optional<Clock::time_point> signalled_ GUARDED_BY(mu_);
  bool stop_sent_ GUARDED_BY(mu_) = false;
};

// A rank other than 0: its workers' side of the queue. Thread-safe: every call sends one
// message (Cluster serialises them).
class QueueClient {
 public:
  explicit QueueClient(Cluster& world) : world_(world) {}
  // Asks for a run for worker `id` and waits for the answer: nullopt when none is left.
  std::optional<size_t> request(int id);
  void done(size_t run) { world_.send(0, kDone, std::to_string(run)); }
  void stopped(size_t run) { world_.send(0, kStopped, std::to_string(run)); }
  void failed(size_t run, const std::string& what) { world_.send(0, kFailed, std::to_string(run) + "\n" + what); }
  void progress(int64_t steps, const std::string& status) {
    world_.send(0, kProgress, std::to_string(steps) + "\n" + status);
  }
  void alive() { world_.send(0, kAlive, ""); }
  // Whether rank 0 said stop (another rank failed, or a signal). Does not wait.
  bool stop_requested() { return world_.poll(kStop, 0).has_value(); }
  // Says this rank's workers are done and waits for rank 0's word on how the study ended.
  std::string finish();

  static constexpr double kHeartbeatSeconds = 0.1;

 private:
  friend class QueueServer;
  static constexpr int kRequest = 1, kDone = 2, kStopped = 3, kFailed = 4, kProgress = 5, kFinished = 6, kStop = 7,
                       kFinal = 8, kAlive = 9;
  static constexpr int kAssign = tags::kAssign;  // + the asking worker's id
  static_assert(kRequest >= tags::kQueueFirst && kAlive <= tags::kQueueLast, "cluster/tags.h: the queue's range");
  Cluster& world_;
};

}  // namespace ordo
