// report/rate_selection.h: one learning rate per cell, chosen on the training distribution
// (`ordo compare --lrs a,b,c`, the same as `--vary lr=a,b,c`; docs/spec.md §7.6).
//
//   RateSelection s = select_learning_rates(read_results("cmp/results.h5"));
//   summarize(s.selected);                  // the tables, findings and figures: selected runs
//   render_rate_selection_markdown(s);      // which rate each cell chose, and why; and the
//                                           // literature's view (best of every seed and rate)
//
// A study that sweeps the learning rate has, per (task, encoding, other varied settings), a
// group of runs per rate. The rule looks only at the held-out training-range set (sequences
// of the training lengths; never a longer test length), each run's last evaluation of it:
//   1. the most seeds that learned the training lengths (accuracy >= `solved`, 0.99),
//   2. then the highest mean training-range accuracy,
//   3. then the earliest mean first step at >= `solved` (over the seeds that got there),
//   4. then the lowest mean training-range loss,
//   5. then the rate listed first.
// The selected rate's runs go on with "lr=..." taken out of their variant, so the cell is one
// row whatever rate it chose. A study that does not sweep the rate is passed through as is.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "io/results.h"

namespace ordo {

struct RateScore {
  std::string lr;            // as given ("3e-4")
  int seeds = 0, learned = 0;
  double train_acc = 0, train_loss = 0;
  double first_solved_step = 0;  // NaN when no seed got there
};

struct RateChoice {
  std::string task, encoding, variant;  // variant without lr= ("" when lr was the only one)
  std::vector<RateScore> rates;         // in the order first seen
  size_t selected = 0;                  // index into rates
  // The literature's view (Deletang et al. 2023, Ruoss et al. 2023: the best run over seeds
  // and rates): per evaluation length (0 = training range), the highest final accuracy of any
  // of the cell's runs, at any rate. For comparison with papers only: it reads the test lengths.
  std::map<int64_t, double> best_of;
};

struct RateSelection {
  std::vector<RunRecord> selected;  // every run of a selected rate (all runs when none swept)
  std::vector<RateChoice> choices;  // empty when the study does not sweep the learning rate
  uint64_t scored_below = UINT64_MAX;  // the seeds scored (select_learning_rates), for the notes
};

// scored_below: only runs of seeds below it are scored and enter the literature's view (a study
// run with --lr-seeds N: its first seed + N, the seeds every rate trained); every run of a
// chosen rate is selected, whatever its seed.
RateSelection select_learning_rates(const std::vector<RunRecord>& runs, double solved = 0.99,
                                    uint64_t scored_below = UINT64_MAX);

// "lr=3e-4" out of "causal=true,lr=3e-4": the variant without its learning rate, and the rate
// ("" when the variant does not set it).
std::pair<std::string, std::string> split_rate(const std::string& variant);

// A learning rate as every table writes it: %g of its value (0.0003, 0.001), however it was
// spelled (--lrs 3e-4) or stored (the shortest round trip, 3e-04); text that is no number
// unchanged.
std::string rate_label(const std::string& lr);

// The tasks with a choice, in the order first seen.
std::vector<std::string> rate_tasks(const RateSelection& selection);
// One task's choices, header first: encoding, chosen lr, every rate with its seeds learned,
// mean training-length accuracy and first step (the chosen one in **bold** with mark_chosen).
std::vector<std::vector<std::string>> rate_table(const RateSelection& selection, const std::string& task,
                                                 bool mark_chosen);
// One task's literature's view, header first: the best accuracy of any run at each length.
std::vector<std::vector<std::string>> literature_table(const RateSelection& selection, const std::string& task);
// The sentences that say how the rate is chosen, and what the literature's view is for.
// With scored_below (--lr-seeds), each also says which seeds were scored.
std::string rate_selection_rule(double solved = 0.99, uint64_t scored_below = UINT64_MAX);
std::string literature_view_note(uint64_t scored_below = UINT64_MAX);
std::string literature_view_title(uint64_t scored_below = UINT64_MAX);  // the section's heading

// summary.md's sections on the choice: "" when nothing was chosen.
std::string render_rate_selection_markdown(const RateSelection& selection, double solved = 0.99);

}  // namespace ordo
