// report/plots.h: plots as gnuplot data + script, drawn by gnuplot when it is installed.
//
// Every plot is three files side by side: <stem>.dat (plain columns, gnuplot "index" blocks
// separated by two blank lines), <stem>.gp (a commented script that reads the .dat by its
// relative name) and <stem>.png (pngcairo, small). The script can be edited and rerun by hand:
//   cd DIR/plots && gnuplot order_curves.gp
//
//   std::vector<PlotFiles> plots = {write_learning_curve_plot(dir, "order", runs),
//                                   write_length_plot(dir, summary)};
//   RenderReport r = render_plots(plots);   // never throws; r.message() says what happened
//
// The write_* functions throw ordo::Error on an I/O failure; render_plots never throws: a
// missing gnuplot or a failing script is reported, never fatal (plots are a by-product).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/results.h"
#include "report/summary.h"

namespace ordo {

struct PlotFiles {
  std::string dir;                 // where all three live
  std::string stem;                // file names: stem + ".dat", ".gp", ".png"
  std::string gp() const { return dir + "/" + stem + ".gp"; }
  std::string dat() const { return dir + "/" + stem + ".dat"; }
  std::string png() const { return dir + "/" + stem + ".png"; }
};

// Learning curves of one task: top panel train loss, bottom panel accuracy on the training
// lengths, against step; one line per encoding (mean over seeds), a min-max band over seeds.
// Train loss is averaged over windows of max(1, steps / 200) steps. Stem: <task>_curves.
PlotFiles write_learning_curve_plot(const std::string& dir, const std::string& task,
                                    const std::vector<RunRecord>& runs);

// Accuracy against evaluation length (training range, then each longer length), one line per
// encoding with min-max error bars over seeds and a dashed chance line. Stem: <task>_lengths.
PlotFiles write_length_plot(const std::string& dir, const TaskSummary& summary);

// Accuracy against distance (docs/spec.md §3.9) on the task's longest evaluation set at the
// final evaluation, one line per encoding: the seeds' rows pooled, distances grouped into at
// most 16 equal bins (a bin's accuracy is correct / scored over its distances), a dashed
// chance line and a dotted line at the training max_len - 1, the longest distance trained on.
// Stem: <task>_distance. Returns nothing (nullopt) when no run of the task records distances.
std::optional<PlotFiles> write_distance_plot(const std::string& dir, const TaskSummary& summary,
                                             const std::vector<RunRecord>& runs);

// One matrix (rows x cols, row-major) shown as an image; row 0 at the top.
struct Heatmap {
  std::string title;
  int64_t rows = 0, cols = 0;
  std::vector<double> values;
};

// Panels side by side (one .dat block each). diverging: a blue-white-red palette centred on
// 0 (signed values, e.g. position similarities); otherwise white-to-dark over [0, max].
PlotFiles write_heatmap_plot(const std::string& dir, const std::string& stem, const std::string& title,
                             const std::vector<Heatmap>& panels, const std::string& xlabel,
                             const std::string& ylabel, bool diverging = false);

// Whether an executable `gnuplot` is on PATH.
bool gnuplot_available();

struct RenderReport {
  bool gnuplot_found = false;
  int rendered = 0;                   // PNGs written
  std::vector<std::string> problems;  // one line per plot that failed
  std::string dir;                    // where the scripts are (for the message)
  // "" when everything rendered; else what happened and how to draw the plots by hand.
  std::string message() const;
};

// Runs `gnuplot <stem>.gp` in each plot's directory. Never throws.
RenderReport render_plots(const std::vector<PlotFiles>& plots);

}  // namespace ordo
