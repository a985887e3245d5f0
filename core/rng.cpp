// core/rng.cpp: Philox-4x32-10 (Salmon et al., "Parallel random numbers: as easy as
// 1, 2, 3", SC 2011), with the constants of that paper.
#include "core/rng.h"

#include <cmath>

#include "core/error.h"

namespace ordo {

std::array<uint32_t, 4> philox4x32(uint64_t key, uint64_t counter_hi, uint64_t counter_lo) {
  constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;
  constexpr uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
  uint32_t c0 = static_cast<uint32_t>(counter_lo), c1 = static_cast<uint32_t>(counter_lo >> 32);
  uint32_t c2 = static_cast<uint32_t>(counter_hi), c3 = static_cast<uint32_t>(counter_hi >> 32);
  uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = static_cast<uint64_t>(kMul0) * c0;
    uint64_t p1 = static_cast<uint64_t>(kMul1) * c2;
    uint32_t hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
    uint32_t hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
    uint32_t n0 = hi1 ^ c1 ^ k0, n1 = lo1, n2 = hi0 ^ c3 ^ k1, n3 = lo0;
    c0 = n0, c1 = n1, c2 = n2, c3 = n3;
    k0 += kWeyl0;
    k1 += kWeyl1;
  }
  return {c0, c1, c2, c3};
}

uint64_t mix64(uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return x;
}

uint64_t hash64(std::string_view text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : text) h = (h ^ ch) * 1099511628211ull;
  return mix64(h);
}

uint32_t CounterRng::next_u32() {
  if (index_ >= 4) {
    block_ = philox4x32(seed_, stream_, counter_++);
    index_ = 0;
  }
  return block_[index_++];
}

uint64_t CounterRng::next_u64() {
  uint64_t hi = next_u32();
  return (hi << 32) | next_u32();
}

double CounterRng::uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

double CounterRng::normal() {
  double u1 = uniform(), u2 = uniform();
  if (u1 < 1e-300) u1 = 1e-300;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

int64_t CounterRng::uniform_int(int64_t lo, int64_t hi) {
  ORDO_CHECK(lo <= hi, "uniform_int: empty range [", lo, ", ", hi, "]");
  uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
  if (span == 0) return static_cast<int64_t>(next_u64());  // the full 64-bit range
  uint64_t limit = UINT64_MAX - UINT64_MAX % span;          // rejection: no modulo bias
  uint64_t x;
  do x = next_u64();
  while (x >= limit);
  return lo + static_cast<int64_t>(x % span);
}

}  // namespace ordo
