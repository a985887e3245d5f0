// tests/core/test_rng.cpp: Philox known answers and the counter-based contract.
#include <catch2/catch.hpp>

#include "core/rng.h"

using namespace ordo;

TEST_CASE("philox4x32-10 matches the Random123 known-answer vectors", "[core][rng]") {
  // From Random123's kat_vectors: philox4x32 10 rounds.
  auto zero = philox4x32(0, 0, 0);
  CHECK(zero == std::array<uint32_t, 4>{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u});
  auto ones = philox4x32(0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull);
  CHECK(ones == std::array<uint32_t, 4>{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu});
}

TEST_CASE("a CounterRng is a pure function of (seed, stream, counter)", "[core][rng]") {
  CounterRng a(42, 7), b(42, 7), c(42, 8);
  for (int i = 0; i < 10; ++i) {
    uint32_t x = a.next_u32();
    REQUIRE(x == b.next_u32());
    (void)c;
  }
  CounterRng d(42, 7);
  CounterRng e(42, 8);
  int same = 0;
  for (int i = 0; i < 100; ++i) same += d.next_u32() == e.next_u32();
  REQUIRE(same < 3);
  // Saving and restoring the state continues the same sequence.
  CounterRng f(3, 4);
  for (int i = 0; i < 5; ++i) f.next_u32();
  auto s = f.state();
  std::vector<uint32_t> after;
  for (int i = 0; i < 9; ++i) after.push_back(f.next_u32());
  CounterRng g(0, 0);
  g.set_state(s);
  for (int i = 0; i < 9; ++i) REQUIRE(g.next_u32() == after[i]);
}

TEST_CASE("uniform_int covers its range without bias", "[core][rng]") {
  CounterRng r(1, 2);
  std::vector<int> counts(6, 0);
  for (int i = 0; i < 60000; ++i) {
    int64_t v = r.uniform_int(3, 8);
    REQUIRE(v >= 3);
    REQUIRE(v <= 8);
    counts[v - 3]++;
  }
  for (int c : counts) REQUIRE(std::abs(c - 10000) < 400);  // ~4 sigma
}
