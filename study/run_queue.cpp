// study/run_queue.cpp: a study's coordination over MPI (see study/run_queue.h).
#include "study/run_queue.h"

#include <cstdio>
#include <thread>
#include <utility>

#include "core/error.h"
#include "study/interrupt.h"

namespace ordo {
namespace {

// A rank silent this long is taken for dead: after a signal (mpirun signals every rank when
// one dies; the living answer within a heartbeat), or at any time (a launcher that lets the
// others run on).
constexpr double kSilentAfterSignal = 0.35, kSilentEver = 120;

}  // namespace

QueueServer::QueueServer(Cluster& world, std::vector<std::string> run_labels)
    : world_(world),
      labels_(std::move(run_labels)),
      finished_(static_cast<size_t>(world.size()), false),
      last_heard_(static_cast<size_t>(world.size()), Clock::now()) {}

bool QueueServer::others_left() const {
  for (int r = 1; r < world_.size(); ++r)
    if (!finished_[static_cast<size_t>(r)]) return true;
  return false;
}

void QueueServer::serve(const QueueHandlers& handlers) {
  for (;;) {
    {
      MutexLock lock(mu_);
      if (!others_left()) return;
    }
    const std::optional<ClusterMessage> m = world_.poll();
    if (!m) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    MutexLock lock(mu_);
    const Clock::time_point now = Clock::now();
    if (interrupt_signal() != 0) {
      handlers.stop();
      if (!signalled_) signalled_ = now;
    }
    if (handlers.stopping() && !stop_sent_) {
      for (int r = 1; r < world_.size(); ++r)
        if (!finished_[static_cast<size_t>(r)]) world_.send(r, QueueClient::kStop, "");
      stop_sent_ = true;
    }
    find_silent(now, handlers);
    if (!m) continue;
    last_heard_[static_cast<size_t>(m->from)] = now;
    handle(*m, handlers);
  }
}

void QueueServer::find_silent(Clock::time_point now, const QueueHandlers& handlers) {
  for (int r = 1; r < world_.size(); ++r) {
    const double silent_for = std::chrono::duration<double>(now - last_heard_[static_cast<size_t>(r)]).count();
    if (finished_[static_cast<size_t>(r)] || !(silent_for > kSilentEver || (signalled_ && silent_for > kSilentAfterSignal)))
      continue;
    std::string held;
    for (size_t i : held_[r]) held += (held.empty() ? "" : ", ") + labels_[i];
    lost_.push_back("rank " + std::to_string(r) + " went silent (killed or crashed) while training " +
                    (held.empty() ? std::string("no run") : held));
    std::fprintf(stderr, "ordo: %s\n", lost_.back().c_str());  // now: its launcher may end this rank too
    silent_.insert(r);
    finished_[static_cast<size_t>(r)] = true;
    handlers.stop();
  }
}

void QueueServer::handle(const ClusterMessage& m, const QueueHandlers& handlers) {
  switch (m.tag) {
    case QueueClient::kRequest: {
      std::optional<size_t> run;
      if (!handlers.stopping()) run = handlers.take_next();
      if (run) assigned(m.from, *run);
      world_.send(m.from, QueueClient::kAssign + std::stoi(m.bytes), run ? std::to_string(*run) : "-1");
      break;
    }
    case QueueClient::kDone:
    case QueueClient::kStopped:
    case QueueClient::kProgress:
      try {
        const size_t nl = m.bytes.find('\n');
        if (m.tag == QueueClient::kProgress) {
          handlers.progress(m.from, std::stoll(m.bytes.substr(0, nl)), m.bytes.substr(nl + 1));
        } else {
          const size_t run = static_cast<size_t>(std::stoll(m.bytes));
          released(m.from, run);
          handlers.run_ended(m.from, run, m.tag == QueueClient::kDone);
        }
      } catch (...) {
        handlers.fail(std::current_exception());
        handlers.stop();
      }
      break;
    case QueueClient::kFailed: {
      const size_t nl = m.bytes.find('\n');
      const size_t run = static_cast<size_t>(std::stoll(m.bytes.substr(0, nl)));
      released(m.from, run);
      handlers.fail(std::make_exception_ptr(
          Error("rank " + std::to_string(m.from) + ": " + labels_[run] + ": " + m.bytes.substr(nl + 1))));
      handlers.stop();
      break;
    }
    case QueueClient::kFinished:
      finished_[static_cast<size_t>(m.from)] = true;
      break;
    default:  // kAlive: the time heard is all it says
      break;
  }
}

void QueueServer::send_final(const std::string& end) {
  MutexLock lock(mu_);
  for (int r = 1; r < world_.size(); ++r)
    if (!silent_.count(r)) world_.send(r, QueueClient::kFinal, end);
}

std::string QueueServer::lost() const {
  MutexLock lock(mu_);
  std::string text;
  for (const std::string& l : lost_) text += (text.empty() ? "" : "; ") + l;
  return text;
}

std::optional<size_t> QueueClient::request(int id) {
  if (id < 0 || kAssign + id >= tags::kEnd)
    throw Error("study queue: worker " + std::to_string(id) + " has no reply tag (worker ids 0 to " +
                std::to_string(tags::kEnd - kAssign - 1) + ", cluster/tags.h)");
  world_.send(0, kRequest, std::to_string(id));
  const std::optional<ClusterMessage> reply = world_.wait(kAssign + id, 0);
  const long long run = std::stoll(reply->bytes);
  if (run < 0) return std::nullopt;
  return static_cast<size_t>(run);
}

std::string QueueClient::finish() {
  world_.send(0, kFinished, "");
  return world_.wait(kFinal, 0)->bytes;
}

}  // namespace ordo
