// core/parallel.h: OpenMP loops whose results never depend on the thread count.
//
// The rule every kernel follows: each output element is written by exactly one loop
// iteration, which computes it in a fixed order. Threads only decide which iterations
// run where, never how a sum is associated.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>

#include <omp.h>

namespace ordo {

// Thread balance of the parallel loops, for `ordo bench --profile`. While profiling is on,
// every loop that runs on several threads records its wall time (from the fork to the last
// thread's finish) and, for each thread, how long it then waited for the slowest one. Off
// (the default) a loop pays one relaxed atomic load.
struct ParallelStats {
  int64_t loops = 0;          // loops that ran on more than one thread
  double wall_seconds = 0;    // their summed wall time
  double thread_seconds = 0;  // threads x wall time, summed over the loops
  double wait_seconds = 0;    // time threads spent finished, waiting for the slowest one
};

namespace detail {
inline std::atomic<bool> parallel_profiling{false};
inline std::mutex parallel_stats_mutex;
inline ParallelStats parallel_stats;
}  // namespace detail

inline void set_parallel_profiling(bool on) { detail::parallel_profiling.store(on, std::memory_order_relaxed); }
inline ParallelStats parallel_stats() {
  std::lock_guard<std::mutex> lock(detail::parallel_stats_mutex);
  return detail::parallel_stats;
}
inline void reset_parallel_stats() {
  std::lock_guard<std::mutex> lock(detail::parallel_stats_mutex);
  detail::parallel_stats = ParallelStats{};
}

// The static loop of parallel_for with each thread's finish time taken (profiling on).
template <class Body>
void timed_parallel_for(int64_t n, Body& body) {
  constexpr int kMaxThreads = 256;
  double finish[kMaxThreads];
  int threads = 1;
  const double start = omp_get_wtime();
#pragma omp parallel
  {
#pragma omp for schedule(static) nowait
    for (int64_t i = 0; i < n; ++i) body(i);
    const int t = omp_get_thread_num();
    if (t < kMaxThreads) finish[t] = omp_get_wtime();
#pragma omp single nowait
    threads = std::min(omp_get_num_threads(), kMaxThreads);
  }
  const double last = *std::max_element(finish, finish + threads);
  double wait = 0;
  for (int t = 0; t < threads; ++t) wait += last - finish[t];
  std::lock_guard<std::mutex> lock(detail::parallel_stats_mutex);
  ParallelStats& s = detail::parallel_stats;
  s.loops += 1;
  s.wall_seconds += last - start;
  s.thread_seconds += threads * (last - start);
  s.wait_seconds += wait;
}

// for (i in [0, n)) body(i), iterations spread over the OpenMP threads.
// Small loops (n * cost below ~32k operations) stay on the calling thread.
template <class Body>
void parallel_for(int64_t n, int64_t cost_per_item, Body&& body) {
  if (n <= 0) return;
  if (n == 1 || n * cost_per_item < 32768 || omp_in_parallel() || omp_get_max_threads() == 1) {
    for (int64_t i = 0; i < n; ++i) body(i);
    return;
  }
  if (detail::parallel_profiling.load(std::memory_order_relaxed)) {
    timed_parallel_for(n, body);
    return;
  }
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) body(i);
}

inline int num_threads() { return omp_get_max_threads(); }

// Elements per work item of the element-by-element loops (the ops of elementwise.cpp,
// unary.cpp, shape.cpp, reduce.cpp and dropout.cpp): a multiple of every vector width. The
// sums of reduce.cpp are taken in these chunks, so it fixes their association too.
constexpr int64_t kElementChunk = 4096;

}  // namespace ordo
