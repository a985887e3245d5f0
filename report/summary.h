// report/summary.h: what an encoding comparison found, computed from its run logs.
//
//   std::vector<RunRecord> runs = read_results("cmp/results.h5");
//   std::vector<TaskSummary> tasks = summarize(runs);         // task x encoding, over seeds
//   std::vector<Finding> notes = findings(tasks);              // report/findings.h
//   std::string md = render_summary_markdown(tasks, notes);
//
// Aggregation (per task, per encoding, over its seeds):
//   * accuracy per evaluation length: the last point of each seed's eval/<len>/acc curve
//     (the evaluation at the final step), 0 = the training length range;
//   * first step reaching `solved` (0.99 by default): the first step of the training-range
//     evaluation curve with acc >= the threshold; a seed that never reaches it counts as
//     "never" and is left out of the mean (the table then says how many seeds reached it);
//   * wall seconds: the run's total wall time (training and evaluation).
// Each is a Stat: mean, min and max over seeds, and the mean's 95% bootstrap interval
// ("0.953 [0.921, 0.980]", format_stat).
//
// The findings read from these summaries are report/findings.h.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "io/results.h"

namespace ordo {

struct Finding;  // report/findings.h

// Mean, min and max of one quantity over seeds, and the mean's 95% percentile-bootstrap
// interval [low, high] (report/statistics.h; low = high = mean with one seed); n = 0 means no
// value.
struct Stat {
  double mean = 0, min = 0, max = 0;
  double low = 0, high = 0;
  int n = 0;
  double spread() const { return (max - min) / 2; }
  void add_all(const std::vector<double>& values);  // fills from values (n = values.size())
};

// One seed's run, as the findings read it.
struct SeedOutcome {
  uint64_t seed = 0;
  int64_t steps = 0;                 // the last logged step
  std::map<int64_t, double> acc;     // final accuracy per evaluation length (0 = training range)
  // Mean training loss over the tenth of the run that ends at its midpoint and over its last
  // tenth (NaN when the run logged fewer than 2 steps).
  double loss_mid = 0, loss_last = 0;
  int64_t first_solved = -1;         // first evaluation step with training-range acc >= solved; -1 = never
  // Learned its training lengths: the final training-range accuracy is >= solved (0.99 in
  // every report, whatever --learned-at stopped the run at: docs/spec.md §5.5).
  bool learned(double solved) const {
    const auto train = acc.find(0);
    return train != acc.end() && train->second >= solved;
  }
  // A --until-learned run (train/stopping.h): why and at which step it stopped; "" otherwise.
  std::string stop_reason;
  int64_t stop_step = 0;
};

struct EncodingSummary {
  std::string encoding;
  std::string variant;  // a swept study's varied settings ("causal=true"), "" otherwise
  // How findings and plots name the row: "rope", or "rope (causal=true)".
  std::string label() const { return run_label(encoding, variant); }
  std::string lr;  // the runs' --lr setting as stored ("" when unknown): a swept rate's choice
  int seeds = 0;
  std::vector<SeedOutcome> per_seed;
  std::map<int64_t, Stat> acc;  // evaluation length (0 = training range) -> final accuracy
  Stat first_solved_step;       // over the seeds that reached the threshold
  int seeds_solved = 0;         // how many seeds reached it
  // The seeds that learned their training lengths: final training-range accuracy >= the
  // threshold; and the final accuracy per length over those seeds alone (length
  // generalization read only from runs that learned, as Huang et al. 2025 report it).
  int seeds_learned = 0;
  std::map<int64_t, Stat> acc_learned;
  Stat wall_seconds;
  // --until-learned runs: how many seeds stopped for each reason, and at which step (over
  // the seeds that record a reason); empty for runs of a fixed --steps.
  std::map<std::string, int> stops;
  Stat stop_step;
};

// A sweep of many extrapolation lengths (--eval-lens-final 41:500:1) is shown in the tables
// and the overview as its mean, the paper's score (Deletang et al. and Ruoss et al. average
// over their test lengths), and its two ends: more than kMaxLengthColumns lengths make the
// columns {training, shortest, longest, mean}; the mean's key in EncodingSummary::acc is
// kMeanBeyond (each seed's mean over its extrapolation lengths, then over seeds). The figures of accuracy
// against length keep every length.
constexpr size_t kMaxLengthColumns = kSweepLengths;  // train/run_log.h
constexpr int64_t kMeanBeyond = -1;

struct TaskSummary {
  std::string task;
  int64_t min_len = -1, max_len = -1;  // training range (-1 = unknown)
  double chance = 0;                   // chance_level(); NaN when unknown
  std::string accuracy_meaning;        // what acc counts for this task (Task::metrics); "" when unknown
  std::string length_unit = "tokens";  // what a length counts (Task::length_unit)
  std::string distance_name = "distance";  // what a sequence's distance measures (Task::distance_name)
  int64_t longest_trained_distance = -1;   // Task::longest_distance(max_len); -1 = unknown
  double solved = 0.99;                // the threshold first_solved_step counts from
  std::vector<int64_t> lengths;        // every evaluation length present, 0 first
  std::vector<int64_t> columns;        // the ones tables and the overview show (see above); empty = lengths
  const std::vector<int64_t>& shown() const { return columns.empty() ? lengths : columns; }
  std::vector<EncodingSummary> rows;   // in order of first appearance in the runs
  // The share of the training lengths' commonest answer (data/eval.h, commonest_answer, of a
  // training-range set of its own seed) in each evaluation set (answer_share), the sets
  // rebuilt from the first run's settings: what a model that learned only which answer is
  // commonest in training scores. Keyed as EncodingSummary::acc, kMeanBeyond included (the
  // mean over the extrapolation lengths); empty when the sets cannot be rebuilt (an unknown
  // task or setting).
  // Empty too when the task's runs were scored on different sets (settings that differ).
  std::map<int64_t, double> commonest;
  int32_t commonest_answer = -1;       // that answer's class; -1 = unknown
  double commonest_reference = NAN;    // its share in the sample that picked it
  int64_t commonest_reference_scored = 0;  // the answers of that sample
  // The task's answers are skewed: the reference share exceeds chance by more than `margin`
  // and by more than 4 standard errors of a uniform sample of that size.
  bool skewed(double margin) const;
  // The level from which accuracy at `length` means something: the commonest answer's share
  // in that set (kMeanBeyond: the mean) where the answers are skewed, else the chance level;
  // NaN when neither is known.
  double floor_at(int64_t length, double margin) const;
};

struct FindingThresholds {
  double solved = 0.99;         // accuracy on the training lengths: "solves"
  double extrapolates = 0.9;    // accuracy at an extrapolation length: "extrapolates to"
  double chance_margin = 0.02;  // |accuracy - chance| on the training lengths: "at chance"
  double improving = 0.005;     // relative fall of the training loss over the second half: "still improving"
};

// The accuracy a model that ignores the input order entirely scores (see above).
double chance_level(const std::string& task, const std::map<std::string, std::string>& settings);

// Groups runs by task, then encoding, in order of first appearance; `solved` is the
// threshold of first_solved_step.
std::vector<TaskSummary> summarize(const std::vector<RunRecord>& runs, double solved = 0.99);

// The mean final accuracy of e at `length` (0 = training range), NaN when it has none there.
double mean_acc(const EncodingSummary& e, int64_t length);

// A task's rows ranked: by mean final accuracy at the longest evaluation length (descending),
// then on the training lengths; rows without a value there last; ties keep their order.
std::vector<const EncodingSummary*> ranked_rows(const TaskSummary& task);

// The overview of a study (one heatmap): rows = encodings (and variants), columns = task x
// evaluation length; each cell the final accuracy over seeds, a score on a scale that starts
// at the task's chance level, and whether every seed holds the task's bar there.
struct OverviewColumn {
  std::string task;
  int64_t length = 0;    // 0 = the training length range
  std::string label;     // "order · train (8-32)"
  double chance = 0;     // NaN when unknown
  double bar = 0;        // the accuracy every seed must reach: solved (train) or extrapolates
  double floor = 0;      // TaskSummary::floor_at: score 0 (chance, or a higher commonest answer's share)
  bool floor_is_commonest = false;  // the task's answers are skewed: floor is that share
};
struct OverviewCell {
  Stat acc;              // n = 0: no run there
  double score = 0;      // (mean - floor) / (1 - floor) clipped to [0, 1]; mean without a floor
  bool held = false;     // every seed >= the column's bar
  // A longer length of a cell where no seed learned the training lengths: its accuracy there
  // says how far training got, not what the encoding allows; shown greyed, "not learned".
  bool not_learned = false;
};
struct OverviewRow {
  std::string label, encoding, variant;
  std::vector<OverviewCell> cells;  // one per column
  double reach = 0;      // mean over tasks of the score at the task's longest evaluation length
  double overall = 0;    // mean score over every cell present
};
struct Overview {
  std::vector<OverviewColumn> columns;
  std::vector<OverviewRow> rows;     // ordered by reach, then overall (how far they generalise)
  std::string note;                  // how to read it: scale, order, marks
};
Overview overview(const std::vector<TaskSummary>& tasks, const FindingThresholds& th = {});

// Each seed's final accuracy at `length`, over the seeds of e that learned the training lengths
// (final training-range accuracy >= solved): what comparisons of generalization read.
std::vector<double> learned_accuracies(const EncodingSummary& e, int64_t length, double solved = 0.99);

// A column label for an evaluation length: "train (8-32)", "2x (64)", "4x (128)", "100".
std::string length_label(const TaskSummary& task, int64_t length);
// "0.953 [0.921, 0.980]" (3 decimals; the 95% bootstrap interval of the mean), "0.953" with
// one seed, "-" with none.
std::string format_stat(const Stat& s, int decimals = 3);
// A setting's value for reading: a list of integers with runs of 3 or more at one step
// written as ranges, in the flags' own syntax ("41,42,...,500" -> "41:500:1"); any other
// value as it is.
std::string compact_setting(const std::string& value);

// The per-task table as rows of cells, ranked (ranked_rows): header first. Columns: #,
// encoding, [varied,] [lr,] learned k/n, accuracy at each evaluation length from the longest
// down to the training lengths, first step >= solved, [stopped,] wall s. learned_only: the
// accuracies over the seeds that learned their training lengths (EncodingSummary::acc_learned).
std::vector<std::vector<std::string>> task_table(const TaskSummary& task, bool learned_only = false);
// task_table as Markdown (header, alignment row, one row per encoding).
std::string render_task_table(const TaskSummary& task, bool learned_only = false);
// rows (header first) as a Markdown table: the columns headed by one of text_columns aligned
// left, the others (numbers) right.
std::string markdown_table(const std::vector<std::vector<std::string>>& rows,
                           const std::vector<std::string>& text_columns);
// summary.md: a title, `overview_image` first (when given), `preamble` (free Markdown, e.g.
// the settings), per task a section with its ranked table, its findings and its images (task
// -> relative paths of PNGs), then the findings across tasks.
std::string render_summary_markdown(const std::vector<TaskSummary>& tasks, const std::vector<Finding>& findings,
                                    const std::string& preamble = "",
                                    const std::map<std::string, std::vector<std::string>>& images = {},
                                    const std::string& overview_image = "");

// "1h02m", "1m05s", "42s": durations in summaries and progress lines.
std::string format_duration(double seconds);

}  // namespace ordo
