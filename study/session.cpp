// study/session.cpp: one Study::run as it trains (see study/session.h).
#include "study/session.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include <omp.h>

#include "cluster/shared_cores.h"
#include "core/parallel.h"
#include "core/strings.h"
#include "io/atomic_file.h"
#include "io/checkpoint_file.h"
#include "layers/model.h"
#include "study/interrupt.h"
#include "train/settings.h"
#include "train/stopping.h"

namespace ordo {
namespace fs = std::filesystem;

namespace {

std::vector<bool> finished_runs(const std::vector<StudyRun>& runs) {
  std::vector<bool> finished;
  for (const StudyRun& r : runs) finished.push_back(r.finished());
  return finished;
}

std::vector<std::string> labels(const std::vector<StudyRun>& runs) {
  std::vector<std::string> all;
  for (const StudyRun& r : runs) all.push_back(r.label());
  return all;
}

}  // namespace

Session::Session(const std::vector<StudyRun>& runs, const StudyOptions& options, const StudyProgress& progress,
                 const std::map<std::string, std::string>& shared, const std::string& results_path, int threads,
                 int jobs, int64_t total_steps)
    : runs_(runs),
      options_(options),
      progress_(progress),
      world_(cluster()),
      threads_(threads),
      jobs_(jobs),
      total_steps_(total_steps),
      total_runs_(std::to_string(runs.size())),
      t0_(std::chrono::steady_clock::now()),
      source_(make_run_source(world_, finished_runs(runs), labels(runs))),
      sink_(make_result_sink(world_, runs, results_path, shared)),
      shows_progress_(source_->shows_progress()),
      status_(static_cast<size_t>(jobs)),
      workers_left_(jobs) {}

std::vector<RunRecord> Session::run() {
  {
    MutexLock lock(mu_);
    for (size_t i : sink_->take_finished_earlier()) {
      ++runs_done_;
      message(runs_done_text() + runs_[i].label() + ": finished earlier, skipped (" +
              eval_summary(runs_[i].finished_log()) + ")");
    }
    if (jobs_ > 1 && !world_.distributed())
      message(std::to_string(jobs_) + " runs at a time, " +
              (threads_ >= jobs_ ? std::to_string(threads_ / jobs_) : std::string("1")) +
              " OpenMP thread(s) each (--jobs; a run's numbers do not depend on it)");
  }
  source_->start(queue_handlers());  // rank 0's queue for the other ranks; a remote rank's heartbeat
  if (jobs_ == 1) {
    worker(0);
    omp_set_num_threads(threads_);
  } else {
    std::vector<std::thread> pool;
    for (int id = 0; id < jobs_; ++id) pool.emplace_back([this, id]() { worker(id); });
    for (std::thread& t : pool) t.join();
  }

  source_->join();  // rank 0: the other ranks finished or went silent
  bool failed;
  std::string kept;
  {
    MutexLock lock(mu_);
    failed = failure_ != nullptr;
    kept = std::to_string(runs_done_) + " of " + total_runs_ + " runs finished and kept";
  }
  // The signal is read once: rank 0 tells the other ranks "stopped" exactly when it stops
  // here, so that no rank goes on to a further round that another has left (a signal after
  // this read stops the next round's runs instead).
  const int signal = interrupt_signal();
  const std::exception_ptr ended = source_->finish(failed, signal != 0, kept);  // settled with the other ranks
  MutexLock lock(mu_);
  fail(ended);
  if (failure_) std::rethrow_exception(failure_);
  if (signal != 0) {
    if (!shows_progress_) throw Interrupted(signal, signal_name(signal));
    const int64_t unfinished = static_cast<int64_t>(runs_.size()) - runs_done_;
    throw Interrupted(signal,
                      signal_name(signal) + ": " + std::to_string(runs_done_) + " of " + total_runs_ +
                          " runs finished, the " + std::to_string(unfinished) +
                          " others checkpointed or not started; continue with --resume");
  }
  return sink_->records();
}

QueueHandlers Session::queue_handlers() {
  QueueHandlers handlers;
  handlers.stopping = [this]() {
    MutexLock lock(mu_);
    return stopping_;
  };
  handlers.stop = [this]() {
    MutexLock lock(mu_);
    stopping_ = true;
  };
  handlers.fail = [this](std::exception_ptr e) {
    MutexLock lock(mu_);
    fail(e);
  };
  handlers.run_ended = [this](int rank, size_t i, bool done) { ended_elsewhere(rank, i, done); };
  handlers.progress = [this](int rank, int64_t steps, const std::string& status) {
    MutexLock lock(mu_);
    steps_done_ += steps;
    if (progress_.update)
      progress_.update(steps_done_, total_steps_,
                       "runs " + std::to_string(runs_done_) + "/" + total_runs_ + " done | rank " +
                           std::to_string(rank) + ": " + status,
                       elapsed());
  };
  return handlers;
}

// One exit: the loop ends when no run is left or the study stops (every failure sets
// stopping_, so a failed run's worker asks for no other).
void Session::worker(int id) {
  int my_threads = 0;
  while (const std::optional<size_t> i = next_run(id, my_threads)) train(id, *i, my_threads);
  MutexLock lock(mu_);
  --workers_left_;
  status_[static_cast<size_t>(id)].clear();
}

bool Session::check_stopping(bool asked) {
  if (interrupt_signal() != 0 || asked) stopping_ = true;
  return stopping_;
}

std::optional<size_t> Session::next_run(int id, int& my_threads) {
  {
    MutexLock lock(mu_);
    if (interrupt_signal() != 0) stopping_ = true;  // no new run after a signal
    if (stopping_) return std::nullopt;
  }
  const std::optional<size_t> run = source_->next(id);  // a remote rank waits for rank 0
  if (!run) return std::nullopt;
  MutexLock lock(mu_);
  if (stopping_) {  // stopped while asking: given back, not started
    lock.unlock();
    source_->ended(*run, RunEnd::stopped, nullptr);
    return std::nullopt;
  }
  share_threads(my_threads);
  return run;
}

void Session::train(int id, size_t i, int& my_threads) {
  const StudyRun& r = runs_[i];
  std::unique_ptr<Trainer> trainer;
  CheckpointClock clock(options_.ckpt_minutes);
  std::exception_ptr error;
  try {
    trainer = std::make_unique<Trainer>(r.config);
    if (r.checkpoint) trainer->restore(*r.checkpoint);
    sink_->prepare(i);
    trainer->run([&](const StepInfo& s) { return on_step(id, i, *trainer, s, clock, my_threads); },
                 [&] { return after_final_length(id, i, *trainer, clock, my_threads); });
  } catch (...) {
    error = std::current_exception();
  }
  {
    MutexLock lock(mu_);
    status_[static_cast<size_t>(id)].clear();
  }
  if (error) run_failed(i, trainer.get(), error);
  else if (!trainer->finished()) source_->ended(i, RunEnd::stopped, nullptr);  // checkpointed
  else run_finished(i, *trainer);
}

// After each training step: the progress line, the checkpoints, and whether to go on.
bool Session::on_step(int id, size_t i, const Trainer& trainer, const StepInfo& s, CheckpointClock& clock,
                      int& my_threads) {
  const StudyRun& r = runs_[i];
  char text[160];
  std::snprintf(text, sizeof text, "%s %lld/%lld loss %.4f", r.label().c_str(), static_cast<long long>(s.step + 1),
                static_cast<long long>(s.total), s.loss);
  const bool asked = source_->stop_requested();  // another rank failed or stopped
  bool stopping;
  {
    MutexLock lock(mu_);
    stopping = check_stopping(asked);  // checkpointed below, then stopped
    share_threads(my_threads);
    status_[static_cast<size_t>(id)] = text;
    ++steps_done_;
    if (shows_progress_) show_progress();
  }
  source_->step_done(text);
  // Stopping (another run failed, a signal): keep this run's state so that Resume continues it.
  const int64_t every = options_.ckpt_every;
  const bool by_step = every > 0 && (s.step + 1) % every == 0;
  const bool last = trainer.trained();  // before the final sweep, if one is left
  if (stopping || (last ? !trainer.finished() : by_step || clock.due())) {
    sink_->save(i, trainer);
    clock.reset();
  }
  return !stopping;
}

// After each length of the final sweep, which can take hours: a checkpoint when due, and
// whether to go on.
bool Session::after_final_length(int id, size_t i, const Trainer& trainer, CheckpointClock& clock,
                                 int& my_threads) {
  const StudyRun& r = runs_[i];
  const bool asked = source_->stop_requested();
  bool stopping;
  {
    MutexLock lock(mu_);
    stopping = check_stopping(asked);
    share_threads(my_threads);  // the cores of runs that ended meanwhile
    const size_t all = r.config.eval_lens_final.size();
    status_[static_cast<size_t>(id)] = r.label() + " final lengths " +
                                       std::to_string(all - final_lengths_pending(r.config, trainer.log()).size()) +
                                       "/" + std::to_string(all);
    if (shows_progress_) show_progress();
  }
  if (stopping || clock.due()) {
    sink_->save(i, trainer);
    clock.reset();
  }
  return !stopping;
}

// "runs k/N done | <run> 310/1200 loss 0.5 | ...": one status per run in training.
void Session::show_progress() {
  if (!progress_.update) return;
  std::string line = "runs " + std::to_string(runs_done_) + "/" + total_runs_ + " done";
  for (const std::string& st : status_)
    if (!st.empty()) line += " | " + st;
  progress_.update(steps_done_, total_steps_, line, elapsed());
}

void Session::run_failed(size_t i, const Trainer* trainer, std::exception_ptr error) {
  {
    MutexLock lock(mu_);
    stopping_ = true;
  }
  sink_->failed(i, trainer);  // the curve up to the fault; rerun with Resume after fixing the settings
  source_->ended(i, RunEnd::failed, error);  // a remote rank: rank 0 names the run and the rank, and stops the others
  MutexLock lock(mu_);
  fail(source_->failure(runs_[i].label(), error));  // named by its run: others may train beside it
}

void Session::run_finished(size_t i, const Trainer& trainer) {
  const StudyRun& r = runs_[i];
  try {
    sink_->finished(i, trainer);
  } catch (...) {
    run_failed(i, &trainer, std::current_exception());
    return;
  }
  source_->ended(i, RunEnd::finished, nullptr);
  MutexLock lock(mu_);
  ++runs_done_;
  ++trained_;
  steps_done_ += r.config.steps - trainer.step();  // a --until-learned run that stopped early: its steps not taken
  if (shows_progress_)
    message(runs_done_text() + r.label() + ": " + eval_summary(trainer.log()) + " (" +
            format_duration(trainer.log().total_wall_seconds) + ")");
}

void Session::ended_elsewhere(int rank, size_t i, bool done) {
  const StudyRun& r = runs_[i];
  const std::optional<Checkpoint> ck = sink_->ended_elsewhere(i);  // its record, into results.h5
  if (!done || !ck) return;
  ORDO_CHECK(ck->step == last_step(r.config, ck->log), "rank ", rank, " reported ", r.label(),
             " finished, but its checkpoint ", r.checkpoint_path, " is at step ", ck->step, " of ",
             last_step(r.config, ck->log));
  ORDO_CHECK(final_lengths_pending(r.config, ck->log).empty(), "rank ", rank, " reported ", r.label(),
             " finished, but its checkpoint ", r.checkpoint_path, " lacks ",
             final_lengths_pending(r.config, ck->log).size(), " of its --eval-lens-final lengths");
  MutexLock lock(mu_);
  ++runs_done_;
  ++trained_;
  steps_done_ += r.config.steps - ck->step;  // a --until-learned run that stopped early: its steps not taken
  message(runs_done_text() + r.label() + ": " + eval_summary(ck->log) + " (" + format_duration(ck->log.total_wall_seconds) +
          ", rank " + std::to_string(rank) + ")");
}

// The threads of workers that left go to the rest, within this process's share of the cores
// (cluster/shared_cores.h).
void Session::share_threads(int& my_threads) {
  const CoreShare share = shared_cores();
  if (share.processes != sharing_processes_) {
    if (sharing_processes_ != 0 || share.processes > 1) message(describe(share));
    sharing_processes_ = share.processes;
  }
  const int want = std::max(1, std::min(threads_, share.threads) / workers_left_);
  if (want != my_threads) omp_set_num_threads(my_threads = want);
}

}  // namespace ordo
