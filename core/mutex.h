// core/mutex.h: a mutex whose locking rules are written beside the data it guards.
//
// LevelDB's idiom (port/thread_annotations.h, util/mutexlock.h): shared state is declared
// with the mutex that guards it, and a function that needs the lock held says so:
//
//   Mutex mu_;
//   int64_t runs_done_ GUARDED_BY(mu_) = 0;
//   void record(size_t run) REQUIRES(mu_);       // called with mu_ held
//   ...
//   MutexLock lock(mu_);                         // held until the end of the scope
//   mu_.assert_held();                           // in a callback run with mu_ held
//
// The words are for the reader first. Clang checks them (-Wthread-safety: reading a
// GUARDED_BY member without its mutex, or calling a REQUIRES function without it, is an
// error); tests/shell/test_thread_safety.sh runs that check on every file that includes
// this header. GCC, which builds ordo, ignores them.
#pragma once

#include <mutex>

#if defined(__clang__)
#define ORDO_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define ORDO_THREAD_ANNOTATION(x)
#endif

#define CAPABILITY(x) ORDO_THREAD_ANNOTATION(capability(x))
#define SCOPED_CAPABILITY ORDO_THREAD_ANNOTATION(scoped_lockable)
#define GUARDED_BY(x) ORDO_THREAD_ANNOTATION(guarded_by(x))
#define PT_GUARDED_BY(x) ORDO_THREAD_ANNOTATION(pt_guarded_by(x))
#define REQUIRES(...) ORDO_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define EXCLUDES(...) ORDO_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define ACQUIRE(...) ORDO_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define RELEASE(...) ORDO_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define ASSERT_CAPABILITY(x) ORDO_THREAD_ANNOTATION(assert_capability(x))

namespace ordo {

class CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;
  void lock() ACQUIRE() { mu_.lock(); }
  void unlock() RELEASE() { mu_.unlock(); }
  // Says, where the analysis cannot see it (a callback documented to run with the lock
  // held), that the caller holds this mutex. Checks nothing at run time.
  void assert_held() const ASSERT_CAPABILITY(this) {}

 private:
  std::mutex mu_;
};

// Holds `mu` from construction to the end of the scope. unlock() and lock() let go of it
// and take it again within the scope (around a blocking call that must not hold it).
class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mu) ACQUIRE(mu) : mu_(mu) { mu_.lock(); }
  ~MutexLock() RELEASE() {
    if (held_) mu_.unlock();
  }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;
  void unlock() RELEASE() {
    mu_.unlock();
    held_ = false;
  }
  void lock() ACQUIRE() {
    mu_.lock();
    held_ = true;
  }

 private:
  Mutex& mu_;
  bool held_ = true;
};

}  // namespace ordo
