// tests/data/test_periodic.cpp: the `periodic` task: primitive motifs, recoverable masks.
#include <catch2/catch.hpp>

#include <cmath>

#include "data/periodic.h"
#include "tests/data/data_test_util.h"

using namespace ordo;

TEST_CASE("periodic: is_primitive recognises repeated motifs", "[data][periodic]") {
  CHECK(PeriodicTask::is_primitive({2, 3}));
  CHECK(PeriodicTask::is_primitive({2, 2, 3}));
  CHECK(PeriodicTask::is_primitive({2, 3, 2, 2}));
  CHECK_FALSE(PeriodicTask::is_primitive({2, 2}));
  CHECK_FALSE(PeriodicTask::is_primitive({2, 3, 2, 3}));
  CHECK_FALSE(PeriodicTask::is_primitive({4, 5, 6, 4, 5, 6}));
  CHECK_FALSE(PeriodicTask::is_primitive({7, 7, 7, 7, 7, 7, 7, 7}));
}

TEST_CASE("periodic: motifs are primitive, tiled, periods uniform in [p_min, p_max]",
          "[data][periodic]") {
  PeriodicTask task(TaskConfig{.name = "periodic"});
  std::vector<int64_t> period_counts(9, 0);
  const int n = 7000;
  for (int i = 0; i < n; ++i) {
    const int64_t len = task.sample_length(2, i);
    PeriodicTask::Sequence s = task.sequence(2, i, len);
    REQUIRE(s.period >= 2);
    REQUIRE(s.period <= 8);
    REQUIRE(static_cast<int64_t>(s.motif.size()) == s.period);
    REQUIRE(static_cast<int64_t>(s.symbols.size()) == len);
    for (int32_t id : s.motif) REQUIRE((id >= 2 && id <= 9));
    for (int64_t t = 0; t < len; ++t) REQUIRE(s.symbols[t] == s.motif[t % s.period]);
    // With L >= 2p, a primitive motif makes p the smallest period of the whole sequence.
    REQUIRE(test::smallest_period(s.symbols) == s.period);
    period_counts[s.period]++;
  }
  std::vector<int64_t> used(period_counts.begin() + 2, period_counts.end());
  CHECK(test::chi_square_uniform(used) < 22.5);  // 6 dof: P(chi2 > 22.5) = 0.001
}

TEST_CASE("periodic/complete: round(0.25 L) masks, each recoverable, targets right",
          "[data][periodic]") {
  PeriodicTask task(TaskConfig{.name = "periodic"});
  REQUIRE(task.head() == HeadKind::Token);
  REQUIRE(task.num_classes() == 8);
  REQUIRE(task.vocab_size() == 10);
  std::vector<int64_t> masked_at(16, 0);
  for (int i = 0; i < 2000; ++i) {
    const int64_t len = task.sample_length(8, i);
    PeriodicTask::Sequence s = task.sequence(8, i, len);
    Example e = task.example(8, i, len);
    const int64_t p = s.period;
    int64_t num_masked = 0;
    for (int64_t t = 0; t < len; ++t) {
      if (e.scored[t]) {
        ++num_masked;
        REQUIRE(e.tokens[t] == PeriodicTask::kMask);
        REQUIRE(e.targets[t] == s.symbols[t] - PeriodicTask::kFirstSymbol);
        // Some visible position of the same residue class shows the answer.
        bool recoverable = false;
        for (int64_t u = t % p; u < len && !recoverable; u += p)
          recoverable = !e.scored[u] && e.tokens[u] == s.symbols[t];
        REQUIRE(recoverable);
      } else {
        REQUIRE(e.tokens[t] == s.symbols[t]);
      }
    }
    REQUIRE(num_masked == std::llround(0.25 * len));
    if (len == 16)
      for (int64_t t = 0; t < 16; ++t) masked_at[t] += e.scored[t];
  }
  // The masks move around: every position of a 16-long sequence is masked sometimes.
  for (int64_t c : masked_at) CHECK(c > 0);
}

TEST_CASE("periodic/complete: every residue class keeps a visible position even when dense",
          "[data][periodic]") {
  // p = 8, L = 16: two positions per class, 4 masks; and mask_rate 0.9 caps at L - p.
  PeriodicTask task(TaskConfig{.name = "periodic", .min_len = 16, .max_len = 16}
                               .with("p-min", "8").with("p-max", "8").with("mask-rate", "0.9"));
  for (int i = 0; i < 500; ++i) {
    Example e = task.example(1, i, 16);
    int64_t num_masked = 0;
    for (int64_t c = 0; c < 8; ++c) {
      REQUIRE((e.scored[c] == 0 || e.scored[c + 8] == 0));
      num_masked += e.scored[c] + e.scored[c + 8];
    }
    REQUIRE(num_masked == 8);
  }
}

TEST_CASE("periodic/period: no masks, pooled label = p - p_min", "[data][periodic]") {
  PeriodicTask task(
      TaskConfig{.name = "periodic"}.with("p-min", "3").with("p-max", "6").with("target", "period"));
  REQUIRE(task.head() == HeadKind::Pooled);
  REQUIRE(task.num_classes() == 4);
  REQUIRE(task.min_len() == 16);
  std::vector<int64_t> labels(4, 0);
  for (int i = 0; i < 2000; ++i) {
    const int64_t len = task.sample_length(6, i);
    Example e = task.example(6, i, len);
    REQUIRE(e.targets.empty());
    REQUIRE(e.label >= 0);
    REQUIRE(e.label < 4);
    for (int32_t id : e.tokens) REQUIRE(id >= PeriodicTask::kFirstSymbol);
    REQUIRE(test::smallest_period(e.tokens) == task.period_of_class(e.label));
    labels[e.label]++;
  }
  for (int64_t c : labels) CHECK(std::abs(c - 500) < 5 * std::sqrt(500.0));
  Batch b = task.batch(6, 0, 8);
  REQUIRE(b.targets.shape() == Shape{8});
  REQUIRE(b.score.shape() == Shape{8});
}
