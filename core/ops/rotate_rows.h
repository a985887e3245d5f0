// core/ops/rotate_rows.h: the pair rotation of one row, shared by rotate_pairs
// (core/ops/positional.cpp) and linear_rotate (core/ops/matmul.cpp), which must agree bit
// for bit: both run this code.
//
//   forward : (y0, y1) = (x0 cos - x1 sin, x0 sin + x1 cos)      y = R(theta) x
//   backward: (d0, d1) -> (d0 cos + d1 sin, -d0 sin + d1 cos)     dx = R(theta)^T dy
// for each pair (2i, 2i+1) of a row of 2 half values, with cos[i], sin[i] of its position.
#pragma once

#include <cstdint>

#include "core/tape.h"

namespace ordo {

// y = R(theta) x; y may be x itself (in place).
inline void rotate_row(const Real* x, Real* y, const Real* __restrict c, const Real* __restrict s, int64_t half) {
  for (int64_t i = 0; i < half; ++i) {
    const Real x0 = x[2 * i], x1 = x[2 * i + 1];
    y[2 * i] = x0 * c[i] - x1 * s[i];
    y[2 * i + 1] = x0 * s[i] + x1 * c[i];
  }
}

// dx (+)= R(theta)^T dy, each element delivered through `into` (Tape::Store or Tape::Add).
template <class Into>
inline void rotate_row_back(const Real* __restrict dy, Real* __restrict dx, const Real* __restrict c,
                            const Real* __restrict s, int64_t half, Into into) {
  for (int64_t i = 0; i < half; ++i) {
    const Real d0 = dy[2 * i], d1 = dy[2 * i + 1];
    const Real g0 = d0 * c[i] + d1 * s[i], g1 = -d0 * s[i] + d1 * c[i];
    into(dx[2 * i], g0);
    into(dx[2 * i + 1], g1);
  }
}

}  // namespace ordo
