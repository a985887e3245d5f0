// report/figure_data.h: the numbers a study's figures draw, computed once for the gnuplot
// figures (report/plots.h) and for report.html (report/html_report.h), so both show the same.
//
//   std::vector<TaskSummary> tasks = summarize(runs);
//   CurveData c = learning_curves("order", runs);           // loss and accuracy against step
//   std::vector<SeriesPoints> l = length_curves(tasks[0]);  // accuracy against length
//   std::optional<DistanceData> d = distance_curves(tasks[0], runs);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/results.h"
#include "report/summary.h"

namespace ordo {

// One point of a series: x, the mean over seeds and their min and max (NaN when no seed has
// a value there).
struct Band {
  double x = 0, mean = 0, min = 0, max = 0;
};

struct SeriesPoints {
  std::string label;          // run_label
  std::vector<Band> points;   // increasing x
};

// Learning curves of one task, one series per row label in first-appearance order: training
// loss averaged over windows of max(1, entries / 200) logged entries (a results file keeps an
// entry per log_every steps, io/results.h; x = the window's last step), and
// accuracy on the training lengths at each evaluation (x = its step). A series ends with its
// shortest run, except that a run which stopped early (--until-learned) holds its last value
// to the end of the series' longest run: its model is final from then on, and dropping it
// would leave the mean to the runs still training.
struct CurveData {
  std::vector<SeriesPoints> loss, acc;
  int seeds = 0;              // the most seeds of any series
  int fewest_seeds = 0;       // the fewest (cells can differ: --kept-seeds tries more where runs fail)
  int64_t window = 1;         // steps per loss window (of the first series)
  int64_t last_step = 0;
};
CurveData learning_curves(const std::string& task, const std::vector<RunRecord>& runs);

// The share of the training lengths' commonest answer in each evaluation set of the task
// (TaskSummary::commonest) at the x of length_curves: what always giving that answer scores,
// drawn beside chance. Empty unless the task's answers are skewed (TaskSummary::skewed).
std::vector<Band> commonest_curve(const TaskSummary& t, double margin);

// Accuracy against evaluation length, one series per row of the task; the training-range set
// (length 0) sits at x = training_x(task), the middle of the training range.
std::vector<SeriesPoints> length_curves(const TaskSummary& task);
double training_x(const TaskSummary& task);

// Accuracy against distance (docs/spec.md §3.9) on the task's longest evaluation set that
// records distances, at the final evaluation: each series' rows pooled over its seeds and
// grouped into at most 16 equal bins of distance. A bin is drawn only when it holds at least
// kMinBinRows scored rows: with fewer, its accuracy's standard error can exceed 0.09
// (sqrt(0.25 / n)), too coarse to tell encodings apart (the usual n >= 30 rule; a 4x order
// set of 256 sequences per seed puts 4-72 rows in each of its 16 bins).
constexpr double kMinBinRows = 30;
struct DistancePoint {
  double centre = 0;          // the bin's middle distance
  double acc = 0;             // correct / scored over the bin's distances (NaN: none scored)
  double count = 0;           // scored rows in the bin, over the series' seeds
};
struct DistanceSeries {
  std::string label;
  std::vector<DistancePoint> points;  // every bin, in order
};
struct DistanceData {
  int64_t length = 0;         // the evaluation set (0 = the training lengths)
  std::string set_name;       // "length 128", "the training lengths"
  size_t distances = 0;       // distances 0 .. distances - 1
  size_t bin_width = 1;       // distances per bin
  std::vector<DistanceSeries> series;
};
// nullopt when no run of the task records distances.
std::optional<DistanceData> distance_curves(const TaskSummary& task, const std::vector<RunRecord>& runs);

}  // namespace ordo
