// tests/data/test_order.cpp: the `order` task: labels, positions, the gap option, twins.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "data/order.h"
#include "tests/data/data_test_util.h"

using namespace ordo;

namespace {

struct Positions {
  int64_t a = -1, b = -1;
};

// Checks the token alphabet and returns where A and B are.
Positions find_pair(const Example& e, int64_t vocab) {
  Positions pos;
  int count_a = 0, count_b = 0;
  for (int64_t t = 0; t < static_cast<int64_t>(e.tokens.size()); ++t) {
    const int32_t id = e.tokens[t];
    if (id == OrderTask::kA) pos.a = t, ++count_a;
    else if (id == OrderTask::kB) pos.b = t, ++count_b;
    else REQUIRE((id >= OrderTask::kFirstFiller && id < OrderTask::kFirstFiller + vocab));
  }
  REQUIRE(count_a == 1);
  REQUIRE(count_b == 1);
  return pos;
}

}  // namespace

TEST_CASE("order: one A, one B, fillers in range, label = [pos(A) < pos(B)], balanced",
          "[data][order]") {
  OrderTask task(TaskConfig{.name = "order"});
  REQUIRE(task.head() == HeadKind::Pooled);
  REQUIRE(task.num_classes() == 2);
  REQUIRE(task.vocab_size() == 8 + 3);
  REQUIRE(task.min_len() == 8);
  REQUIRE(task.max_len() == 32);
  const int n = 10000;
  int ones = 0;
  for (int i = 0; i < n; ++i) {
    const int64_t len = task.sample_length(7, i);
    Example e = task.example(7, i, len);
    REQUIRE(static_cast<int64_t>(e.tokens.size()) == len);
    Positions pos = find_pair(e, 8);
    REQUIRE(e.label == (pos.a < pos.b ? 1 : 0));
    ones += e.label;
  }
  CHECK(std::abs(ones / double(n) - 0.5) < 0.02);
}

TEST_CASE("order: A and B positions are uniform over the sequence", "[data][order]") {
  const int64_t len = 16;
  OrderTask task(TaskConfig{.name = "order", .min_len = len, .max_len = len});
  std::vector<int64_t> count_a(len, 0), count_b(len, 0), count_dist(len, 0);
  for (int i = 0; i < 10000; ++i) {
    Positions pos = find_pair(task.example(3, i, len), 8);
    count_a[pos.a]++;
    count_b[pos.b]++;
    count_dist[std::abs(pos.a - pos.b)]++;
  }
  // 15 degrees of freedom: P(chi2 > 37.7) = 0.001.
  CHECK(test::chi_square_uniform(count_a) < 37.7);
  CHECK(test::chi_square_uniform(count_b) < 37.7);
  // Distinct uniform positions: distance d has probability 2 (L - d) / (L (L - 1)).
  REQUIRE(count_dist[0] == 0);
  for (int64_t d = 1; d < len; ++d) {
    const double expected = 10000.0 * 2 * (len - d) / (len * (len - 1));
    CHECK(std::abs(count_dist[d] - expected) < 5 * std::sqrt(expected) + 2);
  }
}

TEST_CASE("order: --gap fixes the distance exactly, positions uniform among those allowed",
          "[data][order]") {
  const int64_t len = 20, gap = 5;
  OrderTask task(TaskConfig{.name = "order", .min_len = len, .max_len = len}.with("gap", std::to_string(gap)));
  std::vector<int64_t> first(len - gap, 0);
  int ones = 0;
  for (int i = 0; i < 6000; ++i) {
    Example e = task.example(11, i, len);
    Positions pos = find_pair(e, 8);
    REQUIRE(std::abs(pos.a - pos.b) == gap);
    REQUIRE(e.label == (pos.a < pos.b ? 1 : 0));
    first[std::min(pos.a, pos.b)]++;
    ones += e.label;
  }
  CHECK(std::abs(ones / 6000.0 - 0.5) < 0.03);
  CHECK(test::chi_square_uniform(first) < 37.7);  // 14 dof: P(chi2 > 36.1) = 0.001

  // A gap also holds in batches and at lengths beyond the training range.
  Batch b = task.batch(2, 0, 32);
  for (int64_t s = 0; s < b.batch_size(); ++s) {
    Example e;
    e.tokens = test::row(b.tokens, s, b.lengths[s]);
    Positions pos = find_pair(e, 8);
    REQUIRE(std::abs(pos.a - pos.b) == gap);
  }
  Positions far = find_pair(task.example(11, 0, 100), 8);
  REQUIRE(std::abs(far.a - far.b) == gap);
}

TEST_CASE("order: a gap at or above min_len is an error naming --gap and --min-len, not a clamp",
          "[data][order]") {
  using Catch::Matchers::Contains;
  REQUIRE_THROWS_WITH(OrderTask(TaskConfig{.name = "order"}.with("gap", "20")),
                      Contains("--gap 20 does not fit --min-len 8") && Contains("set --min-len 21"));
  REQUIRE_THROWS_WITH(OrderTask(TaskConfig{.name = "order", .min_len = 5, .max_len = 32}.with("gap", "5")),
                      Contains("--gap 5 does not fit --min-len 5"));
  // The range is kept exactly as given when the gap fits.
  OrderTask task(TaskConfig{.name = "order", .min_len = 21}.with("gap", "20"));
  REQUIRE(task.min_len() == 21);
  REQUIRE(task.max_len() == 32);
  for (int i = 0; i < 200; ++i) {
    const int64_t len = task.sample_length(1, i);
    REQUIRE(len >= 21);
    REQUIRE(len <= 32);
  }
  REQUIRE_THROWS_WITH(task.example(1, 0, 20), Contains("too short"));
}

TEST_CASE("order: the evaluation twin exchanges A and B and flips the label", "[data][order]") {
  OrderTask task(TaskConfig{.name = "order"});
  REQUIRE(task.has_eval_twin());
  for (int i = 0; i < 100; ++i) {
    Example e = task.example(5, i, 12);
    Example twin = task.eval_twin(e);
    Positions p = find_pair(e, 8), q = find_pair(twin, 8);
    REQUIRE(q.a == p.b);
    REQUIRE(q.b == p.a);
    REQUIRE(twin.label == 1 - e.label);
    for (int64_t t = 0; t < 12; ++t)
      if (t != p.a && t != p.b) REQUIRE(twin.tokens[t] == e.tokens[t]);
  }
}
