// report/findings.h: the findings of a study, short sentences read from the summaries
// (report/summary.h), each stating only what the runs and a named test support: learned or
// not, how many seeds, the test and its p-value or interval (docs/spec.md §7.7).
//
//   for (const Finding& f : findings(summarize(runs))) std::puts(f.line().c_str());
//
// Findings (FindingThresholds, report/summary.h): short sentences grouped by task, computed
// from every seed's numbers; each holds in every seed unless it gives a count:
//   * a seed solves the task when its final accuracy on the training lengths is >= solved
//     (0.99); a cell (task, encoding) is "solved" when every seed solves it, "solved by some
//     seeds only" (k of n) when some do;
//   * a seed that does not solve it is "still improving" when its training loss fell by more
//     than `improving` (0.5%) over the second half of the run: from the mean over the tenth of
//     the run that ends at its midpoint to the mean over its last tenth; it has "converged"
//     otherwise. Not the last tenth alone: the cosine schedule leaves under 2.5% of the peak
//     learning rate there, so every run looks flat at its end (a 600-step shift / t5 run at
//     0.69 that the 2000-step grid solves fell 1.2% over its second half, 0.3% over its last
//     two tenths). Cells that never learn change by less: 0.03% (order / none), 0.04% (shift /
//     none), 0.36% (periodic / none) over the second half of 2000 steps;
//   * at chance: every seed's final accuracy on the training lengths is within chance_margin
//     (0.02) of the chance level, every seed has converged and no seed solved it; a cell at
//     chance but still improving is reported as still improving. The chance level is the
//     task's own (Task::chance_level, e.g. 0.5 for order); tasks this build does not know
//     have none (NaN) and no chance finding;
//   * holds up to L: accuracy >= extrapolates (0.9) at every extrapolation length up to and
//     including L, in every seed ("up to 2x only" when 4x fails); when some seeds reach
//     further, "(4x (128) in 1 of 3 seeds)" says so;
//   * fastest: the encoding with the smallest mean first step reaching summarize's `solved`
//     among those solved (final accuracy >= th.solved) in every seed;
//   * across tasks: which encodings solve every task in every seed (or the ones that solve
//     the most, and which others are still improving on enough tasks to reach that count).
// A sentence names at most kMaxNames encodings, best first (the task's ranked order), then
// "and N more (see the table)".
#pragma once

#include <string>
#include <vector>

#include "report/summary.h"

namespace ordo {

// The seed's training loss fell by more than th.improving over the second half of its run.
bool still_improving(const SeedOutcome& s, const FindingThresholds& th);

// One finding: a short sentence about one task, or about all of them (task "").
struct Finding {
  std::string task;  // "" = across tasks
  std::string text;  // "Solved by rope and alibi."
  // One line for a terminal or a flat list: "order: Solved by rope and alibi."
  std::string line() const { return (task.empty() ? std::string("across tasks") : task) + ": " + text; }
};
constexpr int kMaxNames = 5;  // encodings named per sentence before "and N more (see the table)"

// The findings, task by task in the order given, then across tasks.
std::vector<Finding> findings(const std::vector<TaskSummary>& tasks, const FindingThresholds& th = {});
// What the words of the findings mean (one paragraph, with the thresholds and the seeds).
std::string findings_legend(const std::vector<TaskSummary>& tasks, const FindingThresholds& th = {});

}  // namespace ordo
