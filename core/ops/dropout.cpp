// core/ops/dropout.cpp: inverted dropout with a counter-based mask.
//
//   keep_i = u_i >= p,   u_i = word (i mod 4) of philox4x32(seed, stream, i / 4) / 2^32
//   y_i = keep_i ? x_i / (1 - p) : 0,   dx_i = keep_i ? dy_i / (1 - p) : 0
// The mask is a pure function of (seed, stream, i): the same for any thread count and
// any split of the work. It is not stored: the backward regenerates it (10 Philox rounds
// per 4 elements cost less than keeping a mask tensor alive until backward).
#include <algorithm>
#include <cstdint>

#include "core/ops.h"
#include "core/parallel.h"
#include "core/rng.h"

namespace ordo {
namespace {


// For each i in [0, n): body(i, keep_i), chunk by chunk; each chunk is one iteration.
template <class Body>
void for_each_mask(int64_t n, Real p, uint64_t seed, uint64_t stream, Body&& body) {
  const double threshold = static_cast<double>(p) * 4294967296.0;  // p * 2^32
  const int64_t chunks = (n + kElementChunk - 1) / kElementChunk;
  parallel_for(chunks, kElementChunk * 8, [&](int64_t c) {
    const int64_t begin = c * kElementChunk, end = std::min(n, begin + kElementChunk);
    for (int64_t block = begin / 4; block * 4 < end; ++block) {
      const auto words = philox4x32(seed, stream, static_cast<uint64_t>(block));
      for (int k = 0; k < 4; ++k) {
        const int64_t i = block * 4 + k;
        if (i >= end) break;
        body(i, static_cast<double>(words[k]) >= threshold);
      }
    }
  });
}

}  // namespace

Var dropout(Tape& t, Var a, Real p, uint64_t seed, uint64_t stream) {
  ORDO_CHECK(p >= 0 && p < 1, "dropout: p must be in [0, 1), got ", p);
  if (p == 0) return a;  // identity: no node, no copy
  const Tensor& A = t.value(a);  // (...)
  const Real keep_scale = static_cast<Real>(1.0 / (1.0 - static_cast<double>(p)));
  Tensor out = Tensor::empty(A.shape());  // (...)
  const Real* x = A.data();
  Real* y = out.data();
  const int64_t n = A.numel();
  for_each_mask(n, p, seed, stream, [&](int64_t i, bool keep) { y[i] = keep ? x[i] * keep_scale : Real(0); });

  return t.push("dropout", std::move(out), [a, p, seed, stream, keep_scale, n](Tape& t, const Tensor& dY) {
    if (!t.needs_grad(a)) return;
    const Real* dy = dY.data();
    t.add_grad(a, Tape::summed, [&](auto, Real* dx) {  // dropped elements get nothing
      for_each_mask(n, p, seed, stream, [&](int64_t i, bool keep) {
        if (keep) dx[i] += dy[i] * keep_scale;
      });
    });
  }, {a});
}

}  // namespace ordo
