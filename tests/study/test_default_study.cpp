// tests/study/test_default_study.cpp: the defaults the registries declare add up to the
// default comparison of docs/spec.md §7 and docs/results.md: six encodings, three tasks, rope
// by default, and the demo's step counts. One flipped declaration would change what
// `ordo compare` and `ordo demo` run; this says so.
#include <catch2/catch.hpp>

#include "data/task.h"
#include "layers/model.h"
#include "layers/posenc/encoding.h"
#include "train/bench.h"

using namespace ordo;

TEST_CASE("the default study: six encodings, three of the tasks, rope by default, the demo's steps", "[study][defaults]") {
  CHECK(default_study_encodings() == std::vector<std::string>{"none", "sinusoidal", "learned", "rope", "alibi", "t5"});
  CHECK(default_encoding() == "rope");
  CHECK(ModelConfig{}.encoding == "rope");
  CHECK(task_names() ==
        std::vector<std::string>{"order", "shift", "periodic", "copy", "reverse", "sort", "flipflop", "recall", "even_pairs",
                                 "parity", "cycle_navigation", "modular_arithmetic", "stack_manipulation",
                                 "modular_arithmetic_brackets", "solve_equation", "duplicate_string",
                                 "missing_duplicate", "odds_first", "binary_addition", "binary_multiplication",
                                 "compute_sqrt", "s5", "a5", "z60", "counting", "mqar", "passkey", "bin_majority", "majority", "unique_copy",
                                 "repeat_copy", "unique_sort", "lm_parity"});
  CHECK(default_study_tasks() == std::vector<std::string>{"order", "shift", "periodic"});
  std::vector<int64_t> demo;
  for (const std::string& t : default_study_tasks()) demo.push_back(task_info(t).demo_steps);
  CHECK(demo == std::vector<int64_t>{2000, 600, 300});
}

TEST_CASE("the benchmark configurations of docs/spec.md §8 get their encodings and task from the registries",
          "[study][defaults]") {
  std::vector<std::string> got;
  for (const BenchConfig& c : bench_configs()) got.push_back(c.name + ":" + c.encoding);
  CHECK(got == std::vector<std::string>{"tiny:rope", "base:rope", "long:alibi"});
  CHECK(bench_task() == "shift");
}
