// report/statistics.cpp: bootstrap intervals, permutation tests and rliable's aggregates
// (definitions in statistics.h).
#include "report/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "core/error.h"
#include "core/rng.h"

namespace ordo {

namespace {

// One CounterRng stream per independent consumer of draws.
constexpr uint64_t kMeanStream = 1, kGroupAStream = 2, kGroupBStream = 3, kPermutationStream = 4;

// The binomial coefficient C(n, k) in double (exact while k C(n, k) < 2^53).
double binomial(int64_t n, int64_t k) {
  k = std::min(k, n - k);
  double c = 1;
  for (int64_t i = 1; i <= k; ++i) c = c * static_cast<double>(n - k + i) / static_cast<double>(i);
  return c;
}

// The quantile_of an already sorted vector.
double sorted_quantile(const std::vector<double>& sorted, double q) {
  const double h = static_cast<double>(sorted.size() - 1) * q;
  const size_t k = static_cast<size_t>(std::floor(h));
  if (k + 1 >= sorted.size()) return sorted.back();
  return sorted[k] + (h - static_cast<double>(k)) * (sorted[k + 1] - sorted[k]);
}

void check_bootstrap(const char* name, double level, int64_t resamples) {
  ORDO_CHECK(level > 0 && level < 1, name, ": level must lie in (0, 1), got ", level);
  ORDO_CHECK(resamples >= 1, name, ": resamples must be >= 1, got ", resamples);
}

// The mean of n values drawn from x with replacement.
double resample_mean(const std::vector<double>& x, CounterRng& rng) {
  const int64_t n = static_cast<int64_t>(x.size());
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += x[static_cast<size_t>(rng.uniform_int(0, n - 1))];
  return sum / static_cast<double>(n);
}

// The percentile interval of bootstrap replicates around `estimate`.
Interval percentile_interval(double estimate, std::vector<double> replicates, double level) {
  std::sort(replicates.begin(), replicates.end());
  const double tail = (1 - level) / 2;
  return {estimate, sorted_quantile(replicates, tail), sorted_quantile(replicates, 1 - tail)};
}

// The relabellings of `pooled` (a then b): a subset of n positions is group a, the other m group
// b. A relabelling is a hit when its |mean difference| reaches the observed one, within the
// tolerance of statistics.h.
struct PermutationTest {
  std::vector<double> pooled;
  int64_t n, m;
  double total, threshold;

  PermutationTest(const std::vector<double>& a, const std::vector<double>& b)
      : n(static_cast<int64_t>(a.size())), m(static_cast<int64_t>(b.size())) {
    pooled = a;
    pooled.insert(pooled.end(), b.begin(), b.end());
    total = std::accumulate(pooled.begin(), pooled.end(), 0.0);
    double largest = 0;
    for (double v : pooled) largest = std::max(largest, std::abs(v));
    const double observed = std::accumulate(a.begin(), a.end(), 0.0);
    threshold = difference(observed) - 1e-12 * largest;
  }

  // |mean(group a) - mean(group b)| when group a sums to `group_sum`.
  double difference(double group_sum) const {
    return std::abs(group_sum / static_cast<double>(n) - (total - group_sum) / static_cast<double>(m));
  }
  bool hit(double group_sum) const { return difference(group_sum) >= threshold; }
};

// Advances `subset` (increasing positions in 0..size-1) to the next subset in lexicographic
// order; false after the last one.
bool next_subset(std::vector<int64_t>& subset, int64_t size) {
  const int64_t k = static_cast<int64_t>(subset.size());
  int64_t i = k - 1;
  while (i >= 0 && subset[static_cast<size_t>(i)] == size - k + i) --i;
  if (i < 0) return false;
  ++subset[static_cast<size_t>(i)];
  for (int64_t j = i + 1; j < k; ++j) subset[static_cast<size_t>(j)] = subset[static_cast<size_t>(j - 1)] + 1;
  return true;
}

// hits / C(n + m, n) over every subset of n positions.
double exact_p(const PermutationTest& test) {
  std::vector<int64_t> subset(static_cast<size_t>(test.n));
  std::iota(subset.begin(), subset.end(), 0);
  int64_t hits = 0, count = 0;
  do {
    double sum = 0;
    for (int64_t i : subset) sum += test.pooled[static_cast<size_t>(i)];
    hits += test.hit(sum);
    ++count;
  } while (next_subset(subset, test.n + test.m));
  return static_cast<double>(hits) / static_cast<double>(count);
}

// (1 + hits) / (1 + resamples) over random relabellings: a partial Fisher-Yates shuffle puts a
// uniformly random n-subset in the first n places, whatever the order it starts from (`test` is
// a copy, shuffled in place).
double monte_carlo_p(PermutationTest test, int64_t resamples, uint64_t seed) {
  CounterRng rng(seed, kPermutationStream);
  const int64_t size = test.n + test.m;
  int64_t hits = 0;
  for (int64_t r = 0; r < resamples; ++r) {
    double sum = 0;
    for (int64_t i = 0; i < test.n; ++i) {
      std::swap(test.pooled[static_cast<size_t>(i)], test.pooled[static_cast<size_t>(rng.uniform_int(i, size - 1))]);
      sum += test.pooled[static_cast<size_t>(i)];
    }
    hits += test.hit(sum);
  }
  return static_cast<double>(1 + hits) / static_cast<double>(1 + resamples);
}

}  // namespace

double mean_of(const std::vector<double>& x) {
  ORDO_CHECK(!x.empty(), "mean_of: no values");
  return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
}

double quantile_of(std::vector<double> x, double q) {
  ORDO_CHECK(!x.empty(), "quantile_of: no values");
  ORDO_CHECK(q >= 0 && q <= 1, "quantile_of: q must lie in [0, 1], got ", q);
  std::sort(x.begin(), x.end());
  return sorted_quantile(x, q);
}

Interval bootstrap_mean_interval(const std::vector<double>& x, double level, int64_t resamples, uint64_t seed) {
  ORDO_CHECK(!x.empty(), "bootstrap_mean_interval: no values to resample");
  check_bootstrap("bootstrap_mean_interval", level, resamples);
  CounterRng rng(seed, kMeanStream);
  std::vector<double> means(static_cast<size_t>(resamples));
  for (double& mean : means) mean = resample_mean(x, rng);
  return percentile_interval(mean_of(x), std::move(means), level);
}

Interval bootstrap_difference_interval(const std::vector<double>& a, const std::vector<double>& b, double level,
                                       int64_t resamples, uint64_t seed) {
  ORDO_CHECK(!a.empty() && !b.empty(), "bootstrap_difference_interval: a group has no values (sizes ", a.size(),
             " and ", b.size(), ")");
  check_bootstrap("bootstrap_difference_interval", level, resamples);
  CounterRng rng_a(seed, kGroupAStream), rng_b(seed, kGroupBStream);
  std::vector<double> differences(static_cast<size_t>(resamples));
  for (double& d : differences) d = resample_mean(a, rng_a) - resample_mean(b, rng_b);
  return percentile_interval(mean_of(a) - mean_of(b), std::move(differences), level);
}

double permutation_p_value(const std::vector<double>& a, const std::vector<double>& b, int64_t max_exact,
                           int64_t resamples, uint64_t seed) {
  ORDO_CHECK(!a.empty() && !b.empty(), "permutation_p_value: a group has no values (sizes ", a.size(), " and ",
             b.size(), ")");
  ORDO_CHECK(resamples >= 1, "permutation_p_value: resamples must be >= 1, got ", resamples);
  const PermutationTest test(a, b);
  if (binomial(test.n + test.m, test.n) <= static_cast<double>(max_exact)) return exact_p(test);
  return monte_carlo_p(test, resamples, seed);
}

double smallest_permutation_p(int64_t n, int64_t m) {
  ORDO_CHECK(n >= 1 && m >= 1, "smallest_permutation_p: group sizes must be >= 1, got ", n, " and ", m);
  return (n == m ? 2.0 : 1.0) / binomial(n + m, n);
}

double probability_of_improvement(const std::vector<double>& x, const std::vector<double>& y) {
  ORDO_CHECK(!x.empty() && !y.empty(), "probability_of_improvement: a group has no values (sizes ", x.size(), " and ",
             y.size(), ")");
  double wins = 0;  // #{x > y} + #{x = y} / 2
  for (double xi : x)
    for (double yj : y) wins += xi > yj ? 1.0 : xi == yj ? 0.5 : 0.0;
  return wins / (static_cast<double>(x.size()) * static_cast<double>(y.size()));
}

double probability_of_improvement(const std::vector<std::vector<double>>& x_per_task,
                                  const std::vector<std::vector<double>>& y_per_task) {
  ORDO_CHECK(!x_per_task.empty() && x_per_task.size() == y_per_task.size(),
             "probability_of_improvement: need the same non-zero number of tasks, got ", x_per_task.size(), " and ",
             y_per_task.size());
  double sum = 0;
  for (size_t t = 0; t < x_per_task.size(); ++t) sum += probability_of_improvement(x_per_task[t], y_per_task[t]);
  return sum / static_cast<double>(x_per_task.size());
}

double interquartile_mean(std::vector<double> x) {
  ORDO_CHECK(!x.empty(), "interquartile_mean: no values");
  std::sort(x.begin(), x.end());
  const size_t cut = x.size() / 4;
  return mean_of(std::vector<double>(x.begin() + static_cast<std::ptrdiff_t>(cut), x.end() - static_cast<std::ptrdiff_t>(cut)));
}

}  // namespace ordo
