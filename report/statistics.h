// report/statistics.h: what a report may say about a handful of seeds: means with bootstrap
// confidence intervals, permutation tests of a difference, and rliable's aggregates (Agarwal et
// al. 2021, "Deep Reinforcement Learning at the Edge of the Statistical Precipice").
//
//   Interval ci = bootstrap_mean_interval(rope_acc);            // 95%, 10000 resamples
//   Interval gap = bootstrap_difference_interval(rope_acc, alibi_acc);
//   double p = permutation_p_value(rope_acc, alibi_acc);        // exact for small groups
//   if (smallest_permutation_p(3, 3) > 0.05) ...                // 0.1: 3 seeds vs 3 never reach 0.05
//
// Every random draw comes from CounterRng (core/rng.h) under a fixed default seed, so the same
// numbers give the same bits on every machine. Empty inputs throw ordo::Error.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace ordo {

// A missing value (no runs, no seeds, no such length).
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The default seed of the resampling functions below.
constexpr uint64_t kStatisticsSeed = 0x5eedb0075742a7ULL;

// A point estimate and an interval around it (low <= high).
struct Interval {
  double estimate, low, high;
};

// The arithmetic mean sum_i x_i / n, summed in order.
double mean_of(const std::vector<double>& x);

// The q-quantile (0 <= q <= 1) by linear interpolation between order statistics, numpy's default
// method "linear" (Hyndman & Fan 1996, definition 7): with x sorted ascending, h = (n - 1) q and
// k = floor(h), it is x[k] + (h - k) (x[k + 1] - x[k]) (x[n - 1] when k = n - 1).
double quantile_of(std::vector<double> x, double q);

// The percentile bootstrap interval for the mean (Efron & Tibshirani 1993, ch. 13; the interval
// rliable reports): `resamples` samples of n values drawn from x with replacement, each one's
// mean taken, and [low, high] = the quantile_of those means at (1 - level) / 2 and
// 1 - (1 - level) / 2. estimate = mean_of(x). One value (or constant x) gives [x0, x0].
// Throws when x is empty, level is outside (0, 1) or resamples < 1.
Interval bootstrap_mean_interval(const std::vector<double>& x, double level = 0.95, int64_t resamples = 10000,
                                 uint64_t seed = kStatisticsSeed);

// The percentile bootstrap interval for mean(a) - mean(b), stratified by group (rliable's
// StratifiedBootstrap): each resample draws |a| values from a and |b| values from b, each with
// replacement and with its own random stream, and the interval is the quantiles of
// mean(a*) - mean(b*) as above. estimate = mean_of(a) - mean_of(b).
Interval bootstrap_difference_interval(const std::vector<double>& a, const std::vector<double>& b,
                                       double level = 0.95, int64_t resamples = 10000,
                                       uint64_t seed = kStatisticsSeed);

// The two-sided permutation test of a difference of means (Fisher 1935; Good 2005, ch. 3).
// A relabelling of the pooled values a ++ b takes |a| of them as group a and the rest as b; its
// statistic is |mean(a') - mean(b')|. p = the share of relabellings whose statistic is >= the
// observed one, the observed labelling included. "Tied" allows 1e-12 times the largest |value|,
// so that relabellings equal in exact arithmetic stay equal after rounding.
//   exact        when C(|a| + |b|, |a|) <= max_exact: every subset once, p = hits / C;
//   Monte Carlo  otherwise: `resamples` uniformly random relabellings,
//                p = (1 + hits) / (1 + resamples) (Phipson & Smyth 2010: never 0, and valid).
double permutation_p_value(const std::vector<double>& a, const std::vector<double>& b, int64_t max_exact = 200000,
                           int64_t resamples = 20000, uint64_t seed = kStatisticsSeed);

// The smallest p the exact test above can give for groups of n and m distinct values:
//   2 / C(2n, n) when n == m,   1 / C(n + m, n) when n != m.
// The observed labelling always counts; when n == m its mirror (a and b swapped) has the same
// |difference| too. Both bounds are reached by groups that do not overlap (for n != m, when the
// other extreme, a taking the n smallest values, differs less: a = {100}, b = {0, 1} gives 1/3).
double smallest_permutation_p(int64_t n, int64_t m);

// rliable's probability of improvement of X over Y (rliable/metrics.py,
// probability_of_improvement): P(X > Y) + P(X = Y) / 2 over all |x| |y| pairs, which is the
// Mann-Whitney U statistic of x over y divided by |x| |y|. poi(x, y) + poi(y, x) = 1.
double probability_of_improvement(const std::vector<double>& x, const std::vector<double>& y);

// rliable's aggregate: the mean over tasks of the above; x_per_task[t] holds X's runs on task t.
double probability_of_improvement(const std::vector<std::vector<double>>& x_per_task,
                                  const std::vector<std::vector<double>>& y_per_task);

// rliable's interquartile mean (aggregate_iqm = scipy.stats.trim_mean(x, 0.25)): sort x, drop the
// floor(n / 4) smallest and the floor(n / 4) largest values, and average the rest. rliable pools
// the runs of every task into one x.
double interquartile_mean(std::vector<double> x);

}  // namespace ordo
