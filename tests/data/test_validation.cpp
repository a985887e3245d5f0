// tests/data/test_validation.cpp: every invalid setting is an error that names the problem.
#include <catch2/catch.hpp>

#include "data/eval.h"
#include "data/task.h"

using namespace ordo;
using Catch::Matchers::Contains;

TEST_CASE("validation: task settings", "[data][validation]") {
  REQUIRE_THROWS_WITH(make_task({.name = "sorting"}),
                      Contains("unknown task 'sorting'") && Contains("order, shift, periodic, copy, reverse, sort, flipflop, recall"));
  REQUIRE_THROWS_WITH(make_task({.name = "shift", .min_len = 40, .max_len = 30}),
                      Contains("min_len 40 > max_len 30"));
  REQUIRE_THROWS_WITH(make_task({.name = "order", .min_len = 0}),
                      Contains("min_len must be >= 1"));
  REQUIRE_THROWS_WITH(make_task({.name = "order", .min_len = 1}),
                      Contains("order: min_len must be >= 2"));
  REQUIRE_THROWS_WITH(make_task(TaskConfig{.name = "order"}.with("vocab", "0")), Contains("order: vocab"));
  REQUIRE_THROWS_WITH(make_task(TaskConfig{.name = "order"}.with("gap", "-1")), Contains("gap must be >= 0"));
  REQUIRE_THROWS_WITH(make_task(TaskConfig{.name = "order"}.with("gap", "32")),
                      Contains("gap 32 does not fit") && Contains("max_len 32"));
  REQUIRE_THROWS_WITH(make_task({.name = "shift", .min_len = 10}),
                      Contains("min_len 10 must be > k = 10"));
  REQUIRE_THROWS_WITH(make_task(TaskConfig{.name = "shift"}.with("k", "-1")), Contains("k must be >= 0"));
  REQUIRE_THROWS_WITH(make_task({.name = "periodic", .min_len = 15}),
                      Contains("min_len 15 must be >= 2 * p_max = 16"));
  REQUIRE_THROWS_WITH(make_task(TaskConfig{.name = "periodic"}.with("p-min", "1")),
                      Contains("p_min must be >= 2"));
  REQUIRE_THROWS_WITH(make_task(TaskConfig{.name = "periodic"}.with("p-min", "6").with("p-max", "5")),
                      Contains("p_min 6 > p_max 5"));
  REQUIRE_THROWS_WITH(make_task(TaskConfig{.name = "periodic"}.with("mask-rate", "0.0")),
                      Contains("mask_rate must be in (0, 1)"));
  REQUIRE_THROWS_WITH(make_task(TaskConfig{.name = "periodic"}.with("mask-rate", "1.0")),
                      Contains("mask_rate must be in (0, 1)"));
  REQUIRE_THROWS_WITH(make_task(TaskConfig{.name = "periodic"}.with("target", "next")),
                      Contains("unknown target 'next'") && Contains("complete, period"));
  REQUIRE_THROWS_WITH(make_task(TaskConfig{.name = "periodic"}.with("vocab", "1")),
                      Contains("periodic: vocab") && Contains(">= 2"));
}

TEST_CASE("validation: batch sizes and lengths", "[data][validation]") {
  auto task = make_task({.name = "shift"});
  REQUIRE_THROWS_WITH(task->batch(1, 0, 0), Contains("batch_size must be > 0"));
  REQUIRE_THROWS_WITH(task->batch(1, 0, -3), Contains("batch_size must be > 0"));
  REQUIRE_THROWS_WITH(task->example(1, 0, 10), Contains("shift: sequence length 10 is too short"));
  REQUIRE_THROWS_WITH(make_eval_sets(*task, 1, {8}, 16), Contains("evaluation length 8"));
  REQUIRE_THROWS_WITH(make_eval_sets(*task, 1, {128}, 0), Contains("batch_size must be > 0"));
  auto periodic = make_task({.name = "periodic"});
  REQUIRE_THROWS_WITH(periodic->example(1, 0, 15), Contains("needs length >= 16"));
}
