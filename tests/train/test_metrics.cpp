// tests/train/test_metrics.cpp: the evaluation counts of docs/spec.md §3.9 on hand-built
// batches: accuracy, exact match, loss and accuracy by distance.
#include <catch2/catch.hpp>

#include <cmath>

#include "train/metrics.h"

using namespace ordo;

namespace {

// A pooled batch of `labels.size()` sequences with the given distances (collate's layout).
Batch pooled_batch(const std::vector<int32_t>& labels, const std::vector<int32_t>& distances) {
  std::vector<Example> examples;
  for (size_t i = 0; i < labels.size(); ++i) {
    Example e;
    e.tokens = {3, 4, 5};
    e.label = labels[i];
    e.distance = distances[i];
    examples.push_back(e);
  }
  return collate(examples, HeadKind::Pooled);
}

}  // namespace

TEST_CASE("metrics: pooled accuracy, loss and accuracy by distance", "[train][metrics]") {
  // Four sequences, labels 1 0 1 1 at distances 2 2 5 -1 (the last records none).
  const Batch b = pooled_batch({1, 0, 1, 1}, {2, 2, 5, -1});
  // Logits (B, 2): right, wrong, right, wrong.
  Tensor logits = Tensor::from({4, 2}, {0.f, 1.f, 0.f, 2.f, -1.f, 1.f, 3.f, 0.f});
  const MetricCounts m = score_batch(logits, b);
  CHECK(m.scored == 4);
  CHECK(m.correct == 2);
  CHECK(m.accuracy() == 0.5);
  CHECK(m.exact_match() == 0.5);
  const double want_loss = (std::log1p(std::exp(-1.0)) + std::log1p(std::exp(2.0)) + std::log1p(std::exp(-2.0)) +
                            std::log1p(std::exp(3.0))) / 4;
  CHECK(m.mean_loss() == Approx(want_loss).epsilon(1e-6));
  CHECK(m.scored_by_distance == std::vector<int64_t>{0, 0, 2, 0, 0, 1});
  CHECK(m.correct_by_distance == std::vector<int64_t>{0, 0, 1, 0, 0, 1});
  const std::vector<double> acc = m.accuracy_by_distance();
  REQUIRE(acc.size() == 6);
  CHECK(std::isnan(acc[0]));
  CHECK(acc[2] == 0.5);
  CHECK(acc[5] == 1.0);

  // Counts add up over batches whose longest distances differ.
  MetricCounts total = m;
  total.add(score_batch(Tensor::from({1, 2}, {0.f, 1.f}), pooled_batch({1}, {7})));
  total.add(score_batch(Tensor::from({1, 2}, {1.f, 0.f}), pooled_batch({1}, {2})));
  CHECK(total.scored_by_distance == std::vector<int64_t>{0, 0, 3, 0, 0, 1, 0, 1});
  CHECK(total.correct_by_distance == std::vector<int64_t>{0, 0, 1, 0, 0, 1, 0, 1});
  CHECK(total.accuracy() == Approx(3.0 / 6));
}

TEST_CASE("metrics: a token sequence's scored positions count at its distance", "[train][metrics]") {
  // One sequence of 3 positions, positions 1 and 2 scored (targets 1, 0), distance 4.
  Example e;
  e.tokens = {3, 4, 5};
  e.targets = {0, 1, 0};
  e.scored = {0, 1, 1};
  e.distance = 4;
  const Batch b = collate({e}, HeadKind::Token);
  // Position 1 right, position 2 wrong; position 0 unscored whatever it says.
  Tensor logits = Tensor::from({1, 3, 2}, {5.f, 0.f, 0.f, 1.f, 0.f, 1.f});
  const MetricCounts m = score_batch(logits, b);
  CHECK(m.scored == 2);
  CHECK(m.correct == 1);
  CHECK(m.sequences == 1);
  CHECK(m.exact == 0);
  CHECK(m.scored_by_distance == std::vector<int64_t>{0, 0, 0, 0, 2});
  CHECK(m.correct_by_distance == std::vector<int64_t>{0, 0, 0, 0, 1});
  // A task that records no distance leaves the curves empty.
  e.distance = -1;
  CHECK(score_batch(logits, collate({e}, HeadKind::Token)).scored_by_distance.empty());
}
