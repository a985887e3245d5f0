// tests/data/test_eval.cpp: the fixed evaluation sets: sizes, lengths, swap pairs.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>

#include "data/eval.h"
#include "data/order.h"
#include "tests/data/data_test_util.h"

using namespace ordo;

namespace {

// Every (tokens, label) sequence of a set.
std::vector<std::pair<std::vector<int32_t>, int32_t>> pooled_sequences(const EvalSet& set) {
  std::vector<std::pair<std::vector<int32_t>, int32_t>> out;
  for (const Batch& b : set.batches)
    for (int64_t s = 0; s < b.batch_size(); ++s)
      out.push_back({test::row(b.tokens, s, b.lengths[s]), b.targets[s]});
  return out;
}

}  // namespace

TEST_CASE("eval sets: 512 from the training range, 256 at exactly 2x and 4x max_len",
          "[data][eval]") {
  for (const std::string& name : task_names()) {
    auto task = make_task(TaskConfig{.name = name});
    INFO(name);
    const std::vector<int64_t> lengths = default_extrapolation_lengths(*task);
    const int64_t cap = task->max_valid_len();  // unique_copy and unique_sort take at most 150 symbols
    REQUIRE(lengths == std::vector<int64_t>{std::min(2 * task->max_len(), cap), std::min(4 * task->max_len(), cap)});
    std::vector<EvalSet> sets = make_eval_sets(*task, 1, lengths, 64);
    REQUIRE(sets.size() == 3);
    REQUIRE(sets[0].length == 0);
    REQUIRE(sets[0].num_sequences() == 512);
    std::vector<int64_t> distinct;
    for (const Batch& b : sets[0].batches) {
      REQUIRE(b.batch_size() <= 64);
      for (int32_t len : b.lengths) {
        REQUIRE(len >= task->tokens(task->min_len()));  // a length counts tokens or, for the
        REQUIRE(len <= task->tokens(task->max_len()));  // Chomsky tasks, input symbols (§3.10)
        distinct.push_back(len);
      }
    }
    std::sort(distinct.begin(), distinct.end());
    REQUIRE(std::unique(distinct.begin(), distinct.end()) - distinct.begin() > 10);
    for (int i = 1; i <= 2; ++i) {
      REQUIRE(sets[i].length == lengths[i - 1]);
      REQUIRE(sets[i].num_sequences() == 256);
      for (const Batch& b : sets[i].batches) {
        REQUIRE(b.length() == task->tokens(lengths[i - 1]));
        for (int32_t len : b.lengths) REQUIRE(len == task->tokens(lengths[i - 1]));
      }
    }
  }
}

TEST_CASE("eval sets: fixed by their seed and apart from training batches", "[data][eval]") {
  auto task = make_task(TaskConfig{.name = "shift"});
  std::vector<EvalSet> a = make_eval_sets(*task, 4, {100}, 50, 100, 60);
  std::vector<EvalSet> b = make_eval_sets(*task, 4, {100}, 50, 100, 60);
  std::vector<EvalSet> c = make_eval_sets(*task, 5, {100}, 50, 100, 60);
  REQUIRE(a.size() == 2);
  REQUIRE(a[0].batches.size() == 2);
  REQUIRE(a[1].batches.size() == 2);
  REQUIRE(a[1].batches[1].batch_size() == 10);  // 60 = 50 + 10
  for (size_t s = 0; s < a.size(); ++s)
    for (size_t i = 0; i < a[s].batches.size(); ++i) {
      REQUIRE(test::same_batch(a[s].batches[i], b[s].batches[i]));
      REQUIRE_FALSE(test::same_batch(a[s].batches[i], c[s].batches[i]));
    }
  // The eval sequences are not the training sequences of the same seed.
  Example first_train = task->example(4, 0, a[0].batches[0].lengths[0]);
  REQUIRE(test::row(a[0].batches[0].tokens, 0, first_train.tokens.size()) != first_train.tokens);
}

TEST_CASE("eval sets: order sets are swap-paired", "[data][eval]") {
  auto task = make_task(TaskConfig{.name = "order"});
  std::vector<EvalSet> sets = make_eval_sets(*task, 3, default_extrapolation_lengths(*task), 48);
  for (const EvalSet& set : sets) {
    auto seqs = pooled_sequences(set);
    std::multimap<std::vector<int32_t>, int32_t> by_tokens(seqs.begin(), seqs.end());
    int64_t ones = 0;
    for (const auto& [tokens, label] : seqs) {
      ones += label;
      std::vector<int32_t> swapped = tokens;
      for (int32_t& id : swapped)
        id = id == OrderTask::kA ? OrderTask::kB : id == OrderTask::kB ? OrderTask::kA : id;
      auto [lo, hi] = by_tokens.equal_range(swapped);
      bool twin = false;
      for (auto it = lo; it != hi; ++it) twin = twin || it->second == 1 - label;
      REQUIRE(twin);
    }
    REQUIRE(ones * 2 == static_cast<int64_t>(seqs.size()));  // exactly balanced
  }
  REQUIRE_THROWS_WITH(make_eval_sets(*task, 3, {}, 16, 511),
                      Catch::Matchers::Contains("must be even"));
}

TEST_CASE("eval sets: the commonest answer and an answer's share count scored positions only", "[data][eval]") {
  // By hand: scored targets 1, 1, 2 | 2, 2, 2 (the 3 at an unscored position and the padding
  // of the shorter row do not count): class 2 is 4 of the 6, class 1 2 of them, class 3 none.
  Example a{.tokens = {1, 2, 3, 4}, .targets = {1, 1, 2, 3}, .scored = {1, 1, 1, 0}};
  Example b{.tokens = {1, 2, 3}, .targets = {2, 2, 2}, .scored = {1, 1, 1}};
  Example c{.tokens = {5}, .targets = {0}, .scored = {0}};
  EvalSet set;
  set.batches.push_back(collate({a, b}, HeadKind::Token));
  set.batches.push_back(collate({c}, HeadKind::Token));
  REQUIRE(scored_positions(set) == 6);
  REQUIRE(commonest_answer(set) == 2);
  REQUIRE(answer_share(set, 2) == Approx(4.0 / 6.0).epsilon(0));
  REQUIRE(answer_share(set, 1) == Approx(2.0 / 6.0).epsilon(0));
  REQUIRE(answer_share(set, 3) == 0);
  // A tie goes to the smaller class.
  EvalSet tie;
  tie.batches.push_back(collate({Example{.tokens = {1, 2}, .targets = {4, 3}, .scored = {1, 1}}}, HeadKind::Token));
  REQUIRE(commonest_answer(tie) == 3);
  // Nothing scored: no answer, no share.
  EvalSet empty;
  empty.batches.push_back(collate({c}, HeadKind::Token));
  REQUIRE(scored_positions(empty) == 0);
  REQUIRE(commonest_answer(empty) == -1);
  REQUIRE(std::isnan(answer_share(empty, 0)));

  // A swap-paired set has exactly as many of each label: chance, 0.5.
  auto order = make_task(TaskConfig{.name = "order"});
  REQUIRE(answer_share(make_eval_set(*order, 3, 0, 64, 512), 0) == 0.5);
  // modular_arithmetic_brackets' answers are skewed to 0 (a product with a digit 0 is 0): the
  // answer 0 beats the chance level of 1/5 (0.27 here) well beyond a sample's noise of 512
  // answers (0.02); copy's answers are uniform.
  auto brackets = make_task(TaskConfig{.name = "modular_arithmetic_brackets"});
  const EvalSet skewed = make_eval_set(*brackets, 3, 0, 64, 512);
  INFO("modular_arithmetic_brackets " << answer_share(skewed, 0));
  REQUIRE(commonest_answer(skewed) == 0);
  REQUIRE(answer_share(skewed, 0) > brackets->chance_level() + 0.05);
  auto copy = make_task(TaskConfig{.name = "copy"});
  const EvalSet uniform = make_eval_set(*copy, 3, 0, 64, 512);
  INFO("copy " << answer_share(uniform, commonest_answer(uniform)));
  REQUIRE(std::fabs(answer_share(uniform, commonest_answer(uniform)) - copy->chance_level()) < 0.02);
}
