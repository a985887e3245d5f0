// tests/report/test_statistics.cpp: the report's statistics against hand counts, closed forms and
// numpy / scipy / rliable values on small fixed data.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "report/statistics.h"

using namespace ordo;

namespace {

// n draws of mean + sd * N(0, 1) from CounterRng(seed, stream 0).
std::vector<double> normals(int64_t n, double mean, double sd, uint64_t seed) {
  CounterRng rng(seed, 0);
  std::vector<double> x(static_cast<size_t>(n));
  for (double& v : x) v = mean + sd * rng.normal();
  return x;
}

// The sample standard deviation (divisor n - 1).
double sample_sd(const std::vector<double>& x) {
  const double m = mean_of(x);
  double ss = 0;
  for (double v : x) ss += (v - m) * (v - m);
  return std::sqrt(ss / static_cast<double>(x.size() - 1));
}

double width(const Interval& i) { return i.high - i.low; }

}  // namespace

TEST_CASE("mean_of averages and rejects an empty vector", "[statistics]") {
  CHECK(mean_of({1, 2, 3, 6}) == 3.0);
  CHECK(mean_of({-2.5}) == -2.5);
  CHECK_THROWS_AS(mean_of({}), Error);
}

TEST_CASE("quantile_of interpolates linearly between order statistics as numpy does", "[statistics]") {
  const std::vector<double> x = {4, 1, 3, 2};  // sorted: 1 2 3 4, h = 3 q
  CHECK(quantile_of(x, 0.0) == 1.0);
  CHECK(quantile_of(x, 0.25) == Approx(1.75));  // numpy.quantile([1, 2, 3, 4], 0.25)
  CHECK(quantile_of(x, 0.5) == Approx(2.5));
  CHECK(quantile_of(x, 0.9) == Approx(3.7));
  CHECK(quantile_of(x, 1.0) == 4.0);
  CHECK(quantile_of({7}, 0.3) == 7.0);
  CHECK_THROWS_AS(quantile_of(x, 1.5), Error);
}

TEST_CASE("interquartile_mean drops floor(n / 4) values at each end as scipy's trim_mean(x, 0.25)", "[statistics]") {
  CHECK(interquartile_mean({8, 1, 7, 2, 6, 3, 5, 4}) == Approx(4.5));  // mean of 3 4 5 6
  CHECK(interquartile_mean({100, 1, 2, 3, 4}) == Approx(3.0));        // 1 and 100 dropped
  CHECK(interquartile_mean({1, 2, 100, 3}) == Approx(2.5));           // 1 and 100 dropped
  CHECK(interquartile_mean({1, 2, 30}) == Approx(11.0));              // floor(3 / 4) = 0: nothing dropped
  CHECK(interquartile_mean({5}) == 5.0);
  CHECK_THROWS_AS(interquartile_mean({}), Error);
}

TEST_CASE("probability_of_improvement counts wins and half ties over all pairs", "[statistics]") {
  const std::vector<double> x = {1, 2}, y = {1, 3};
  // 1 v 1 tie 0.5, 1 v 3 loss, 2 v 1 win, 2 v 3 loss: 1.5 / 4.
  CHECK(probability_of_improvement(x, y) == Approx(0.375));
  CHECK(probability_of_improvement(y, x) == Approx(0.625));  // poi(x, y) + poi(y, x) = 1
  CHECK(probability_of_improvement(x, x) == Approx(0.5));
  const std::vector<double> low = {0, 1, 2}, high = {5, 6};
  CHECK(probability_of_improvement(high, low) == 1.0);
  CHECK(probability_of_improvement(low, high) == 0.0);
  const std::vector<double> empty;
  CHECK_THROWS_AS(probability_of_improvement(x, empty), Error);
}

TEST_CASE("probability_of_improvement over tasks is the mean of the per-task values", "[statistics]") {
  const std::vector<std::vector<double>> x = {{1, 2}, {5, 6}}, y = {{1, 3}, {0, 1, 2}};
  CHECK(probability_of_improvement(x, y) == Approx((0.375 + 1.0) / 2));
  const std::vector<std::vector<double>> one_task = {{1, 3}};
  CHECK_THROWS_AS(probability_of_improvement(x, one_task), Error);
}

TEST_CASE("permutation_p_value enumerates every relabelling of tiny groups", "[statistics]") {
  // Pooled 1 2 3 4, C(4, 2) = 6 relabellings; |differences|: {1,2} 2, {1,3} 1, {1,4} 0, {2,3} 0,
  // {2,4} 1, {3,4} 2.
  CHECK(permutation_p_value({1, 2}, {3, 4}) == Approx(2.0 / 6));  // observed 2: two reach it
  CHECK(permutation_p_value({1, 3}, {2, 4}) == Approx(4.0 / 6));  // observed 1: four
  CHECK(permutation_p_value({1, 4}, {2, 3}) == 1.0);              // observed 0: all
  // Unequal sizes, pooled 0 1 2 6: a = {0}: 3, {1}: 5/3, {2}: 1/3, {6}: 5; observed 3.
  CHECK(permutation_p_value({0}, {1, 2, 6}) == Approx(2.0 / 4));
  CHECK_THROWS_AS(permutation_p_value({}, {1, 2}), Error);
}

TEST_CASE("permutation_p_value is 1 for groups of the same values, whatever the rounding", "[statistics]") {
  CHECK(permutation_p_value({0.1, 0.2, 0.7}, {0.1, 0.2, 0.7}) == 1.0);
  // Summed in another order the observed difference is ~1e-17, not 0, and six relabellings
  // equal to it in exact arithmetic round below it: without the tolerance p would be 14/20.
  CHECK(permutation_p_value({0.1, 0.7, 1.1}, {1.1, 0.7, 0.1}) == 1.0);
}

TEST_CASE("smallest_permutation_p is 2 / C(2n, n) for equal groups and 1 / C(n + m, n) otherwise", "[statistics]") {
  CHECK(smallest_permutation_p(3, 3) == Approx(0.1));  // 3 seeds vs 3: never below 0.05
  CHECK(smallest_permutation_p(5, 5) == Approx(2.0 / 252));
  CHECK(smallest_permutation_p(1, 2) == Approx(1.0 / 3));
  CHECK(smallest_permutation_p(4, 2) == Approx(1.0 / 15));
  CHECK(smallest_permutation_p(2, 4) == smallest_permutation_p(4, 2));
  CHECK_THROWS_AS(smallest_permutation_p(0, 3), Error);
}

TEST_CASE("smallest_permutation_p is what the exact test gives on groups that do not overlap", "[statistics]") {
  CHECK(permutation_p_value({10, 11, 12}, {0, 1, 2}) == Approx(smallest_permutation_p(3, 3)));
  CHECK(permutation_p_value({10, 11, 12, 13, 14}, {0, 1, 2, 3, 4}) == Approx(smallest_permutation_p(5, 5)));
  CHECK(permutation_p_value({100}, {0, 1}) == Approx(smallest_permutation_p(1, 2)));
  // The other extreme, a = {0, 1, 10, 11}, differs by 7 < 11: only the observed labelling counts.
  CHECK(permutation_p_value({10, 11, 12, 13}, {0, 1}) == Approx(smallest_permutation_p(4, 2)));
}

TEST_CASE("permutation_p_value by Monte Carlo agrees with the exact enumeration", "[statistics]") {
  const std::vector<double> a = {0.3, 1.2, 2.5, 0.8, 1.9}, b = {1.1, 2.8, 3.0, 2.2, 1.7};
  const double exact = permutation_p_value(a, b);
  CHECK(exact == Approx(42.0 / 252));  // counted by an independent enumeration
  const double monte_carlo = permutation_p_value(a, b, /*max_exact=*/0);
  // Really sampled: 20001 p is the integer 1 + hits (20001 * 42 / 252 = 3333.5 is not).
  CHECK(monte_carlo * 20001 == Approx(std::round(monte_carlo * 20001)).margin(1e-6));
  CHECK(std::abs(monte_carlo - exact) < 0.02);
  CHECK(permutation_p_value(a, b, 0) == monte_carlo);  // deterministic
  CHECK(permutation_p_value(a, b, 0, 20000, kStatisticsSeed + 1) != monte_carlo);
}

TEST_CASE("permutation_p_value by Monte Carlo is (1 + hits) / (1 + resamples), never 0", "[statistics]") {
  // C(40, 20) > 1e11 relabellings, so the default takes the Monte Carlo path. Groups that do not
  // overlap: a random relabelling reaches the observed difference with probability 2 / C(40, 20).
  const std::vector<double> a = normals(20, 10, 1, 1), b = normals(20, -10, 1, 2);
  CHECK(permutation_p_value(a, b) == 1.0 / 20001);
  CHECK(permutation_p_value(a, b, 200000, 99) == 1.0 / 100);
}

TEST_CASE("bootstrap_mean_interval contains the mean and is symmetric for symmetric data", "[statistics]") {
  const std::vector<double> x = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const Interval ci = bootstrap_mean_interval(x);
  CHECK(ci.estimate == 5.0);
  CHECK(ci.low < 5.0);
  CHECK(ci.high > 5.0);
  // The resampled mean has standard deviation sqrt(60 / 81) = 0.86: about +-1.96 * 0.86.
  CHECK(width(ci) == Approx(2 * 1.96 * std::sqrt(60.0 / 81)).epsilon(0.1));
  CHECK(std::abs((ci.high - 5.0) - (5.0 - ci.low)) < 0.05 * width(ci));
}

TEST_CASE("bootstrap_mean_interval collapses for one value and for constant data", "[statistics]") {
  const Interval one = bootstrap_mean_interval({0.7});
  CHECK((one.estimate == 0.7 && one.low == 0.7 && one.high == 0.7));
  // Every resample sums the same values in the same order as mean_of: the same bits.
  const std::vector<double> constant(7, 0.1);
  const Interval ci = bootstrap_mean_interval(constant);
  CHECK(ci.low == ci.estimate);
  CHECK(ci.high == ci.estimate);
  CHECK(ci.estimate == mean_of(constant));
}

TEST_CASE("bootstrap_mean_interval gives the same bits for the same seed and widens with the level", "[statistics]") {
  const std::vector<double> x = {0.2, 0.9, 0.4, 0.95, 0.5, 0.7};
  const Interval first = bootstrap_mean_interval(x), again = bootstrap_mean_interval(x);
  CHECK((first.low == again.low && first.high == again.high));
  const Interval other_seed = bootstrap_mean_interval(x, 0.95, 10000, kStatisticsSeed + 1);
  CHECK((other_seed.low != first.low || other_seed.high != first.high));
  const Interval half = bootstrap_mean_interval(x, 0.5), most = bootstrap_mean_interval(x, 0.99);
  CHECK(width(half) < width(first));
  CHECK(width(first) < width(most));
  CHECK_THROWS_AS(bootstrap_mean_interval({}), Error);
  CHECK_THROWS_AS(bootstrap_mean_interval(x, 1.0), Error);
  CHECK_THROWS_AS(bootstrap_mean_interval(x, 0.95, 0), Error);
}

TEST_CASE("bootstrap_mean_interval on 400 normal values is 2 * 1.96 * s / sqrt(n) wide", "[statistics]") {
  const std::vector<double> x = normals(400, 3, 2, 11);
  const Interval ci = bootstrap_mean_interval(x);
  CHECK(width(ci) == Approx(2 * 1.96 * sample_sd(x) / 20).epsilon(0.1));
  CHECK((ci.low < ci.estimate && ci.estimate < ci.high));
}

TEST_CASE("bootstrap_difference_interval resamples each group within itself", "[statistics]") {
  // Constant groups: every stratified resample gives 3 - 1 exactly; pooled resampling would not.
  const Interval constant = bootstrap_difference_interval({3, 3, 3, 3}, {1, 1, 1});
  CHECK((constant.estimate == 2.0 && constant.low == 2.0 && constant.high == 2.0));
  const std::vector<double> a = {0.2, 0.9, 0.4, 0.95}, b = {0.1, 0.3, 0.35};
  const Interval ci = bootstrap_difference_interval(a, b), again = bootstrap_difference_interval(a, b);
  CHECK(ci.estimate == Approx(0.6125 - 0.25));
  CHECK((ci.low < ci.estimate && ci.estimate < ci.high));
  CHECK((ci.low == again.low && ci.high == again.high));
  CHECK_THROWS_AS(bootstrap_difference_interval(a, {}), Error);
}

TEST_CASE("bootstrap_difference_interval on normal groups is 2 * 1.96 * sqrt(sa^2 / n + sb^2 / m) wide", "[statistics]") {
  const std::vector<double> a = normals(400, 1, 1, 21), b = normals(300, 0, 2, 22);
  const Interval ci = bootstrap_difference_interval(a, b);
  const double se = std::sqrt(std::pow(sample_sd(a), 2) / 400 + std::pow(sample_sd(b), 2) / 300);
  CHECK(width(ci) == Approx(2 * 1.96 * se).epsilon(0.1));
  CHECK(ci.estimate == Approx(mean_of(a) - mean_of(b)));
}
