// tests/data/test_counting_mqar_passkey.cpp: `counting`, `mqar` and `passkey` generate what
// docs/spec.md §3.12-§3.14 define. Each is checked on a hand-built case (an example the
// generator drew with exactly that input, its answer worked out by hand), then every
// generated example at many lengths against a reference written from the specification, and
// its random choices for spread.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "data/task.h"

using namespace ordo;

namespace {

// The first example (seed 5) whose tokens start with `prefix`, at `length`.
Example find_example(const Task& task, int64_t length, const std::vector<int32_t>& prefix) {
  for (uint64_t index = 0; index < 3000000; ++index) {
    Example e = task.example(5, index, length);
    if (std::equal(prefix.begin(), prefix.end(), e.tokens.begin())) return e;
  }
  FAIL("no example starts with the wanted tokens");
  return {};
}

}  // namespace

TEST_CASE("counting: start 7 then three symbols counts 8, 9, 10", "[data][counting]") {
  auto task = make_task(TaskConfig{.name = "counting"});
  CHECK(task->min_len() == 2);
  CHECK(task->max_len() == 50);
  CHECK(task->num_classes() == 201);
  CHECK(task->vocab_size() == 203);
  CHECK(task->max_valid_len() == 201);
  const Example e = find_example(*task, 4, {2 + 7});
  CHECK(e.tokens == std::vector<int32_t>{9, 1, 1, 1});
  CHECK(e.targets == std::vector<int32_t>{0, 8, 9, 10});
  CHECK(e.scored == std::vector<uint8_t>{0, 1, 1, 1});
}

TEST_CASE("counting: every count equals the start plus the position, every start is drawn", "[data][counting]") {
  auto task = make_task(TaskConfig{.name = "counting"}.with("count-max", "60"));
  for (int64_t n : {2, 5, 30, 61}) {
    std::set<int32_t> starts;
    for (uint64_t index = 0; index < 3000; ++index) {
      const Example e = task->example(2, index, n);
      REQUIRE(static_cast<int64_t>(e.tokens.size()) == n);
      const int32_t start = e.tokens[0] - 2;
      REQUIRE(start >= 0);
      REQUIRE(start + n - 1 <= 60);
      starts.insert(start);
      CHECK(e.scored[0] == 0);
      for (int64_t t = 1; t < n; ++t) {
        CHECK(e.tokens[t] == 1);
        CHECK(e.targets[t] == start + t);
        CHECK(e.scored[t] == 1);
      }
    }
    CHECK(static_cast<int64_t>(starts.size()) == 60 - n + 2);  // every start in [0, M - n + 1]
  }
  CHECK_THROWS_WITH(make_task(TaskConfig{.name = "counting", .max_len = 80}.with("count-max", "60")),
                    Catch::Contains("--count-max"));
  CHECK_THROWS_WITH(task->example(1, 0, 62), Catch::Contains("length <= 61"));
}

TEST_CASE("mqar: one pair at length 16, its key asked once in the query region", "[data][mqar]") {
  auto task = make_task(TaskConfig{.name = "mqar"});  // 64 keys (ids 2..65), 8 values (66..73)
  CHECK(task->min_len() == 16);
  CHECK(task->max_len() == 64);
  const Example e = find_example(*task, 16, {2 + 5, 66 + 3});  // key 5 holds value 3
  int64_t queries = 0;
  for (int64_t t = 2; t < 16; ++t) {
    if (e.scored[t]) {
      ++queries;
      CHECK(t % 2 == 0);
      CHECK(e.tokens[t] == 2 + 5);
      CHECK(e.targets[t] == 3);
    } else {
      CHECK(e.tokens[t] == 1);
    }
  }
  CHECK(queries == 1);
}

TEST_CASE("mqar: every key asked once with its value, most queries soon after the pairs", "[data][mqar]") {
  auto task = make_task(TaskConfig{.name = "mqar"});
  int64_t early = 0, all = 0;
  for (int64_t n : {16, 33, 64, 256, 1000}) {
    const int64_t d = std::max<int64_t>(1, n / 16), slots = (n - 2 * d) / 2;
    for (uint64_t index = 0; index < 200; ++index) {
      const Example e = task->example(4, index, n);
      REQUIRE(static_cast<int64_t>(e.tokens.size()) == n);
      std::map<int32_t, int32_t> value_of;
      for (int64_t i = 0; i < d; ++i) {
        REQUIRE(e.tokens[2 * i] >= 2);
        REQUIRE(e.tokens[2 * i] < 66);
        REQUIRE(e.tokens[2 * i + 1] >= 66);
        REQUIRE(e.tokens[2 * i + 1] < 74);
        value_of[e.tokens[2 * i]] = e.tokens[2 * i + 1] - 66;
        CHECK(e.scored[2 * i] == 0);
        CHECK(e.scored[2 * i + 1] == 0);
      }
      CHECK(static_cast<int64_t>(value_of.size()) == d);  // distinct keys
      std::set<int32_t> asked;
      for (int64_t t = 2 * d; t < n; ++t) {
        if (!e.scored[t]) {
          CHECK(e.tokens[t] == 1);
          continue;
        }
        CHECK((t - 2 * d) % 2 == 0);
        REQUIRE(value_of.count(e.tokens[t]) == 1);
        CHECK(e.targets[t] == value_of[e.tokens[t]]);
        CHECK(asked.insert(e.tokens[t]).second);  // each key once
        if (n == 256) {
          ++all;
          early += (t - 2 * d) / 2 < slots / 2;
        }
      }
      CHECK(static_cast<int64_t>(asked.size()) == d);
    }
  }
  // Weights i^-0.99 put about 0.87 of one draw in the first half of the 112 slots; a uniform
  // choice would put 0.5 there.
  CHECK(static_cast<double>(early) / static_cast<double>(all) > 0.7);
}

TEST_CASE("passkey: the key 31415 at length 12 is asked for at the end", "[data][passkey]") {
  auto task = make_task(TaskConfig{.name = "passkey"});
  CHECK(task->min_len() == 16);
  CHECK(task->max_len() == 64);
  CHECK(task->num_classes() == 10);
  const Example e = find_example(*task, 12, {2, 4 + 3, 4 + 1, 4 + 4, 4 + 1, 4 + 5});
  CHECK(e.tokens == std::vector<int32_t>{2, 7, 5, 8, 5, 9, 3, 1, 1, 1, 1, 1});
  CHECK(e.targets == std::vector<int32_t>{0, 0, 0, 0, 0, 0, 0, 3, 1, 4, 1, 5});
  CHECK(e.scored == std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1});
  CHECK(e.distance == 6);
}

TEST_CASE("passkey: the slots hold the key's digits, the filler cycles, every depth is drawn", "[data][passkey]") {
  auto task = make_task(TaskConfig{.name = "passkey"});
  for (int64_t n : {12, 13, 40, 300}) {
    std::set<int32_t> depths;
    for (uint64_t index = 0; index < 3000; ++index) {
      const Example e = task->example(6, index, n);
      REQUIRE(static_cast<int64_t>(e.tokens.size()) == n);
      const auto key = std::find(e.tokens.begin(), e.tokens.end(), 2) - e.tokens.begin();
      REQUIRE(key <= n - 12);
      CHECK(e.tokens[n - 6] == 3);
      int64_t filler = 0;
      for (int64_t t = 0; t < n - 6; ++t) {
        if (t >= key && t <= key + 5) continue;
        CHECK(e.tokens[t] == 14 + filler++ % 5);
        CHECK(e.scored[t] == 0);
      }
      for (int64_t i = 0; i < 5; ++i) {
        const int32_t digit = e.tokens[key + 1 + i] - 4;
        REQUIRE(digit >= 0);
        REQUIRE(digit <= 9);
        CHECK(e.tokens[n - 5 + i] == 1);
        CHECK(e.targets[n - 5 + i] == digit);
        CHECK(e.scored[n - 5 + i] == 1);
      }
      CHECK(e.distance == n - 6 - key);
      depths.insert(e.distance);
    }
    if (n <= 40) CHECK(static_cast<int64_t>(depths.size()) == n - 11);  // every key position in [0, n - 12]
  }
}
