// core/rng.h: a counter-based random number generator (Philox-4x32-10).
//
// A random value is a pure function of (seed, stream, counter): no hidden state is shared
// between threads, so data generated for sequence i is the same whichever thread makes it
// and in whatever order. Use one stream per independent consumer (a task's sequence
// index, a parameter's name, a dropout call) and let the counter run inside it.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace ordo {

// One Philox-4x32-10 block: four 32-bit words from a 64-bit key and a 128-bit counter.
std::array<uint32_t, 4> philox4x32(uint64_t key, uint64_t counter_hi, uint64_t counter_lo);

// A stable 64-bit hash (FNV-1a then a mixer) to derive stream ids from names.
uint64_t hash64(std::string_view text);
uint64_t mix64(uint64_t x);

class CounterRng {
 public:
  CounterRng(uint64_t seed, uint64_t stream) : seed_(seed), stream_(stream) {}

  uint32_t next_u32();
  uint64_t next_u64();
  double uniform();                          // [0, 1), 53 random bits
  double normal();                           // N(0, 1), Box-Muller
  int64_t uniform_int(int64_t lo, int64_t hi);  // [lo, hi] inclusive, unbiased

  // The full state, for checkpoints: (seed, stream, counter, buffered words).
  struct State {
    uint64_t seed, stream, counter;
    uint32_t index;
  };
  State state() const { return {seed_, stream_, counter_, index_}; }
  void set_state(const State& s) {
    seed_ = s.seed, stream_ = s.stream, counter_ = s.counter, index_ = s.index;
    if (index_ < 4) block_ = philox4x32(seed_, stream_, counter_ - 1);
  }

 private:
  uint64_t seed_, stream_, counter_ = 0;
  std::array<uint32_t, 4> block_{};
  uint32_t index_ = 4;  // 4 = block used up
};

}  // namespace ordo
