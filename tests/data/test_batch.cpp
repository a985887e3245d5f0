// tests/data/test_batch.cpp: batching, padding, determinism and the task registry.
#include <catch2/catch.hpp>

#include <algorithm>

#include <omp.h>

#include "data/task.h"
#include "tests/data/data_test_util.h"

using namespace ordo;

namespace {

std::vector<TaskConfig> all_task_configs() {
  return {TaskConfig{.name = "order"}, TaskConfig{.name = "shift"},
          TaskConfig{.name = "periodic"}, TaskConfig{.name = "periodic"}.with("target", "period"),
          TaskConfig{.name = "modular_arithmetic"}};
}

// Row s of the batch holds example e exactly, padding aside.
bool b_row_matches(const Batch& b, int64_t s, const Example& e) {
  const int64_t len = static_cast<int64_t>(e.tokens.size());
  if (b.lengths[s] != len || test::row(b.tokens, s, len) != e.tokens) return false;
  if (b.targets.rank() == 1) return b.targets[s] == e.label;
  return test::row(b.targets, s, len) == e.targets;
}

}  // namespace

TEST_CASE("registry: every task by name, an unknown name lists the known ones",
          "[data][registry]") {
  REQUIRE(task_names() ==
          std::vector<std::string>{"order", "shift", "periodic", "copy", "reverse", "sort", "flipflop", "recall",
                                   "even_pairs", "parity", "cycle_navigation", "modular_arithmetic", "stack_manipulation",
                                   "modular_arithmetic_brackets", "solve_equation", "duplicate_string",
                                   "missing_duplicate", "odds_first", "binary_addition", "binary_multiplication",
                                   "compute_sqrt", "s5", "a5", "z60", "counting", "mqar", "passkey", "bin_majority", "majority", "unique_copy", "repeat_copy", "unique_sort", "lm_parity"});
  for (const std::string& name : task_names()) {
    auto task = make_task(TaskConfig{.name = name});
    REQUIRE(task->name() == name);
    REQUIRE(task->vocab_size() > 1);
    REQUIRE(task->num_classes() >= 2);
  }
  REQUIRE_THROWS_WITH(make_task(TaskConfig{.name = "duplicate"}),
                      Catch::Matchers::Contains("unknown task 'duplicate'") &&
                          Catch::Matchers::Contains("order, shift, periodic, copy, reverse, sort, flipflop, recall, even_pairs"));
}

TEST_CASE("batches: lengths in range, PAD and score 0 past each length", "[data][batch]") {
  for (const TaskConfig& config : all_task_configs()) {
    auto task = make_task(config);
    INFO(task->name() << " " << config.options.text("target"));
    for (uint64_t index = 0; index < 10; ++index) {
      Batch b = task->batch(17, index, 32);
      REQUIRE(b.batch_size() == 32);
      REQUIRE(b.lengths.size() == 32);
      int64_t longest = 0;
      for (int64_t s = 0; s < 32; ++s) {
        const int64_t len = b.lengths[s];
        longest = std::max(longest, len);
        REQUIRE(len >= task->tokens(task->min_len()));
        REQUIRE(len <= task->tokens(task->max_len()));
        for (int64_t t = 0; t < b.length(); ++t) {
          const int32_t id = b.tokens[s * b.length() + t];
          if (t < len) {
            REQUIRE(id > 0);
            REQUIRE(id < task->vocab_size());
          } else {
            REQUIRE(id == 0);
          }
          if (task->head() == HeadKind::Token && t >= len) {
            REQUIRE(b.score[s * b.length() + t] == Real(0));
            REQUIRE(b.targets[s * b.length() + t] == 0);
          }
          if (task->head() == HeadKind::Token && t < len && b.score[s * b.length() + t] != 0) {
            REQUIRE(b.targets[s * b.length() + t] >= 0);
            REQUIRE(b.targets[s * b.length() + t] < task->num_classes());
          }
        }
        if (task->head() == HeadKind::Pooled) {
          REQUIRE(b.score[s] == Real(1));
          REQUIRE(b.targets[s] >= 0);
          REQUIRE(b.targets[s] < task->num_classes());
        }
      }
      REQUIRE(longest == b.length());  // padded to the longest, no further
    }
  }
}

TEST_CASE("batches: a pure function of (seed, index)", "[data][batch]") {
  for (const TaskConfig& config : all_task_configs()) {
    auto task = make_task(config);
    INFO(task->name());
    Batch a = task->batch(5, 3, 16);
    REQUIRE(test::same_batch(a, task->batch(5, 3, 16)));
    // Calling in another order changes nothing.
    task->batch(5, 9, 16);
    REQUIRE(test::same_batch(a, task->batch(5, 3, 16)));
    REQUIRE_FALSE(test::same_batch(a, task->batch(5, 4, 16)));
    REQUIRE_FALSE(test::same_batch(a, task->batch(6, 3, 16)));
    // Sequence i of batch `index` is global sequence index * B + i.
    const uint64_t global = 3 * 16 + 5;
    Example e = task->example(5, global, task->sample_length(5, global));
    REQUIRE(b_row_matches(a, 5, e));
  }
}

TEST_CASE("batches: identical on 1 and 2 OpenMP threads", "[data][batch]") {
  const int saved = omp_get_max_threads();
  for (const TaskConfig& config : all_task_configs()) {
    auto task = make_task(config);
    INFO(task->name());
    omp_set_num_threads(1);
    Batch one = task->batch(21, 2, 256);
    omp_set_num_threads(2);
    Batch two = task->batch(21, 2, 256);
    REQUIRE(test::same_batch(one, two));
  }
  omp_set_num_threads(saved);
}

TEST_CASE("batches: same_length gives one length and no padding", "[data][batch]") {
  for (const TaskConfig& config : all_task_configs()) {
    auto task = make_task(config);
    INFO(task->name());
    std::vector<int64_t> seen;
    for (uint64_t index = 0; index < 20; ++index) {
      Batch b = task->batch(8, index, 12, /*same_length=*/true);
      for (int32_t len : b.lengths) REQUIRE(len == b.length());
      for (int64_t i = 0; i < b.tokens.numel(); ++i) REQUIRE(b.tokens[i] != 0);
      REQUIRE(b.length() >= task->min_len());
      REQUIRE(b.length() <= task->max_len());
      seen.push_back(b.length());
    }
    std::sort(seen.begin(), seen.end());
    REQUIRE(std::unique(seen.begin(), seen.end()) - seen.begin() > 3);  // lengths vary by batch
  }
}

TEST_CASE("collate: pads token and pooled examples", "[data][batch]") {
  Example a{.tokens = {3, 4, 5}, .targets = {0, 1, 1}, .scored = {0, 1, 1}};
  Example b{.tokens = {6}, .targets = {1}, .scored = {1}};
  Batch t = collate({a, b}, HeadKind::Token);
  REQUIRE(t.tokens.shape() == Shape{2, 3});
  REQUIRE(t.tokens.to_vector() == std::vector<int32_t>{3, 4, 5, 6, 0, 0});
  REQUIRE(t.targets.to_vector() == std::vector<int32_t>{0, 1, 1, 1, 0, 0});
  REQUIRE(t.score.to_vector() == std::vector<Real>{0, 1, 1, 1, 0, 0});
  REQUIRE(t.lengths == std::vector<int32_t>{3, 1});

  a.label = 1, b.label = 0;
  Batch p = collate({a, b}, HeadKind::Pooled);
  REQUIRE(p.targets.to_vector() == std::vector<int32_t>{1, 0});
  REQUIRE(p.score.to_vector() == std::vector<Real>{1, 1});
  REQUIRE_THROWS_WITH(collate({}, HeadKind::Token), Catch::Matchers::Contains("no examples"));
  Example unlabeled{.tokens = {3}};
  REQUIRE_THROWS_WITH(collate({unlabeled}, HeadKind::Pooled),
                      Catch::Matchers::Contains("no label"));
}
