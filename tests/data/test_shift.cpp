// tests/data/test_shift.cpp: the `shift` task: targets are the input delayed by k.
#include <catch2/catch.hpp>

#include "data/shift.h"
#include "tests/data/data_test_util.h"

using namespace ordo;

namespace {

// Every property of a shift batch: bits, targets, the scored band [k, length), padding.
void check_shift_batch(const Batch& b, int64_t k, int64_t min_len, int64_t max_len) {
  const int64_t L = b.length();
  REQUIRE(b.targets.shape() == b.tokens.shape());
  REQUIRE(b.score.shape() == b.tokens.shape());
  int64_t longest = 0;
  for (int64_t s = 0; s < b.batch_size(); ++s) {
    const int64_t len = b.lengths[s];
    longest = std::max(longest, len);
    REQUIRE(len >= min_len);
    REQUIRE(len <= max_len);
    for (int64_t t = 0; t < L; ++t) {
      const int32_t x = b.tokens[s * L + t];
      const int32_t y = b.targets[s * L + t];
      const Real w = b.score[s * L + t];
      if (t >= len) {  // padding
        REQUIRE(x == 0);
        REQUIRE(w == Real(0));
        continue;
      }
      REQUIRE((x == ShiftTask::kBit0 || x == ShiftTask::kBit1));
      if (t < k) {
        REQUIRE(w == Real(0));
      } else {
        REQUIRE(w == Real(1));
        REQUIRE(y == b.tokens[s * L + t - k] - ShiftTask::kBit0);  // y_t = x_{t-k}
      }
    }
  }
  REQUIRE(longest == L);
}

}  // namespace

TEST_CASE("shift: y_i = x_{i-k}, scored exactly for k <= i < length", "[data][shift]") {
  ShiftTask task(TaskConfig{.name = "shift"});
  REQUIRE(task.head() == HeadKind::Token);
  REQUIRE(task.num_classes() == 2);
  REQUIRE(task.vocab_size() == 3);
  REQUIRE(task.min_len() == 16);
  REQUIRE(task.max_len() == 64);
  for (uint64_t index = 0; index < 20; ++index)
    check_shift_batch(task.batch(9, index, 16), 10, 16, 64);

  ShiftTask short_shift(TaskConfig{.name = "shift", .min_len = 5, .max_len = 9}.with("k", "3"));
  for (uint64_t index = 0; index < 20; ++index)
    check_shift_batch(short_shift.batch(9, index, 16), 3, 5, 9);
}

TEST_CASE("shift: bits are balanced and independent of position", "[data][shift]") {
  ShiftTask task(TaskConfig{.name = "shift", .min_len = 32, .max_len = 32});
  std::vector<int64_t> ones(32, 0);
  const int n = 4000;
  for (int i = 0; i < n; ++i) {
    Example e = task.example(4, i, 32);
    for (int t = 0; t < 32; ++t) ones[t] += e.tokens[t] == ShiftTask::kBit1;
  }
  int64_t total = 0;
  for (int64_t c : ones) {
    total += c;
    CHECK(std::abs(c - n / 2) < 5 * std::sqrt(n / 4.0));
  }
  CHECK(std::abs(total / double(32 * n) - 0.5) < 0.01);
}
