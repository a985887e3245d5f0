// study/result_sink.cpp: where a study's results go (see study/result_sink.h).
#include "study/result_sink.h"

#include <filesystem>

#include "io/checkpoint_file.h"
#include "layers/model.h"

namespace ordo {
namespace fs = std::filesystem;

namespace {

// The one place a run's record is made, from whichever log holds its curves.
RunRecord record_of(const StudyRun& r, const RunLog& log) {
  return RunRecord{r.config.task.name, encoding_label(r.config.model), r.config.seed, log, r.settings, r.variant};
}

}  // namespace

// ---- CheckpointSink --------------------------------------------------------------------------

void CheckpointSink::prepare(size_t run) {
  MutexLock lock(mu_);
  fs::create_directories(fs::path(runs_[run].checkpoint_path).parent_path());
}

void CheckpointSink::save(size_t run, const Trainer& trainer) {
  save_checkpoint(runs_[run].checkpoint_path, trainer.checkpoint());
}

std::optional<Checkpoint> CheckpointSink::ended_elsewhere(size_t run) {
  const std::string& path = runs_[run].checkpoint_path;
  if (!fs::exists(path)) return std::nullopt;  // stopped before its first checkpoint
  return load_checkpoint(path);
}

// ---- ResultsSink -----------------------------------------------------------------------------

std::vector<size_t> ResultsSink::take_finished_earlier() {
  MutexLock lock(mu_);
  std::vector<size_t> taken;
  for (size_t i = 0; i < runs_.size(); ++i) {
    if (!runs_[i].finished()) continue;
    slots_[i] = record_of(runs_[i], runs_[i].finished_log());
    taken.push_back(i);
  }
  return taken;
}

void ResultsSink::save(size_t run, const Trainer& trainer) {
  CheckpointSink::save(run, trainer);
  MutexLock lock(mu_);
  slots_[run] = record_of(runs_[run], trainer.log());
  write();
}

// The log reaches results.h5 even when the checkpoint cannot be written.
void ResultsSink::finished(size_t run, const Trainer& trainer) {
  std::exception_ptr checkpoint_failure;
  try {
    CheckpointSink::save(run, trainer);
  } catch (...) {
    checkpoint_failure = std::current_exception();
  }
  {
    MutexLock lock(mu_);
    slots_[run] = record_of(runs_[run], trainer.log());
    try {
      write();
    } catch (...) {
      if (!checkpoint_failure) throw;
    }
  }
  if (checkpoint_failure) std::rethrow_exception(checkpoint_failure);
}

void ResultsSink::failed(size_t run, const Trainer* trainer) noexcept {
  if (!trainer) return;  // it failed before it was built
  MutexLock lock(mu_);
  slots_[run] = record_of(runs_[run], trainer->log());
  try {
    write();
  } catch (...) {
  }
}

std::optional<Checkpoint> ResultsSink::ended_elsewhere(size_t run) {
  std::optional<Checkpoint> ck = CheckpointSink::ended_elsewhere(run);
  if (!ck) return ck;
  MutexLock lock(mu_);
  slots_[run] = record_of(runs_[run], ck->log);
  write();
  return ck;
}

std::vector<RunRecord> ResultsSink::records() {
  MutexLock lock(mu_);
  std::vector<RunRecord> all;
  for (auto& s : slots_) all.push_back(std::move(*s));
  return all;
}

void ResultsSink::write() {
  std::vector<RunRecord> all;
  for (const auto& s : slots_)
    if (s) all.push_back(*s);
  write_results(results_path_, all, shared_);
}

std::unique_ptr<CheckpointSink> make_result_sink(Cluster& world, const std::vector<StudyRun>& runs,
                                                 const std::string& results_path,
                                                 const std::map<std::string, std::string>& shared) {
  if (world.rank() != 0) return std::make_unique<CheckpointSink>(runs);
  return std::make_unique<ResultsSink>(runs, results_path, shared);
}

}  // namespace ordo
