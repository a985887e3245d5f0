// tests/report/test_attention_stats.cpp: docs/spec.md §6 statistics equal hand-computed values on fixed
// attention matrices, padding included.
#include <catch2/catch.hpp>

#include <cmath>

#include "report/attention_stats.h"

using namespace ordo;

namespace {

// (B = 2, H = 1, L = 4). Sequence 0 has length 3: its padded query row 3 and key column 3
// hold garbage that must be ignored. Sequence 1 (length 4) attends uniformly.
Tensor fixture() {
  return Tensor::from(Shape{2, 1, 4, 4}, {
      // sequence 0
      1.00f, 0.00f, 0.00f, 0.70f,   // query 0: all on itself (key 3 is padding: ignored)
      0.50f, 0.50f, 0.00f, 0.90f,   // query 1: half on 0, half on itself
      0.25f, 0.25f, 0.50f, 0.90f,   // query 2
      0.00f, 0.00f, 0.00f, 1.00f,   // query 3: padding, skipped
      // sequence 1
      0.25f, 0.25f, 0.25f, 0.25f,
      0.25f, 0.25f, 0.25f, 0.25f,
      0.25f, 0.25f, 0.25f, 0.25f,
      0.25f, 0.25f, 0.25f, 0.25f,
  });
}

}  // namespace

TEST_CASE("attention stats: one row by hand", "[analyze]") {
  const Real row[3] = {0.25f, 0.25f, 0.5f};
  CHECK(row_entropy(row, 3) == Approx(1.5 * std::log(2.0)));
  CHECK(row_span(row, 3, 2) == 2);
  CHECK(row_distance(row, 3, 2) == Approx(0.75));
  const Real self[2] = {0.0f, 1.0f};
  CHECK(row_entropy(self, 2) == 0);  // 0 log 0 = 0
  CHECK(row_span(self, 2, 1) == 0);
  // No weight above eps (30 keys of 1/30 < 0.05): the span is 0 by definition.
  std::vector<Real> flat(30, static_cast<Real>(1.0 / 30));
  CHECK(row_span(flat.data(), 30, 0) == 0);
  CHECK(row_span(flat.data(), 30, 0, 0.01) == 29);
}

TEST_CASE("attention stats: per sequence, padding ignored", "[analyze]") {
  const auto s = sequence_attention_stats(fixture(), {3, 4});
  REQUIRE(s.size() == 2);
  const double ln2 = std::log(2.0);
  // Sequence 0, queries 0..2: entropies 0, ln 2, 1.5 ln 2; spans 0, 1, 2; distances 0, 0.5, 0.75.
  CHECK(s[0].entropy == Approx(2.5 * ln2 / 3));
  CHECK(s[0].span_mean == Approx(1.0));
  CHECK(s[0].span_max == 2);
  CHECK(s[0].distance == Approx(1.25 / 3));
  // Sequence 1, uniform over 4: entropy ln 4; spans 3, 2, 2, 3; distances 1.5, 1, 1, 1.5.
  CHECK(s[1].entropy == Approx(std::log(4.0)));
  CHECK(s[1].span_mean == Approx(2.5));
  CHECK(s[1].span_max == 3);
  CHECK(s[1].distance == Approx(1.25));
}

TEST_CASE("attention stats: batch aggregate is the mean over sequences, max of spans", "[analyze]") {
  const auto s = attention_stats(fixture(), {3, 4});
  REQUIRE(s.size() == 1);
  CHECK(s[0].entropy == Approx((2.5 * std::log(2.0) / 3 + std::log(4.0)) / 2));
  CHECK(s[0].span_mean == Approx(1.75));
  CHECK(s[0].span_max == 3);
  CHECK(s[0].distance == Approx((1.25 / 3 + 1.25) / 2));
}

TEST_CASE("attention stats: bad input is an error", "[analyze]") {
  CHECK_THROWS_WITH(attention_stats(Tensor::zeros(Shape{2, 4, 4}), {4, 4}), Catch::Contains("(B, H, L, L)"));
  CHECK_THROWS_WITH(attention_stats(fixture(), {3}), Catch::Contains("1 lengths for a batch of 2"));
  CHECK_THROWS_WITH(attention_stats(fixture(), {3, 5}), Catch::Contains("outside [1, 4]"));
}
