// study/run_source.cpp: where a study's workers get their runs (see study/run_source.h).
#include "study/run_source.h"

#include <utility>

#include "core/error.h"
#include "study/interrupt.h"

namespace ordo {
namespace {

// "order/rope/seed0: <what>", after `who` ("rank 0: ") when several processes train; any
// exception other than ordo::Error passes unchanged.
std::exception_ptr named(const std::string& who, const std::string& label, std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const Error& e) {
    return std::make_exception_ptr(Error(who + label + ": " + e.what()));
  } catch (...) {
    return error;
  }
}

// The message of any exception ("unknown exception" when it has none).
std::string what_of(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

}  // namespace

std::exception_ptr RunSource::failure(const std::string& label, std::exception_ptr error) const {
  return named("", label, error);
}

// ---- GridSource ------------------------------------------------------------------------------

std::optional<size_t> GridSource::next(int) {
  MutexLock lock(mu_);
  while (next_ < finished_.size() && finished_[next_]) ++next_;
  if (next_ == finished_.size()) return std::nullopt;
  return next_++;
}

// ---- QueueSource -----------------------------------------------------------------------------

QueueSource::~QueueSource() { join(); }

void QueueSource::join() {
  if (serving_.joinable()) serving_.join();
}

void QueueSource::start(const QueueHandlers& handlers) {
  handlers_ = handlers;
  handlers_.take_next = [this]() { return grid_.next(-1); };
  serving_ = std::thread([this]() { server_.serve(handlers_); });
}

std::exception_ptr QueueSource::failure(const std::string& label, std::exception_ptr error) const {
  return named("rank 0: ", label, error);
}

std::exception_ptr QueueSource::finish(bool failed, bool stopped, const std::string& kept) {
  const std::string lost = server_.lost();  // ranks that went silent, with the runs they held
  server_.send_final(failed || !lost.empty() ? "failed" : stopped ? "stopped" : "ok");
  if (lost.empty()) return nullptr;
  return std::make_exception_ptr(Error(lost + "; " + kept + "; continue with --resume"));
}

// ---- ClientSource ----------------------------------------------------------------------------

ClientSource::~ClientSource() { join(); }

void ClientSource::join() {
  {
    MutexLock lock(mu_);
    workers_done_ = true;
  }
  if (heartbeat_.joinable()) heartbeat_.join();
}

// Says this rank is alive every kHeartbeatSeconds, whatever its runs are doing.
void ClientSource::start(const QueueHandlers&) {
  heartbeat_ = std::thread([this]() {
    for (;;) {
      {
        MutexLock lock(mu_);
        if (workers_done_) return;
      }
      client_.alive();
      std::this_thread::sleep_for(std::chrono::duration<double>(QueueClient::kHeartbeatSeconds));
    }
  });
}

void ClientSource::ended(size_t run, RunEnd end, std::exception_ptr error) {
  switch (end) {
    case RunEnd::finished: client_.done(run); break;  // its log reaches rank 0 by its checkpoint
    case RunEnd::stopped: client_.stopped(run); break;
    case RunEnd::failed: client_.failed(run, what_of(error)); break;
  }
}

// Rank 0 shows the progress of every rank, told once a second.
void ClientSource::step_done(const std::string& status) {
  MutexLock lock(mu_);
  ++unreported_steps_;
  if (std::chrono::steady_clock::now() - last_report_ <= std::chrono::seconds(1)) return;
  client_.progress(unreported_steps_, status);
  unreported_steps_ = 0;
  last_report_ = std::chrono::steady_clock::now();
}

// Rank 0 reports the failure (it names this rank); this rank only stops.
std::exception_ptr ClientSource::failure(const std::string& label, std::exception_ptr error) const {
  return std::make_exception_ptr(PeerFailure(label + ": " + what_of(error)));
}

// Rank 0 says how the study ended; a signal here, or this rank's own failure, says more.
std::exception_ptr ClientSource::finish(bool, bool stopped, const std::string&) {
  const std::string end = client_.finish();
  if (end == "ok" || stopped) return nullptr;
  return std::make_exception_ptr(PeerFailure(end));
}

std::unique_ptr<RunSource> make_run_source(Cluster& world, std::vector<bool> finished,
                                           std::vector<std::string> labels) {
  if (world.rank() != 0) return std::make_unique<ClientSource>(world);
  if (world.distributed()) return std::make_unique<QueueSource>(world, std::move(finished), std::move(labels));
  return std::make_unique<GridSource>(std::move(finished));
}

}  // namespace ordo
