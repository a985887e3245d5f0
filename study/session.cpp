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

// The one place a run's record is made, from whichever log holds its curves.
RunRecord record_of(const StudyRun& r, const RunLog& log) {
  return RunRecord{r.config.task.name, encoding_label(r.config.model), r.config.seed, log, r.settings, r.variant};
}

}  // namespace

std::vector<RunRecord> Session::run() {
  {
    MutexLock lock(mu_);
    for (size_t i = 0; i < runs_.size() && !remote_; ++i) {
      const StudyRun& r = runs_[i];
      if (!r.finished()) continue;
      slots_[i] = record_of(r, r.checkpoint->log);
      ++runs_done_;
      message(runs_done_text() + r.label() + ": finished earlier, skipped (" + eval_summary(r.checkpoint->log) + ")");
    }
    if (jobs_ > 1 && !world_.distributed())
      message(std::to_string(jobs_) + " runs at a time, " +
              (threads_ >= jobs_ ? std::to_string(threads_ / jobs_) : std::string("1")) +
              " OpenMP thread(s) each (--jobs; a run's numbers do not depend on it)");
  }
  // Rank 0 of an MPI job also serves the queue: the other ranks ask it for runs and tell it
  // what became of them.
  std::thread coordinator;
  if (server_)
    coordinator = std::thread([this]() {
      QueueHandlers handlers;
      handlers.stopping = [this]() {
        mu_.assert_held();
        return stopping_;
      };
      handlers.stop = [this]() {
        mu_.assert_held();
        stopping_ = true;
      };
      handlers.fail = [this](std::exception_ptr e) {
        mu_.assert_held();
        fail(e);
      };
      handlers.take_next = [this]() {
        mu_.assert_held();
        return take_next();
      };
      handlers.run_ended = [this](int rank, size_t i, bool done) {
        mu_.assert_held();
        remote_run_ended(rank, i, done);
      };
      handlers.progress = [this](int rank, int64_t steps, const std::string& status) {
        mu_.assert_held();
        steps_done_ += steps;
        if (progress_.update)
          progress_.update(steps_done_, total_steps_,
                           "runs " + std::to_string(runs_done_) + "/" + total_runs_ + " done | rank " +
                               std::to_string(rank) + ": " + status,
                           elapsed());
      };
      server_->serve(handlers);  // takes mu_ for each message and calls the handlers with it held
    });
  std::thread heartbeat;  // a rank other than 0 says it is alive, whatever its runs are doing
  if (remote_)
    heartbeat = std::thread([this]() {
      for (;;) {
        {
          MutexLock lock(mu_);
          if (workers_done_) return;
        }
        client_->alive();
        std::this_thread::sleep_for(std::chrono::duration<double>(QueueClient::kHeartbeatSeconds));
      }
    });
  if (jobs_ == 1) {
    worker(0);
    omp_set_num_threads(threads_);
  } else {
    std::vector<std::thread> pool;
    for (int id = 0; id < jobs_; ++id) pool.emplace_back([this, id]() { worker(id); });
    for (std::thread& t : pool) t.join();
  }
  if (coordinator.joinable()) coordinator.join();

  if (remote_) {  // rank 0 says how the study ended; it reports any failure, once
    {
      MutexLock lock(mu_);
      workers_done_ = true;
    }
    heartbeat.join();
    const std::string end = client_->finish();
    MutexLock lock(mu_);
    if (failure_) std::rethrow_exception(failure_);
    if (interrupt_signal() != 0) throw Interrupted(interrupt_signal(), signal_name(interrupt_signal()));
    if (end != "ok") throw PeerFailure(end);
    return {};
  }
  const std::string lost = server_ ? server_->lost() : "";  // ranks that went silent, with the runs they held
  MutexLock lock(mu_);
  if (server_) {
    const std::string end = failure_ || !lost.empty() ? "failed" : interrupt_signal() != 0 ? "stopped" : "ok";
    lock.unlock();
    server_->send_final(end);
    lock.lock();
    if (!lost.empty() && !failure_)
      failure_ = std::make_exception_ptr(Error(lost + "; " + std::to_string(runs_done_) + " of " + total_runs_ +
                                               " runs finished and kept; continue with --resume"));
  }
  if (failure_) std::rethrow_exception(failure_);
  if (interrupt_signal() != 0) {
    const int64_t unfinished = static_cast<int64_t>(runs_.size()) - runs_done_;
    throw Interrupted(interrupt_signal(),
                      signal_name(interrupt_signal()) + ": " + std::to_string(runs_done_) + " of " + total_runs_ +
                          " runs finished, the " + std::to_string(unfinished) +
                          " others checkpointed or not started; continue with --resume");
  }
  std::vector<RunRecord> records;
  for (auto& s : slots_) records.push_back(std::move(*s));
  return records;
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

std::optional<size_t> Session::next_run(int id, int& my_threads) {
  MutexLock lock(mu_);
  if (interrupt_signal() != 0) stopping_ = true;  // no new run after a signal
  if (stopping_) return std::nullopt;
  std::optional<size_t> run;
  if (remote_) {  // ask rank 0's queue, without holding up this rank's other runs
    lock.unlock();
    run = client_->request(id);
    lock.lock();
    if (run && stopping_) {  // stopped while asking: given back, not started
      client_->stopped(*run);
      return std::nullopt;
    }
  } else {
    run = take_next();
  }
  if (run) share_threads(my_threads);
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
    {
      MutexLock lock(mu_);
      fs::create_directories(fs::path(r.checkpoint_path).parent_path());
    }
    trainer->run([&](const StepInfo& s) { return on_step(id, i, *trainer, s, clock, my_threads); },
                 [&] { return after_final_length(id, i, *trainer, clock, my_threads); });
  } catch (...) {
    error = std::current_exception();
  }
  MutexLock lock(mu_);
  status_[static_cast<size_t>(id)].clear();
  if (error) run_failed(i, trainer.get(), error);
  else if (!trainer->finished()) run_stopped(i);
  else run_finished(i, *trainer);
}

// After each training step: the progress line, the checkpoints, and whether to go on.
bool Session::on_step(int id, size_t i, const Trainer& trainer, const StepInfo& s, CheckpointClock& clock,
                      int& my_threads) {
  const StudyRun& r = runs_[i];
  MutexLock lock(mu_);
  if (interrupt_signal() != 0) stopping_ = true;            // checkpointed below, then stopped
  if (remote_ && client_->stop_requested()) stopping_ = true;  // another rank failed or stopped
  share_threads(my_threads);
  char text[160];
  std::snprintf(text, sizeof text, "%s %lld/%lld loss %.4f", r.label().c_str(), static_cast<long long>(s.step + 1),
                static_cast<long long>(s.total), s.loss);
  status_[static_cast<size_t>(id)] = text;
  ++steps_done_;
  if (remote_) {  // rank 0 shows the progress of every rank, told once a second
    ++unreported_steps_;
    if (std::chrono::steady_clock::now() - last_report_ > std::chrono::seconds(1)) {
      client_->progress(unreported_steps_, text);
      unreported_steps_ = 0;
      last_report_ = std::chrono::steady_clock::now();
    }
  } else {
    show_progress();
  }
  // Stopping (another run failed, a signal): keep this run's state so that Resume continues it.
  const int64_t every = options_.ckpt_every;
  const bool by_step = every > 0 && (s.step + 1) % every == 0;
  const bool last = trainer.trained();  // before the final sweep, if one is left
  if (stopping_ || (last ? !trainer.finished() : by_step || clock.due())) save_state(i, trainer, clock);
  return !stopping_;
}

// After each length of the final sweep, which can take hours: a checkpoint when due, and
// whether to go on.
bool Session::after_final_length(int id, size_t i, const Trainer& trainer, CheckpointClock& clock,
                                 int& my_threads) {
  const StudyRun& r = runs_[i];
  MutexLock lock(mu_);
  if (interrupt_signal() != 0) stopping_ = true;
  if (remote_ && client_->stop_requested()) stopping_ = true;
  share_threads(my_threads);  // the cores of runs that ended meanwhile
  const size_t all = r.config.eval_lens_final.size();
  status_[static_cast<size_t>(id)] = r.label() + " final lengths " +
                                     std::to_string(all - final_lengths_pending(r.config, trainer.log()).size()) +
                                     "/" + std::to_string(all);
  if (!remote_) show_progress();
  if (stopping_ || clock.due()) save_state(i, trainer, clock);
  return !stopping_;
}

// "runs k/N done | <run> 310/1200 loss 0.5 | ...": one status per run in training.
void Session::show_progress() {
  if (!progress_.update) return;
  std::string line = "runs " + std::to_string(runs_done_) + "/" + total_runs_ + " done";
  for (const std::string& st : status_)
    if (!st.empty()) line += " | " + st;
  progress_.update(steps_done_, total_steps_, line, elapsed());
}

void Session::save_state(size_t i, const Trainer& trainer, CheckpointClock& clock) {
  const StudyRun& r = runs_[i];
  save_checkpoint(r.checkpoint_path, trainer.checkpoint());
  if (!remote_) {  // rank 0 writes results.h5; the others' curves reach it by their checkpoints
    slots_[i] = record_of(r, trainer.log());
    save_results();
  }
  clock.reset();
}

void Session::run_failed(size_t i, const Trainer* trainer, std::exception_ptr error) {
  const StudyRun& r = runs_[i];
  stopping_ = true;
  if (remote_) {  // rank 0 names the run and this rank, and stops the others
    std::string what = "unknown exception";
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    client_->failed(i, what);
    fail(std::make_exception_ptr(PeerFailure(r.label() + ": " + what)));
    return;
  }
  if (trainer) {  // the curve up to the fault; rerun with Resume after fixing the settings
    slots_[i] = record_of(r, trainer->log());
    try {
      save_results();
    } catch (...) {
    }
  }
  try {  // named by its run: other runs may have been training beside it
    std::rethrow_exception(error);
  } catch (const Error& e) {
    fail(std::make_exception_ptr(Error((world_.distributed() ? "rank 0: " : "") + r.label() + ": " + e.what())));
  } catch (...) {
    fail(error);
  }
}

// Stopped by another run's failure or a signal, and checkpointed.
void Session::run_stopped(size_t i) {
  if (remote_) client_->stopped(i);
}

void Session::run_finished(size_t i, const Trainer& trainer) {
  const StudyRun& r = runs_[i];
  if (remote_) {  // the checkpoint holds the log: rank 0 reads it from the shared directory
    try {
      save_checkpoint(r.checkpoint_path, trainer.checkpoint());
      client_->done(i);
    } catch (const std::exception& e) {
      client_->failed(i, e.what());
      fail(std::make_exception_ptr(PeerFailure(r.label() + ": " + e.what())));
      stopping_ = true;
      return;
    }
    ++runs_done_;
    ++trained_;
    return;
  }
  try {  // the log reaches results.h5 even when the checkpoint cannot be written
    slots_[i] = record_of(r, trainer.log());
    std::exception_ptr checkpoint_failure;
    try {
      save_checkpoint(r.checkpoint_path, trainer.checkpoint());
    } catch (...) {
      checkpoint_failure = std::current_exception();
    }
    try {
      save_results();
    } catch (...) {
      if (!checkpoint_failure) throw;
    }
    if (checkpoint_failure) std::rethrow_exception(checkpoint_failure);
  } catch (...) {
    fail(std::current_exception());
    stopping_ = true;
    return;
  }
  ++runs_done_;
  ++trained_;
  steps_done_ += r.config.steps - trainer.step();  // a --until-learned run that stopped early: its steps not taken
  message(runs_done_text() + r.label() + ": " + eval_summary(trainer.log()) + " (" +
          format_duration(trainer.log().total_wall_seconds) + ")");
}

void Session::remote_run_ended(int rank, size_t i, bool done) {
  const StudyRun& r = runs_[i];
  if (!fs::exists(r.checkpoint_path)) return;  // stopped before its first checkpoint
  const Checkpoint ck = load_checkpoint(r.checkpoint_path);
  slots_[i] = record_of(r, ck.log);
  save_results();
  if (!done) return;
  ORDO_CHECK(ck.step == last_step(r.config, ck.log), "rank ", rank, " reported ", r.label(),
             " finished, but its checkpoint ", r.checkpoint_path, " is at step ", ck.step, " of ",
             last_step(r.config, ck.log));
  ORDO_CHECK(final_lengths_pending(r.config, ck.log).empty(), "rank ", rank, " reported ", r.label(),
             " finished, but its checkpoint ", r.checkpoint_path, " lacks ",
             final_lengths_pending(r.config, ck.log).size(), " of its --eval-lens-final lengths");
  ++runs_done_;
  ++trained_;
  steps_done_ += r.config.steps - ck.step;  // a --until-learned run that stopped early: its steps not taken
  message(runs_done_text() + r.label() + ": " + eval_summary(ck.log) + " (" + format_duration(ck.log.total_wall_seconds) +
          ", rank " + std::to_string(rank) + ")");
}

std::optional<size_t> Session::take_next() {
  while (next_ < runs_.size() && runs_[next_].finished()) ++next_;
  if (next_ == runs_.size()) return std::nullopt;
  return next_++;
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

void Session::fail(std::exception_ptr error) {
  if (!failure_) failure_ = error;
}

void Session::save_results() {
  std::vector<RunRecord> all;
  for (const auto& s : slots_)
    if (s) all.push_back(*s);
  write_results(results_path_, all, shared_);
}

}  // namespace ordo
