// tests/data/test_next_token_tasks.cpp: Huang et al.'s tasks (docs/spec.md §3.15) generate
// what their generators define, in the decoder layout and with the loss mask of
// data/next_token.h.
//
// The layout and mask are checked against a reference written here from the specification
// (the sequence BOS x SEP y EOS, each scored position's target the token after it, SEP..y_m
// scored), on hand-written answers first; each task's answer is recomputed from its input by a
// reference of its own; the drawing laws (a uniform count of zeros or ones, distinct symbols)
// are checked by counting.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "data/task.h"
#include "tests/data/data_test_util.h"

using namespace ordo;

namespace {

constexpr int32_t kBos = 1, kSep = 2, kEos = 3, kFirst = 4;  // §3.15

const std::vector<std::string> kTasks = {"bin_majority", "majority", "unique_copy", "repeat_copy", "unique_sort",
                                         "lm_parity"};

// The §3.15 sequence and mask of input x and answer y (both 0-based symbols).
Example reference_layout(const std::vector<int32_t>& x, const std::vector<int32_t>& y) {
  Example e;
  e.tokens.push_back(kBos);
  for (int32_t s : x) e.tokens.push_back(kFirst + s);
  e.tokens.push_back(kSep);
  for (int32_t s : y) e.tokens.push_back(kFirst + s);
  e.tokens.push_back(kEos);
  const size_t T = e.tokens.size();
  e.targets.assign(T, 0);
  e.scored.assign(T, 0);
  for (size_t t = 0; t + 1 < T; ++t)
    if (t >= x.size() + 1) {  // SEP and every answer token: each predicts the token after it
      e.targets[t] = e.tokens[t + 1];
      e.scored[t] = 1;
    }
  return e;
}

// The answer each task defines for input x (0-based symbols), written from §3.15.
std::vector<int32_t> reference_answer(const std::string& task, const std::vector<int32_t>& x) {
  if (task == "unique_copy" || task == "repeat_copy") return x;
  if (task == "unique_sort") {
    std::vector<int32_t> y = x;
    std::sort(y.begin(), y.end());
    return y;
  }
  if (task == "lm_parity") {
    const auto ones = std::count(x.begin(), x.end(), 1);
    return {ones % 2 == 0 ? 2 : 3};  // e, o
  }
  std::map<int32_t, int64_t> count;  // bin_majority, majority: the strictly commonest symbol
  for (int32_t s : x) ++count[s];
  int32_t best = -1;
  int64_t top = 0;
  for (const auto& [s, c] : count)
    if (c > top) top = c, best = s;
  return {best};
}

// The input symbols of a generated example: between BOS and SEP.
std::vector<int32_t> input_of(const Example& e, int64_t n) {
  std::vector<int32_t> x;
  for (int64_t i = 1; i <= n; ++i) x.push_back(e.tokens[static_cast<size_t>(i)] - kFirst);
  return x;
}

}  // namespace

TEST_CASE("next-token layout: hand-worked sequences and loss masks (docs/spec.md §3.15)", "[data][huang]") {
  // majority of "b a b": BOS b a b SEP b EOS; SEP predicts b, b predicts EOS.
  const Example m = reference_layout({1, 0, 1}, {1});
  CHECK(m.tokens == std::vector<int32_t>{1, 5, 4, 5, 2, 5, 3});
  CHECK(m.targets == std::vector<int32_t>{0, 0, 0, 0, 5, 3, 0});
  CHECK(m.scored == std::vector<uint8_t>{0, 0, 0, 0, 1, 1, 0});
  // sort of "7 2": BOS 7 2 SEP 2 7 EOS.
  const Example s = reference_layout({7, 2}, {2, 7});
  CHECK(s.tokens == std::vector<int32_t>{1, 11, 6, 2, 6, 11, 3});
  CHECK(s.targets == std::vector<int32_t>{0, 0, 0, 6, 11, 3, 0});
  CHECK(s.scored == std::vector<uint8_t>{0, 0, 0, 1, 1, 1, 0});
  // The answer references on hand-written inputs.
  CHECK(reference_answer("majority", {3, 1, 3, 0, 3, 1}) == std::vector<int32_t>{3});
  CHECK(reference_answer("bin_majority", {0, 1, 1}) == std::vector<int32_t>{1});
  CHECK(reference_answer("unique_sort", {9, 4, 120}) == std::vector<int32_t>{4, 9, 120});
  CHECK(reference_answer("lm_parity", {1, 0, 1, 1}) == std::vector<int32_t>{3});
  CHECK(reference_answer("lm_parity", {1, 0, 0, 1}) == std::vector<int32_t>{2});
}

TEST_CASE("next-token tasks: every example is its input's answer in the §3.15 layout", "[data][huang]") {
  for (const std::string& name : kTasks) {
    const auto task = make_task(TaskConfig{.name = name});
    CHECK(task->min_len() == 1);
    CHECK(task->max_len() == 50);
    CHECK(task->num_classes() == task->vocab_size());
    CHECK(task_info(name).causal_only);
    const int64_t alphabet = task->vocab_size() - kFirst;
    for (int64_t n : {1, 2, 3, 4, 17, 50, 51, 100, 150}) {
      for (uint64_t i = 0; i < 20; ++i) {
        const Example e = task->example(7, i, n);
        INFO(name << " n " << n << " index " << i);
        REQUIRE(static_cast<int64_t>(e.tokens.size()) == task->tokens(n));
        const std::vector<int32_t> x = input_of(e, n);
        for (int32_t s : x) REQUIRE((s >= 0 && s < alphabet));
        const Example want = reference_layout(x, reference_answer(name, x));
        REQUIRE(e.tokens == want.tokens);
        REQUIRE(e.targets == want.targets);
        REQUIRE(e.scored == want.scored);
        if (name == "unique_copy" || name == "unique_sort")
          REQUIRE(std::set<int32_t>(x.begin(), x.end()).size() == x.size());
        if (name == "lm_parity") REQUIRE(std::none_of(x.begin(), x.end(), [](int32_t s) { return s > 1; }));
        if (name == "majority" || name == "bin_majority") {  // the commonest symbol is strictly commonest
          std::map<int32_t, int64_t> count;
          for (int32_t s : x) ++count[s];
          const int32_t y = e.tokens[static_cast<size_t>(n + 2)] - kFirst;
          for (const auto& [s, c] : count) REQUIRE((s == y || c < count[y]));
        }
      }
    }
  }
  CHECK_THROWS_WITH(make_task(TaskConfig{.name = "unique_copy"})->example(1, 0, 151),
                    Catch::Contains("151") && Catch::Contains("150"));
}

TEST_CASE("next-token tasks: counts drawn uniformly, as their generators draw them", "[data][huang]") {
  // bin_majority at n = 4: zeros uniform over {0, 1, 3, 4} (2 is a tie, drawn again);
  // lm_parity at n = 5: ones uniform over 0..5. 6000 draws each; chi-square critical values
  // at p = 0.001 are 16.3 (3 degrees of freedom) and 20.5 (5).
  const auto bin = make_task(TaskConfig{.name = "bin_majority"});
  std::vector<int64_t> zeros(5, 0);
  for (uint64_t i = 0; i < 6000; ++i) {
    const std::vector<int32_t> x = input_of(bin->example(3, i, 4), 4);
    ++zeros[static_cast<size_t>(std::count(x.begin(), x.end(), 0))];
  }
  CHECK(zeros[2] == 0);
  CHECK(test::chi_square_uniform({zeros[0], zeros[1], zeros[3], zeros[4]}) < 16.3);
  const auto parity = make_task(TaskConfig{.name = "lm_parity"});
  std::vector<int64_t> ones(6, 0);
  for (uint64_t i = 0; i < 6000; ++i) {
    const std::vector<int32_t> x = input_of(parity->example(3, i, 5), 5);
    ++ones[static_cast<size_t>(std::count(x.begin(), x.end(), 1))];
  }
  CHECK(test::chi_square_uniform(ones) < 20.5);
  // unique_copy: every symbol of 0..149 equally likely in each place (first place, 15000 draws,
  // 149 degrees of freedom: critical value 215 at p = 0.001).
  const auto copy = make_task(TaskConfig{.name = "unique_copy"});
  std::vector<int64_t> first(150, 0);
  for (uint64_t i = 0; i < 15000; ++i) ++first[static_cast<size_t>(copy->example(3, i, 10).tokens[1] - kFirst)];
  CHECK(test::chi_square_uniform(first) < 215);
}

TEST_CASE("next-token tasks train causal only", "[data][huang]") {
  for (const std::string& name : kTasks) CHECK(task_info(name).causal_only);
  CHECK_FALSE(task_info("copy").causal_only);
}
