// report/plots.h: figures as gnuplot data + script, drawn by gnuplot when it is installed.
//
// Every figure is four files side by side: <stem>.dat (plain columns, gnuplot "index" blocks
// separated by two blank lines), <stem>.gp (a commented script that reads the .dat by its
// relative name), and what it draws: <stem>.png (at least 1200 px wide) and <stem>.svg
// (vector, for papers). The script can be edited and rerun by hand:
//   cd DIR/plots && gnuplot order_curves.gp
// Names are drawn as written (gnuplot's enhanced text, where "_" makes a subscript, is off).
//
// A study's figures draw each series (an encoding, or an encoding and its varied settings)
// in one style across every figure (report/series_style.h). With up to kMaxOverlaid series a
// figure overlays them, its legend beside the axes (the canvas widens for it; the axes keep
// their size); with more it becomes small multiples: one panel per series on shared axes,
// the other series faint grey behind it.
//
//   std::vector<SeriesStyle> styles = series_styles(tasks);
//   std::vector<PlotFiles> plots = write_learning_curve_plots(dir, tasks[0], runs, styles);
//   plots.push_back(write_overview_plot(dir, overview(tasks), styles));
//   RenderReport r = render_plots(plots);   // never throws; r.message() says what happened
//
// The write_* functions throw ordo::Error on an I/O failure; render_plots never throws: a
// missing gnuplot or a failing script is reported, never fatal (plots are a by-product).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/figure_data.h"
#include "io/results.h"
#include "report/series_style.h"
#include "report/summary.h"

namespace ordo {

struct PlotFiles {
  std::string dir;                 // where all four live
  std::string stem;                // file names: stem + ".dat", ".gp", ".png", ".svg"
  std::string gp() const { return dir + "/" + stem + ".gp"; }
  std::string dat() const { return dir + "/" + stem + ".dat"; }
  std::string png() const { return dir + "/" + stem + ".png"; }
  std::string svg() const { return dir + "/" + stem + ".svg"; }
};

// More series than this in one figure: small multiples.
constexpr size_t kMaxOverlaid = 8;

// Learning curves of one task (figure_data.h's learning_curves). Up to kMaxOverlaid series:
// <task>_curves, training loss above accuracy on the training lengths, against step, a line
// per series (mean over seeds) and a min-max band. More: <task>_curves holds the accuracy
// as small multiples and <task>_loss the training loss.
std::vector<PlotFiles> write_learning_curve_plots(const std::string& dir, const TaskSummary& task,
                                                  const std::vector<RunRecord>& runs,
                                                  const std::vector<SeriesStyle>& styles);

// Accuracy against evaluation length (log scale; the training-range set at the middle of its
// range), min-max error bars over seeds and a dashed chance line. Stem: <task>_lengths.
PlotFiles write_length_plot(const std::string& dir, const TaskSummary& task, const std::vector<SeriesStyle>& styles);

// Accuracy against distance (figure_data.h's distance_curves), a dashed chance line and a
// dotted line at the longest trained distance, above a panel of the scored rows per bin;
// bins with fewer than kMinBinRows rows are not drawn (their bars grey). Stem:
// <task>_distance. nullopt when no run of the task records distances.
std::optional<PlotFiles> write_distance_plot(const std::string& dir, const TaskSummary& task,
                                             const std::vector<RunRecord>& runs,
                                             const std::vector<SeriesStyle>& styles);

// The study's overview (summary.h's overview): a heatmap, rows the series in the overview's
// order, columns task x evaluation length, each cell annotated with its mean and spread,
// coloured from the task's chance level (0) to accuracy 1, cells no seed-complete bar marked
// with a cross. Stem: overview.
PlotFiles write_overview_plot(const std::string& dir, const Overview& overview, int seeds);

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
