// tests/core/test_parallel.cpp: core/parallel.h's loops: every iteration runs once, on any
// thread count, and the thread-balance profile (`ordo bench --profile`) measures what it says.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>
#include <vector>

#include <omp.h>

#include "core/parallel.h"

using namespace ordo;

namespace {

// Sets the OpenMP thread count for one scope.
struct Threads {
  explicit Threads(int n) : saved(omp_get_max_threads()) { omp_set_num_threads(n); }
  ~Threads() { omp_set_num_threads(saved); }
  int saved;
};

}  // namespace

TEST_CASE("parallel_for runs every iteration exactly once on 1, 2 and 3 threads", "[parallel]") {
  for (int threads : {1, 2, 3})
    for (int64_t n : {1, 2, 7, 64, 1000})
      for (int64_t cost : {1, 100000}) {  // below and above the serial threshold
        Threads scope(threads);
        std::vector<int> hits(static_cast<size_t>(n), 0);
        parallel_for(n, cost, [&](int64_t i) { hits[static_cast<size_t>(i)] += 1; });
        CAPTURE(threads, n, cost);
        for (int h : hits) REQUIRE(h == 1);
      }
}

TEST_CASE("the parallel profile records multithreaded loops only while it is on", "[parallel]") {
  Threads scope(2);
  reset_parallel_stats();
  parallel_for(2, 100000, [](int64_t) {});
  CHECK(parallel_stats().loops == 0);  // profiling off

  set_parallel_profiling(true);
  parallel_for(2, 1, [](int64_t) {});  // small: runs on the calling thread, not a parallel loop
  CHECK(parallel_stats().loops == 0);
  parallel_for(2, 100000, [](int64_t) {});
  set_parallel_profiling(false);
  const ParallelStats s = parallel_stats();
  CHECK(s.loops == 1);
  CHECK(s.wall_seconds >= 0);
  CHECK(s.thread_seconds == Approx(2 * s.wall_seconds));
  CHECK(s.wait_seconds >= 0);
  CHECK(s.wait_seconds <= s.thread_seconds);
  reset_parallel_stats();
  CHECK(parallel_stats().loops == 0);
}

TEST_CASE("the parallel profile sees one thread waiting for a slow one", "[parallel]") {
  // Two iterations on two threads (static schedule: one each); iteration 0 sleeps 100 ms, so
  // the other thread waits ~100 ms of the loop's ~2 x 100 ms of thread time.
  Threads scope(2);
  reset_parallel_stats();
  set_parallel_profiling(true);
  parallel_for(2, 100000, [](int64_t i) {
    if (i == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  });
  set_parallel_profiling(false);
  const ParallelStats s = parallel_stats();
  REQUIRE(s.loops == 1);
  CHECK(s.wall_seconds >= 0.099);
  CHECK(s.wait_seconds > 0.05);
  CHECK(s.wait_seconds <= s.wall_seconds);
  CHECK(s.wait_seconds / s.thread_seconds > 0.25);
  reset_parallel_stats();
}
