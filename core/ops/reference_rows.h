// core/ops/reference_rows.h: the loops the plain reference kernels (attention_reference.cpp,
// stickbreaking_reference.cpp, path_reference.cpp) share, one row at a time: a dot product
// summed in index order and a per-thread scratch buffer. Plain on purpose: the reference
// kernels are the readable form the fast kernels are held to, not fast.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/tensor.h"

namespace ordo {

// x[0] y[0] + x[1] y[1] + ... + x[d-1] y[d-1], summed in that order.
inline Real reference_dot(const Real* x, const Real* y, int64_t d) {
  Real acc = 0;
  for (int64_t c = 0; c < d; ++c) acc += x[c] * y[c];
  return acc;
}

// At least n Reals of this thread's scratch, kept between calls (contents unspecified).
inline Real* reference_scratch(size_t n) {
  thread_local std::vector<Real> buffer;
  if (buffer.size() < n) buffer.resize(n);
  return buffer.data();
}

}  // namespace ordo
