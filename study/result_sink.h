// study/result_sink.h: where a study's results go as its runs train. One of two, by the
// process's place in the job (study/session.h picks it):
//   CheckpointSink  a rank other than 0: each run's checkpoint, in the shared directory,
//                   whose log rank 0 reads when the run ends;
//   ResultsSink     rank 0, or a process alone: the checkpoints too, and every run's record,
//                   with results.h5 rewritten (atomically) whenever one changes.
// Each guards its own state. HDF5 calls need no lock of theirs: io/hdf5 serialises them.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "core/mutex.h"
#include "io/results.h"
#include "study/study.h"
#include "train/trainer.h"

namespace ordo {

class CheckpointSink {
 public:
  explicit CheckpointSink(const std::vector<StudyRun>& runs) : runs_(runs) {}
  virtual ~CheckpointSink() = default;

  // The runs finished in an earlier session whose records this sink took (ResultsSink), in
  // grid order.
  virtual std::vector<size_t> take_finished_earlier() { return {}; }
  // Before a run trains: the directory of its checkpoint.
  void prepare(size_t run) EXCLUDES(mu_);
  // A run in training, or stopping: its checkpoint (and with ResultsSink, its curve so far).
  virtual void save(size_t run, const Trainer& trainer);
  // A run finished: as save(). Throws what could not be written (ResultsSink: after keeping
  // its log in results.h5 if only the checkpoint failed).
  virtual void finished(size_t run, const Trainer& trainer) { save(run, trainer); }
  // A run failed: ResultsSink keeps its curve up to the fault (rerun with --resume after
  // fixing the settings), as far as it can; never throws.
  virtual void failed(size_t run, const Trainer* trainer) noexcept { (void)run, (void)trainer; }
  // Rank 0: another rank's run ended, and its checkpoint (on the shared filesystem) is read
  // for the run's record; nullopt when it stopped before its first checkpoint.
  virtual std::optional<Checkpoint> ended_elsewhere(size_t run);
  // Every run's record in grid order, once all are in (ResultsSink; none elsewhere).
  virtual std::vector<RunRecord> records() { return {}; }

 protected:
  const std::vector<StudyRun>& runs_;
  Mutex mu_;  // directories are made one at a time
};

class ResultsSink final : public CheckpointSink {
 public:
  ResultsSink(const std::vector<StudyRun>& runs, std::string results_path,
              const std::map<std::string, std::string>& shared)
      : CheckpointSink(runs), results_path_(std::move(results_path)), shared_(shared), slots_(runs.size()) {}

  std::vector<size_t> take_finished_earlier() override EXCLUDES(mu_);
  void save(size_t run, const Trainer& trainer) override EXCLUDES(mu_);
  void finished(size_t run, const Trainer& trainer) override EXCLUDES(mu_);
  void failed(size_t run, const Trainer* trainer) noexcept override EXCLUDES(mu_);
  std::optional<Checkpoint> ended_elsewhere(size_t run) override EXCLUDES(mu_);
  std::vector<RunRecord> records() override EXCLUDES(mu_);

 private:
  // results.h5 from every record so far; under mu_, so that the last writer holds the newest.
  void write() REQUIRES(mu_);

  const std::string results_path_;
  const std::map<std::string, std::string>& shared_;
  std::vector<std::optional<RunRecord>> slots_ GUARDED_BY(mu_);  // finished or interrupted runs, grid order
};

// The sink for this process's place in `world`: rank 0 (or alone) keeps the results.
std::unique_ptr<CheckpointSink> make_result_sink(Cluster& world, const std::vector<StudyRun>& runs,
                                                 const std::string& results_path,
                                                 const std::map<std::string, std::string>& shared);

}  // namespace ordo
