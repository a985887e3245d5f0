// data/sampling.h: the draws the tasks' generators share, each from a counter-based RNG
// (core/rng.h) so that a sample is a pure function of its (seed, index): i.i.d. symbols, a
// uniform shuffle, distinct symbols in random order.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/rng.h"

namespace ordo {

// n symbols i.i.d. uniform over 0..alphabet-1.
inline std::vector<int32_t> uniform_symbols(CounterRng& rng, int64_t n, int64_t alphabet) {
  std::vector<int32_t> x(static_cast<size_t>(n));
  for (int32_t& s : x) s = static_cast<int32_t>(rng.uniform_int(0, alphabet - 1));
  return x;
}

// Fisher-Yates: every order of v equally likely (Python's random.shuffle draws the same law).
inline void shuffle(CounterRng& rng, std::vector<int32_t>& v) {
  for (int64_t i = static_cast<int64_t>(v.size()) - 1; i > 0; --i)
    std::swap(v[static_cast<size_t>(i)], v[static_cast<size_t>(rng.uniform_int(0, i))]);
}

// n distinct symbols of 0..pool-1 in random order, every ordered n-subset equally likely
// (random.sample's law; a partial Fisher-Yates).
inline std::vector<int32_t> distinct_symbols(CounterRng& rng, int64_t n, int64_t pool) {
  std::vector<int32_t> all(static_cast<size_t>(pool));
  for (int64_t i = 0; i < pool; ++i) all[static_cast<size_t>(i)] = static_cast<int32_t>(i);
  for (int64_t i = 0; i < n; ++i)
    std::swap(all[static_cast<size_t>(i)], all[static_cast<size_t>(rng.uniform_int(i, pool - 1))]);
  all.resize(static_cast<size_t>(n));
  return all;
}

}  // namespace ordo
