// report/figure_data.cpp: see figure_data.h.
#include "report/figure_data.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ordo {
namespace {

Band band(double x, const std::vector<double>& values) {
  Band b{x, 0, INFINITY, -INFINITY};
  int n = 0;
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    b.mean += v;
    b.min = std::min(b.min, v);
    b.max = std::max(b.max, v);
    ++n;
  }
  if (n == 0) return Band{x, NAN, NAN, NAN};
  b.mean /= n;
  return b;
}

}  // namespace

CurveData learning_curves(const std::string& task, const std::vector<RunRecord>& runs) {
  std::vector<std::string> labels;
  std::map<std::string, std::vector<const RunLog*>> logs;
  for (const RunRecord& r : runs) {
    if (r.task != task) continue;
    const std::string label = run_label(r.encoding, r.variant);
    if (!logs.count(label)) labels.push_back(label);
    logs[label].push_back(&r.log);
  }
  CurveData c;
  for (const std::string& label : labels) {
    const auto& ls = logs[label];
    c.seeds = std::max(c.seeds, static_cast<int>(ls.size()));
    c.fewest_seeds = c.fewest_seeds == 0 ? static_cast<int>(ls.size()) : std::min(c.fewest_seeds, static_cast<int>(ls.size()));
    // A run that stopped early (--until-learned: learned, or no progress) keeps its model from
    // then on, so it holds its last value to the end of the longest run; the curve otherwise
    // ends with the shortest run (an unfinished study re-reported).
    auto stopped = [](const RunLog* l) { return !l->stop_reason.empty() && l->stop_step > 0; };
    const RunLog* longest = ls.front();
    for (const RunLog* l : ls) longest = l->step.size() > longest->step.size() ? l : longest;
    size_t n = longest->step.size();
    for (const RunLog* l : ls)
      if (!stopped(l)) n = std::min(n, l->step.size());
    const size_t w = std::max<size_t>(1, n / 200);
    // In steps (steps count from 1): a results file logs an entry per log_every steps
    // (io/results.h), a trainer one per step.
    if (c.loss.empty() && n > 0) c.window = longest->step[w - 1];
    SeriesPoints loss{label, {}};
    for (size_t start = 0; start < n; start += w) {
      const size_t end = std::min(n, start + w);
      std::vector<double> per_seed;
      for (const RunLog* l : ls) {
        if (l->train_loss.empty()) continue;
        double s = 0;
        for (size_t i = start; i < end; ++i) s += l->train_loss[std::min(i, l->train_loss.size() - 1)];
        per_seed.push_back(s / static_cast<double>(end - start));
      }
      loss.points.push_back(band(static_cast<double>(longest->step[end - 1]), per_seed));
      c.last_step = std::max(c.last_step, longest->step[end - 1]);
    }
    c.loss.push_back(std::move(loss));

    auto evals = [](const RunLog* l) {
      auto it = l->eval.find(0);
      return it == l->eval.end() ? size_t{0} : it->second.size();
    };
    const RunLog* most = ls.front();
    for (const RunLog* l : ls) most = evals(l) > evals(most) ? l : most;
    size_t m = evals(most);
    for (const RunLog* l : ls)
      if (!stopped(l) || evals(l) == 0) m = std::min(m, evals(l));
    SeriesPoints acc{label, {}};
    for (size_t i = 0; i < m; ++i) {
      std::vector<double> per_seed;
      for (const RunLog* l : ls) per_seed.push_back(l->eval.at(0)[std::min(i, evals(l) - 1)].acc);
      acc.points.push_back(band(static_cast<double>(most->eval.at(0)[i].step), per_seed));
    }
    c.acc.push_back(std::move(acc));
  }
  return c;
}

double training_x(const TaskSummary& t) {
  const bool known = t.min_len > 0 && t.max_len >= t.min_len;
  return known ? 0.5 * static_cast<double>(t.min_len + t.max_len) : 1.0;
}

std::vector<SeriesPoints> length_curves(const TaskSummary& t) {
  std::vector<SeriesPoints> out;
  for (const EncodingSummary& e : t.rows) {
    SeriesPoints s{e.label(), {}};
    for (int64_t length : t.lengths) {
      auto it = e.acc.find(length);
      if (it == e.acc.end() || it->second.n == 0) continue;
      const double x = length == 0 ? training_x(t) : static_cast<double>(length);
      s.points.push_back(Band{x, it->second.mean, it->second.min, it->second.max});
    }
    std::sort(s.points.begin(), s.points.end(), [](const Band& a, const Band& b) { return a.x < b.x; });
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<Band> commonest_curve(const TaskSummary& t, double margin) {
  std::vector<Band> out;
  if (!t.skewed(margin)) return out;
  for (int64_t length : t.lengths) {
    const auto it = t.commonest.find(length);
    if (it == t.commonest.end() || !std::isfinite(it->second)) continue;
    const double x = length == 0 ? training_x(t) : static_cast<double>(length);
    out.push_back(Band{x, it->second, it->second, it->second});
  }
  std::sort(out.begin(), out.end(), [](const Band& a, const Band& b) { return a.x < b.x; });
  return out;
}

std::optional<DistanceData> distance_curves(const TaskSummary& t, const std::vector<RunRecord>& runs) {
  // The longest evaluation length that carries distances, over the task's runs.
  int64_t length = -1;
  size_t distances = 0;
  for (const RunRecord& r : runs) {
    if (r.task != t.task) continue;
    for (const auto& [len, points] : r.log.eval)
      if (!points.empty() && !points.back().count_by_distance.empty() && len >= length) {
        distances = len > length ? 0 : distances;
        length = len;
        distances = std::max(distances, points.back().count_by_distance.size());
      }
  }
  if (length < 0 || distances == 0) return std::nullopt;
  DistanceData d;
  d.length = length;
  d.set_name = length == 0 ? std::string("the training lengths") : "length " + std::to_string(length);
  d.distances = distances;
  d.bin_width = (distances + 15) / 16;
  const size_t bins = (distances + d.bin_width - 1) / d.bin_width;
  for (const EncodingSummary& e : t.rows) {
    std::vector<double> correct(bins, 0), scored(bins, 0);
    for (const RunRecord& r : runs) {
      if (r.task != t.task || r.encoding != e.encoding || r.variant != e.variant) continue;
      auto it = r.log.eval.find(length);
      if (it == r.log.eval.end() || it->second.empty()) continue;
      const EvalPoint& last = it->second.back();
      for (size_t k = 0; k < last.count_by_distance.size() && k < last.acc_by_distance.size(); ++k) {
        const double n = static_cast<double>(last.count_by_distance[k]);
        if (n == 0 || !std::isfinite(last.acc_by_distance[k])) continue;
        scored[k / d.bin_width] += n;
        correct[k / d.bin_width] += n * last.acc_by_distance[k];
      }
    }
    DistanceSeries s{e.label(), {}};
    for (size_t b = 0; b < bins; ++b) {
      const double centre = static_cast<double>(b * d.bin_width) + 0.5 * static_cast<double>(d.bin_width - 1);
      s.points.push_back(DistancePoint{centre, scored[b] > 0 ? correct[b] / scored[b] : NAN, scored[b]});
    }
    d.series.push_back(std::move(s));
  }
  return d;
}

}  // namespace ordo
