#include "train/random_positions.h"

#include "core/error.h"
#include "core/rng.h"

namespace ordo {

std::vector<int32_t> random_positions(uint64_t seed, uint64_t stream, int64_t n, int64_t N) {
  ORDO_CHECK(n >= 0 && n <= N, "random positions: cannot draw ", n, " distinct positions from [0, ", N, ")");
  std::vector<int32_t> out;
  out.reserve(static_cast<size_t>(n));
  CounterRng rng(seed, stream);
  // Position i is taken with probability (still needed) / (still available).
  for (int64_t i = 0; i < N && static_cast<int64_t>(out.size()) < n; ++i) {
    const int64_t needed = n - static_cast<int64_t>(out.size()), available = N - i;
    if (rng.uniform() * static_cast<double>(available) < static_cast<double>(needed)) out.push_back(static_cast<int32_t>(i));
  }
  return out;
}

int32_t random_offset(uint64_t seed, uint64_t stream, int64_t n, int64_t N) {
  ORDO_CHECK(n >= 1 && n <= N, "random offset: a sequence of ", n, " tokens does not fit in ", N, " positions");
  CounterRng rng(seed, stream);
  return static_cast<int32_t>(rng.uniform_int(0, N - n));
}

}  // namespace ordo
