// core/parallel.h: OpenMP loops whose results never depend on the thread count.
//
// The rule every kernel follows: each output element is written by exactly one loop
// iteration, which computes it in a fixed order. Threads only decide which iterations
// run where, never how a sum is associated.
#pragma once

#include <cstdint>

#include <omp.h>

namespace ordo {

// for (i in [0, n)) body(i), iterations spread over the OpenMP threads.
// Small loops (n * cost below ~32k operations) stay on the calling thread.
template <class Body>
void parallel_for(int64_t n, int64_t cost_per_item, Body&& body) {
  if (n <= 0) return;
  if (n == 1 || n * cost_per_item < 32768 || omp_in_parallel() || omp_get_max_threads() == 1) {
    for (int64_t i = 0; i < n; ++i) body(i);
    return;
  }
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) body(i);
}

inline int num_threads() { return omp_get_max_threads(); }

}  // namespace ordo
