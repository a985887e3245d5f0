// report/plots.cpp: gnuplot data files, scripts and the gnuplot runner (see plots.h).
#include "report/plots.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/error.h"
#include "io/atomic_file.h"

namespace ordo {
namespace {

namespace fs = std::filesystem;

// A gnuplot double-quoted string: backslash escapes, so "\n" breaks a tick label's line.
std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string num(double v) {
  if (!std::isfinite(v)) return "NaN";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

void write_text(const std::string& path, const std::string& text) { write_file(path, text); }

PlotFiles prepare(const std::string& dir, const std::string& stem) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  ORDO_CHECK(!ec, "plots: cannot create ", dir, ": ", ec.message());
  return PlotFiles{dir, stem};
}

// A script that draws `body` twice, as <stem>.png and as <stem>.svg, on a width x height
// canvas; text as written (noenhanced).
std::string figure_script(const PlotFiles& p, const std::string& what, int width, int height, const std::string& body) {
  std::ostringstream os;
  os << "# " << p.stem << ".gp: " << what << "\n"
     << "# Written by ordo; edit freely and redraw with: gnuplot " << p.stem << ".gp (writes " << p.stem
     << ".png and " << p.stem << ".svg)\n"
     << "set encoding utf8\n"
     << "do for [format in \"png svg\"] {\n"
     << "reset\n"
     << "if (format eq \"png\") {\n"
     << "  set terminal pngcairo size " << width << "," << height << " font \"sans,11\" noenhanced\n"
     << "} else {\n"
     << "  set terminal svg size " << width << "," << height << " font \"sans,11\" noenhanced background \"#ffffff\"\n"
     << "}\n"
     << "set output \"" << p.stem << ".\" . format\n"
     << body << "set output\n}\n";
  return os.str();
}

// A round tick interval giving at most `most` intervals over [0, span]: 1, 2 or 5 x 10^k.
double nice_step(double span, int most) {
  if (!(span > 0)) return 1;
  const double raw = span / most;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

// The screen fractions of one panel: left, right, bottom, top.
struct Rect {
  double l, r, b, t;
};

std::string margins(const Rect& r) {
  return "set lmargin at screen " + num(r.l) + "; set rmargin at screen " + num(r.r) + "; set bmargin at screen " +
         num(r.b) + "; set tmargin at screen " + num(r.t) + "\n";
}

// Panels of a rows x cols grid inside `area`, row-major, with gaps in screen fractions.
// Pixels between two small multiples side by side: the tick labels at their touching edges
// (a curve's last step, "2000" or "10000", beside the next panel's "0") need half their
// widths each and a space (22 px let "2000" and "0" run together into "20000").
constexpr double kPanelGapPx = 48;

std::vector<Rect> grid(size_t n, size_t cols, const Rect& area, double gap_x, double gap_y) {
  const size_t rows = (n + cols - 1) / cols;
  const double w = (area.r - area.l - gap_x * static_cast<double>(cols - 1)) / static_cast<double>(cols);
  const double h = (area.t - area.b - gap_y * static_cast<double>(rows - 1)) / static_cast<double>(rows);
  std::vector<Rect> out;
  for (size_t i = 0; i < n; ++i) {
    const double l = area.l + static_cast<double>(i % cols) * (w + gap_x);
    const double t = area.t - static_cast<double>(i / cols) * (h + gap_y);
    out.push_back(Rect{l, l + w, t - h, t});
  }
  return out;
}

size_t columns_for(size_t n) { return n <= 9 ? 3 : n <= 16 ? 4 : 5; }

// The pixels a legend of these labels takes beside the axes (sample, gap, text).
int legend_px(const std::vector<SeriesPoints>& series) {
  size_t longest = 6;
  for (const SeriesPoints& s : series) longest = std::max(longest, s.label.size());
  return 100 + static_cast<int>(8.5 * static_cast<double>(longest));  // sans 11: about 8 px a character
}

// " lc rgb "#..." dt ... pt N" for a series.
std::string style_spec(const SeriesStyle& s, double lw = 2) {
  return " lc rgb " + quote(s.colour) + " lw " + num(lw) + " " + gnuplot_dash(s.dash) + " pt " +
         std::to_string(gnuplot_point(s.marker));
}

// A point interval that puts about eight markers on a line of n points.
int marker_interval(size_t n) { return n <= 20 ? 1 : static_cast<int>(n / 8); }

constexpr const char* kFaint = "#cccccc";

void write_block(std::ostringstream& os, const std::string& comment, const std::vector<Band>& rows) {
  os << "# " << comment << "\n";
  if (rows.empty()) os << "0 NaN NaN NaN\n";  // keeps the block (and the index numbering)
  for (const Band& b : rows) os << num(b.x) << " " << num(b.mean) << " " << num(b.min) << " " << num(b.max) << "\n";
  os << "\n\n";
}

// Writes blocks 0..n-1 of `series` to <stem>.dat.
void write_series_data(const PlotFiles& p, const std::string& header, const std::vector<SeriesPoints>& series,
                       const std::string& what) {
  std::ostringstream dat;
  dat << "# " << header << "\n";
  for (const SeriesPoints& s : series) write_block(dat, s.label + " " + what, s.points);
  write_text(p.dat(), dat.str());
}

// How one figure of series against x is drawn: overlaid with a legend, or small multiples.
struct SeriesFigure {
  std::string title;               // above everything
  std::string xlabel, ylabel;
  std::string x_axis;              // gnuplot commands for the x axis (range, tics, log scale)
  std::string y_axis;              // ... and the y axis
  std::string extra;               // arrows and labels drawn in every panel
  std::string chance;              // a y value for a dashed line, or ""
  bool bands = true;               // min-max bands (filled) or error bars
  bool error_bars = false;
  std::string panel_xlabel = "";   // small multiples: a short x label ("" = xlabel)
  std::string inner_x_axis = "";   // small multiples: the x axis of panels above others ("" = x_axis, unlabelled)
  // Overlaid on a log-2 x axis: series i of n is drawn at x 2^((i - (n - 1) / 2) d) for this
  // d (octaves), so that equal values at one length stand side by side, not on top of each
  // other (0 = no offset).
  double dodge_octaves = 0;
  // A second guide line drawn in every panel: a plot item without its title ("" = none),
  // titled `guide_title` in the legend.
  std::string guide = "", guide_title = "";
};

// Overlaid series that coincide (several encodings at chance) would hide all but the last
// drawn: the lines are drawn thickest first (4 px) to thinnest last (1.5 px), so each one
// drawn earlier shows as an edge around those drawn over it.
double nested_width(size_t i, size_t n) {
  return n <= 1 ? 2.0 : 1.5 + 2.5 * static_cast<double>(n - 1 - i) / static_cast<double>(n - 1);
}

// The plot command of one overlaid series i: band + line (or error bars).
// lw: the line width; x_factor: the series' x multiplier (dodge_octaves), 1 for none.
std::string series_plot(const PlotFiles& p, const SeriesFigure& f, size_t i, const SeriesPoints& s,
                        const SeriesStyle& st, bool titled, double lw = 2, double x_factor = 1) {
  std::ostringstream os;
  const std::string file = quote(p.stem + ".dat");
  const std::string title = titled ? " title " + quote(s.label) : " notitle";
  const std::string x = x_factor == 1 ? "1" : "($1*" + num(x_factor) + ")";
  if (f.error_bars) {
    os << file << " index " << i << " using " << x << ":2:3:4 with yerrorlines" << style_spec(st, lw) << " ps 0.9"
       << title;
  } else {
    if (f.bands)
      os << file << " index " << i << " using " << x << ":3:4 with filledcurves lc rgb " << quote(st.colour)
         << " fs transparent solid 0.15 noborder notitle, \\\n     ";
    os << file << " index " << i << " using " << x << ":2 with linespoints" << style_spec(st, lw) << " ps 0.9 pi "
       << marker_interval(s.points.size()) << title;
  }
  return os.str();
}

// The body of an overlaid figure: one panel at `panel`, legend at the right of the canvas.
std::string overlaid(const PlotFiles& p, const SeriesFigure& f, const std::vector<SeriesPoints>& series,
                     const std::vector<SeriesStyle>& styles, const Rect& panel, bool key, size_t block_offset = 0) {
  std::ostringstream os;
  os << margins(panel) << "set grid\n" << f.x_axis << f.y_axis << f.extra << "set xlabel " << quote(f.xlabel)
     << "\nset ylabel " << quote(f.ylabel) << "\n";
  if (key)
    os << "set key at screen " << num(panel.r + 0.012) << ", screen " << num(panel.t)
       << " left top Left reverse samplen 4 spacing 1.15 width 1 font \",11\" box lc rgb \"#bbbbbb\"\n";
  else
    os << "unset key\n";
  os << "plot ";
  const size_t n = series.size();
  for (size_t i = 0; i < n; ++i) {
    const double x_factor =
        f.dodge_octaves == 0 ? 1 : std::exp2((static_cast<double>(i) - static_cast<double>(n - 1) / 2) * f.dodge_octaves);
    os << (i ? ", \\\n     " : "")
       << series_plot(p, f, block_offset + i, series[i], style_of(styles, series[i].label), key, nested_width(i, n),
                      x_factor);
  }
  if (!f.chance.empty()) os << ", \\\n     " << f.chance << " with lines dt 2 lc rgb \"#555555\" lw 1.5 title \"chance\"";
  if (!f.guide.empty()) os << ", \\\n     " << f.guide << " title " << quote(f.guide_title);
  os << "\n";
  return os.str();
}

// The body of small multiples: one panel per series, the others faint grey behind it; tick
// labels on the outer panels only.
std::string small_multiples(const PlotFiles& p, const SeriesFigure& f, const std::vector<SeriesPoints>& series,
                            const std::vector<SeriesStyle>& styles, const std::vector<Rect>& panels,
                            size_t block_offset = 0) {
  std::ostringstream os;
  const size_t n = series.size(), cols = columns_for(n);
  const std::string file = quote(p.stem + ".dat");
  os << "set grid\nunset key\n" << f.x_axis << f.y_axis << f.extra;
  for (size_t i = 0; i < n; ++i) {
    const bool left = i % cols == 0, bottom = i + cols >= n;
    os << margins(panels[i]) << "set title " << quote(series[i].label) << " font \",12\" offset 0,-0.4\n"
       << (f.inner_x_axis.empty() ? std::string() : bottom ? f.x_axis : f.inner_x_axis)
       << "set format x " << (bottom ? "\"%g\"" : "\"\"") << "\nset format y " << (left ? "\"%g\"" : "\"\"")
       << "\nset xlabel " << quote(bottom ? (f.panel_xlabel.empty() ? f.xlabel : f.panel_xlabel) : "") << "\nset ylabel " << quote(left ? f.ylabel : "") << "\n"
       << "plot ";
    bool first = true;
    for (size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      os << (first ? "" : ", \\\n     ") << file << " index " << block_offset + j
         << " using 1:2 with lines lc rgb \"" << kFaint << "\" lw 1 notitle";
      first = false;
    }
    os << (first ? "" : ", \\\n     ") << series_plot(p, f, block_offset + i, series[i], style_of(styles, series[i].label), false);
    if (!f.chance.empty()) os << ", \\\n     " << f.chance << " with lines dt 2 lc rgb \"#555555\" lw 1 notitle";
    if (!f.guide.empty()) os << ", \\\n     " << f.guide << " notitle";
    os << "\n";
  }
  return os.str();
}

// A figure of `series`: overlaid up to kMaxOverlaid, small multiples beyond.
std::string series_figure(const PlotFiles& p, const SeriesFigure& f, const std::vector<SeriesPoints>& series,
                          const std::vector<SeriesStyle>& styles, int& width, int& height) {
  std::ostringstream body;
  body << "set multiplot title " << quote(f.title) << " font \",13\"\n";
  if (series.size() <= kMaxOverlaid) {
    std::vector<SeriesPoints> keyed = series;  // the legend also names the guide line
    if (!f.guide_title.empty()) keyed.push_back(SeriesPoints{f.guide_title, {}});
    const int plot_w = 1100, legend = legend_px(keyed);
    width = plot_w + legend;
    height = 620;
    body << overlaid(p, f, series, styles,
                     Rect{80.0 / width, (plot_w - 20.0) / width, 70.0 / height, (height - 60.0) / height}, true);
  } else {
    const size_t cols = columns_for(series.size()), rows = (series.size() + cols - 1) / cols;
    width = std::max(1200, static_cast<int>(cols) * 300 + 110);
    height = static_cast<int>(rows) * 240 + 150;
    const Rect area{80.0 / width, 1 - 20.0 / width, 80.0 / height, 1 - 70.0 / height};
    body << small_multiples(p, f, series, styles, grid(series.size(), cols, area, kPanelGapPx / width, 58.0 / height));
  }
  body << "unset multiplot\n";
  return body.str();
}

}  // namespace

std::vector<PlotFiles> write_learning_curve_plots(const std::string& dir, const TaskSummary& t,
                                                  const std::vector<RunRecord>& runs,
                                                  const std::vector<SeriesStyle>& styles) {
  const CurveData c = learning_curves(t.task, runs);
  const std::string count = c.fewest_seeds < c.seeds  // cells with different numbers of runs
                                ? std::to_string(c.fewest_seeds) + "-" + std::to_string(c.seeds) + " seeds per cell"
                                : std::to_string(c.seeds) + (c.seeds == 1 ? " seed" : " seeds");
  const std::string seeds = "mean over " + count + (c.seeds > 1 ? ", band: min-max over seeds" : "");
  const double step = nice_step(static_cast<double>(c.last_step), c.acc.size() > kMaxOverlaid ? 4 : 10);
  const std::string x_axis = "set xrange [0:" + num(static_cast<double>(c.last_step)) + "]\nset xtics 0," + num(step) +
                             "\nset mxtics 2\n";
  double loss_max = 0;
  for (const SeriesPoints& s : c.loss)
    for (const Band& b : s.points)
      if (std::isfinite(b.max)) loss_max = std::max(loss_max, b.max);
  const std::string loss_axis = "set yrange [0:" + num(loss_max > 0 ? loss_max * 1.05 : 1) + "]\n";
  const std::string acc_axis = "set yrange [0:1.02]\nset ytics 0,0.2\n";
  const std::string chance = std::isfinite(t.chance) ? num(t.chance) : "";

  std::vector<PlotFiles> out;
  PlotFiles curves = prepare(dir, t.task + "_curves");
  if (c.acc.size() <= kMaxOverlaid) {
    // Loss above accuracy, one legend beside both.
    std::vector<SeriesPoints> both = c.loss;
    both.insert(both.end(), c.acc.begin(), c.acc.end());
    write_series_data(curves,
                      "learning curves of task " + t.task + ": blocks 0.." + std::to_string(c.loss.size() - 1) +
                          " train loss (windows of " + std::to_string(c.window) + " steps), then blocks " +
                          std::to_string(c.loss.size()) + ".." + std::to_string(2 * c.loss.size() - 1) +
                          " accuracy on the training lengths; columns: step mean min max (over seeds)",
                      both, "");
    const int plot_w = 1100, legend = legend_px(c.acc), width = plot_w + legend, height = 860;
    const double l = 80.0 / width, r = (plot_w - 20.0) / width;
    SeriesFigure loss{"", "", "train loss", x_axis, loss_axis, "", "", true, false};
    SeriesFigure acc{"", "step", "accuracy (training lengths)", x_axis, acc_axis, "", chance, true, false};
    std::ostringstream body;
    body << "set multiplot title " << quote(t.task + ": learning curves (" + seeds + ")") << " font \",13\"\n"
         << overlaid(curves, loss, c.loss, styles, Rect{l, r, 0.53, 1 - 60.0 / height}, true)
         << "set format x \"%g\"\n"
         << overlaid(curves, acc, c.acc, styles, Rect{l, r, 70.0 / height, 0.47}, false, c.loss.size())
         << "unset multiplot\n";
    write_text(curves.gp(), figure_script(curves, "learning curves of task " + t.task, width, height, body.str()));
    out.push_back(curves);
    return out;
  }
  // Small multiples: accuracy in <task>_curves, loss in <task>_loss.
  write_series_data(curves, "accuracy on the training lengths, task " + t.task +
                                ": one block per series; columns: step mean min max (over seeds)",
                    c.acc, "accuracy on the training lengths");
  SeriesFigure acc{t.task + ": accuracy on the training lengths against step (" + seeds + "; grey: the others)",
                   "step", "accuracy", x_axis, acc_axis, "", chance, true, false};
  int width = 0, height = 0;
  std::string body = series_figure(curves, acc, c.acc, styles, width, height);
  write_text(curves.gp(), figure_script(curves, "accuracy against step, task " + t.task, width, height, body));
  out.push_back(curves);

  PlotFiles loss_plot = prepare(dir, t.task + "_loss");
  write_series_data(loss_plot, "training loss, task " + t.task + " (windows of " + std::to_string(c.window) +
                                   " steps): one block per series; columns: step mean min max (over seeds)",
                    c.loss, "train loss");
  SeriesFigure loss{t.task + ": training loss against step (" + seeds + "; grey: the others)", "step", "train loss",
                    x_axis, loss_axis, "", "", true, false};
  body = series_figure(loss_plot, loss, c.loss, styles, width, height);
  write_text(loss_plot.gp(), figure_script(loss_plot, "training loss against step, task " + t.task, width, height, body));
  out.push_back(loss_plot);
  return out;
}

PlotFiles write_length_plot(const std::string& dir, const TaskSummary& t, const std::vector<SeriesStyle>& styles) {
  PlotFiles p = prepare(dir, t.task + "_lengths");
  const std::vector<SeriesPoints> series = length_curves(t);
  const double train_x = training_x(t);
  // A skewed task's commonest answer beats chance: its share in each set is drawn too, as a
  // last block (the series' styles and block numbers stay as they are).
  const std::vector<Band> commonest = commonest_curve(t, FindingThresholds{}.chance_margin);
  std::vector<SeriesPoints> blocks = series;
  if (!commonest.empty()) blocks.push_back(SeriesPoints{"the share of the training lengths' commonest answer:", commonest});
  write_series_data(p, "accuracy against evaluation length, task " + t.task + ": one block per series; columns: "
                       "length (the training-range set at " + num(train_x) + ", the middle of its range) mean min max "
                       "(final accuracy over seeds)",
                    blocks, "");
  // Log-2 x axis; a tick per evaluation length, thinned so that neighbours stay 40 px apart
  // in the narrowest panel (small multiples) or 80 px in an overlaid figure, from the left,
  // and the longest length labelled (the ticks too close to it give way; on an axis too
  // narrow for it and the first, the first alone).
  double x_min = train_x, x_max = train_x;
  for (int64_t len : t.lengths) {
    const double x = len == 0 ? train_x : static_cast<double>(len);
    x_min = std::min(x_min, x), x_max = std::max(x_max, x);
  }
  const double lo = x_min / 1.25, hi = x_max * 1.25;
  const double panel_px = series.size() > kMaxOverlaid ? 270 : 1000;
  const double min_gap = series.size() > kMaxOverlaid ? 40 : 80;
  auto x_of = [&](int64_t len) { return len == 0 ? train_x : static_cast<double>(len); };
  auto px_of = [&](int64_t len) { return panel_px * std::log2(x_of(len) / lo) / std::log2(hi / lo); };
  std::vector<int64_t> ticked;
  for (int64_t len : t.lengths)
    if (ticked.empty() || px_of(len) - px_of(ticked.back()) >= min_gap) ticked.push_back(len);
  if (!t.lengths.empty() && ticked.back() != t.lengths.back()) {
    const int64_t last = t.lengths.back();
    while (ticked.size() > 1 && px_of(last) - px_of(ticked.back()) < min_gap) ticked.pop_back();
    if (px_of(last) - px_of(ticked.back()) >= min_gap) ticked.push_back(last);  // else too close to the first
  }
  std::string tics, blank_tics;  // blank_tics: the same ticks without their (two-line) labels, for inner panels
  for (int64_t len : ticked) {
    const double x = x_of(len);
    blank_tics += (blank_tics.empty() ? "\"\" " : ", \"\" ") + num(x);
    std::string label = length_label(t, len);
    const size_t space = label.find(' ');
    if (space != std::string::npos) label = label.substr(0, space) + "\n" + label.substr(space + 1);
    tics += (tics.empty() ? "" : ", ") + quote(label) + " " + num(x);
  }
  std::string x_axis = "set logscale x 2\nset xrange [" + num(lo) + ":" + num(hi) + "]\nset xtics (" + tics + ")\n";
  std::string extra;
  if (t.max_len > 0)
    extra = "set arrow from " + std::to_string(t.max_len) + ", graph 0 to " + std::to_string(t.max_len) +
            ", graph 1 nohead dt 3 lc rgb \"#666666\"\n";
  // A sweep of many lengths (--eval-lens-final 41:500:1) is a curve: min-max bands, not a
  // forest of error bars, and no sideways dodge (neighbouring lengths are closer than it).
  const bool sweep = t.lengths.size() > kMaxLengthColumns + 1;  // the training range and the sweep
  SeriesFigure f{t.task + ": accuracy against evaluation length (final evaluation; " +
                     (sweep ? std::string("band") : std::string("bars")) + ": min-max over seeds; "
                     "dotted: the longest training length" +
                     (series.size() > kMaxOverlaid ? std::string("; grey: the others)") : std::string(")")),
"evaluation length" + (t.length_unit == "tokens" ? std::string() : " in " + t.length_unit) +
                     " (log scale; dotted: the longest training length)",
                 "accuracy", x_axis,
                 "set yrange [0:1.02]\nset ytics 0,0.2\n", extra, std::isfinite(t.chance) ? num(t.chance) : "",
                 false, true, "evaluation length", "set xtics (" + blank_tics + ")\n"};
  f.x_axis += "set xlabel offset 0,-0.6\n";
  if (!commonest.empty()) {
    f.guide = quote(p.stem + ".dat") + " index " + std::to_string(series.size()) +
              " using 1:2 with lines dt (8,3,2,3) lc rgb \"#555555\" lw 2";
    f.guide_title = "commonest answer";
    // Small multiples have no legend: the title names the line.
    if (series.size() > kMaxOverlaid) f.title = f.title.substr(0, f.title.size() - 1) + "; dash-dot: the commonest answer's share)";
  }
  f.bands = sweep;
  f.error_bars = !sweep;
  f.dodge_octaves = sweep ? 0 : 0.03;  // 6-9 px apart at 1000 px: equal values side by side
  int width = 0, height = 0;
  const std::string body = series_figure(p, f, series, styles, width, height);
  write_text(p.gp(), figure_script(p, "accuracy against evaluation length, task " + t.task, width, height, body));
  return p;
}

std::optional<PlotFiles> write_distance_plot(const std::string& dir, const TaskSummary& t,
                                             const std::vector<RunRecord>& runs,
                                             const std::vector<SeriesStyle>& styles) {
  const std::optional<DistanceData> d = distance_curves(t, runs);
  if (!d) return std::nullopt;
  PlotFiles p = prepare(dir, t.task + "_distance");
  // Blocks 0..n-1: x acc (NaN where the bin holds too few rows) and, for the lines drawn
  // grey, the same; block n: the scored rows per bin, fewest over the series.
  std::vector<SeriesPoints> series;
  std::vector<double> fewest(d->series.empty() ? 0 : d->series.front().points.size(), INFINITY);
  for (const DistanceSeries& s : d->series) {
    SeriesPoints sp{s.label, {}};
    for (size_t b = 0; b < s.points.size(); ++b) {
      const DistancePoint& q = s.points[b];
      const double acc = q.count >= kMinBinRows ? q.acc : NAN;
      sp.points.push_back(Band{q.centre, acc, acc, acc});
      fewest[b] = std::min(fewest[b], q.count);
    }
    series.push_back(std::move(sp));
  }
  std::ostringstream dat;
  dat << "# accuracy against distance, task " << t.task << ", evaluation set at " << d->set_name
      << ", final evaluation, seeds pooled, bins of " << d->bin_width << " distance(s): one block per series, "
      << "columns: distance (bin centre) accuracy accuracy accuracy (NaN: fewer than " << num(kMinBinRows)
      << " scored rows in the bin); then one block: bin centre, scored rows (fewest over the series), the same "
         "when below the rule (else NaN), when at or above it (else NaN)\n";
  for (const SeriesPoints& s : series) write_block(dat, s.label, s.points);
  dat << "# scored rows per bin\n";
  for (size_t b = 0; b < fewest.size(); ++b) {
    const double x = d->series.front().points[b].centre, n = std::isfinite(fewest[b]) ? fewest[b] : 0;
    dat << num(x) << " " << num(n) << " " << (n < kMinBinRows ? num(n) : "NaN") << " "
        << (n >= kMinBinRows ? num(n) : "NaN") << "\n";
  }
  write_text(p.dat(), dat.str());

  const double span = static_cast<double>(d->distances);
  const std::string x_axis = "set xrange [0:" + num(span) + "]\nset xtics 0," +
                             num(nice_step(span, series.size() > kMaxOverlaid ? 4 : 10)) + "\n";
  std::string extra;
  const int64_t longest = t.longest_trained_distance >= 0 ? t.longest_trained_distance : t.max_len - 1;
  if (longest >= 0 && static_cast<size_t>(longest) + 1 < d->distances)
    extra = "set arrow from " + std::to_string(longest) + ", graph 0 to " + std::to_string(longest) +
            ", graph 1 nohead dt 3 lc rgb \"#666666\"\n";
  const std::string& what = t.distance_name;  // "distance", or passkey's "depth"
  const std::string xlabel = (d->bin_width == 1 ? what : what + " (bins of " + std::to_string(d->bin_width) + ")") +
                             (extra.empty() ? "" : "; dotted: the longest trained " + what);
  SeriesFigure f{t.task + ": accuracy against " + what + ", " + d->set_name + " (final evaluation, seeds pooled" +
                     (series.size() > kMaxOverlaid ? std::string("; grey: the others)") : std::string(")")),
                 xlabel, "accuracy", x_axis, "set yrange [0:1.02]\nset ytics 0,0.2\n", extra,
                 std::isfinite(t.chance) ? num(t.chance) : "", false, false, what};
  int width = 0, height = 0;
  std::ostringstream body;
  const double count_px = 170;  // the panel of counts at the bottom
  body << "set multiplot title " << quote(f.title) << " font \",13\"\n";
  Rect count_panel{};
  if (series.size() <= kMaxOverlaid) {
    const int plot_w = 1100, legend = legend_px(series);
    width = plot_w + legend;
    height = 820;
    const double l = 80.0 / width, r = (plot_w - 20.0) / width;
    f.title = "";
    SeriesFigure top = f;
    top.xlabel = "";  // the panel of counts beneath carries it
    body << overlaid(p, top, series, styles, Rect{l, r, (count_px + 110) / height, 1 - 60.0 / height}, true);
    count_panel = Rect{l, r, 60.0 / height, (count_px + 30) / height};
  } else {
    const size_t cols = columns_for(series.size()), rows = (series.size() + cols - 1) / cols;
    width = std::max(1200, static_cast<int>(cols) * 300 + 110);
    height = static_cast<int>(rows) * 230 + 120 + static_cast<int>(count_px) + 60;
    const Rect area{80.0 / width, 1 - 20.0 / width, (count_px + 130) / height, 1 - 70.0 / height};
    body << small_multiples(p, f, series, styles, grid(series.size(), cols, area, kPanelGapPx / width, 48.0 / height));
    count_panel = Rect{80.0 / width, 1 - 20.0 / width, 60.0 / height, (count_px + 40) / height};
  }
  const double top = std::max(kMinBinRows * 2, *std::max_element(fewest.begin(), fewest.end()) * 1.15);
  body << "unset logscale\nunset arrow\nunset title\n" << margins(count_panel) << x_axis
       << "set format x \"%g\"\nset format y \"%g\"\nset yrange [0:" << num(top) << "]\nset ytics autofreq\n"
       << "set xlabel " << quote(xlabel) << "\nset ylabel \"scored rows\"\nunset key\n"
       << "set label 1 " << quote("scored rows per bin (seeds pooled; fewest over the series). Grey: fewer than " +
                                  num(kMinBinRows) + ", too few to read (standard error over 0.09): not drawn")
       << " at graph 0.01, graph 0.9 left font \",10\"\n"
       << "set boxwidth " << num(0.8 * static_cast<double>(d->bin_width)) << " absolute\n"
       << "plot " << quote(p.stem + ".dat") << " index " << series.size()
       << " using 1:3 with boxes fs solid 0.6 lc rgb \"#bbbbbb\" notitle, \\\n     '' index " << series.size()
       << " using 1:4 with boxes fs solid 0.6 lc rgb \"#555555\" notitle, \\\n     " << num(kMinBinRows)
       << " with lines dt 2 lc rgb \"#D55E00\" notitle\n"
       << "unset multiplot\n";
  write_text(p.gp(), figure_script(p, "accuracy against distance, task " + t.task, width, height, body.str()));
  return p;
}

namespace {

// The overview's columns cut into bands, each drawn under the one before: a band holds whole
// tasks, up to kOverviewBandColumns columns (a task with more has a band of its own), so 15
// tasks at 3 lengths are 3 bands of 15 columns, not one row of 45.
constexpr size_t kOverviewBandColumns = 15;

struct ColumnRange {
  size_t first = 0, last = 0;  // [first, last)
  size_t size() const { return last - first; }
};

// Each task's columns, in order (a task's columns are consecutive in the overview).
std::vector<ColumnRange> task_ranges(const Overview& ov) {
  std::vector<ColumnRange> tasks;
  for (size_t j = 0; j < ov.columns.size(); ++j)
    if (j == 0 || ov.columns[j].task != ov.columns[j - 1].task)
      tasks.push_back({j, j + 1});
    else
      tasks.back().last = j + 1;
  return tasks;
}

std::vector<std::vector<ColumnRange>> overview_bands(const Overview& ov) {
  std::vector<std::vector<ColumnRange>> bands;
  size_t used = 0;
  for (const ColumnRange& t : task_ranges(ov)) {
    if (bands.empty() || used + t.size() > kOverviewBandColumns) {
      bands.emplace_back();
      used = 0;
    }
    bands.back().push_back(t);
    used += t.size();
  }
  return bands;
}

// The part of a column label after the task: "order · 2x (64)" -> "2x (64)".
std::string length_label(const OverviewColumn& c) {
  const size_t dot = c.label.find(" · ");
  return dot == std::string::npos ? c.label : c.label.substr(dot + 4);
}

}  // namespace

PlotFiles write_overview_plot(const std::string& dir, const Overview& ov, int seeds) {
  PlotFiles p = prepare(dir, "overview");
  const size_t rows = ov.rows.size(), cols = ov.columns.size();
  ORDO_CHECK(rows > 0 && cols > 0, "plots: the overview needs at least one row and one column");
  const std::vector<std::vector<ColumnRange>> bands = overview_bands(ov);

  // Data: one block per band (`index b`), its cells at their column within the band.
  std::ostringstream dat;
  dat << "# overview: score (0 = the task's chance level, 1 = accuracy 1) of each series at each task and "
         "evaluation length, one block per band of tasks; columns: column-in-band row score column (NaN: no run "
         "there)\n# rows:";
  for (const OverviewRow& r : ov.rows) dat << " " << r.label << ";";
  dat << "\n";
  size_t widest = 0;  // columns in the widest band
  for (size_t b = 0; b < bands.size(); ++b) {
    dat << (b ? "\n\n" : "") << "# band " << b + 1 << "\n";
    const size_t first = bands[b].front().first, last = bands[b].back().last;
    widest = std::max(widest, last - first);
    for (size_t i = 0; i < rows; ++i)
      for (size_t j = first; j < last; ++j) {
        const OverviewCell& c = ov.rows[i].cells[j];
        // A cell not learned gets no colour: it is drawn grey below, so nobody reads it as a score.
        dat << j - first << " " << i << " " << (c.acc.n > 0 && !c.not_learned ? num(c.score) : "NaN") << " " << j
            << "\n";
      }
  }
  write_text(p.dat(), dat.str());

  // Sizes in pixels. A cell is wide enough for its length label and for its task's name
  // spread over the task's columns (names are drawn whole, as written).
  constexpr double kCharPx = 7.5, kNameCharPx = 8.5;  // fonts 10 and 11
  size_t longest = 8;
  for (const OverviewRow& r : ov.rows) longest = std::max(longest, r.label.size());
  const int left = 40 + static_cast<int>(kCharPx * static_cast<double>(longest)), right = 170;
  const int title_h = 44, header_h = 62, gap = 18, bottom = 44;
  // The colour bar's label, drawn upright beside the first band's cells and centred on them:
  // the cells are at least tall enough that it does not reach above the canvas (it starts
  // title_h + header_h below the top), and the canvas grows below for what hangs under them.
  // Two lines, so that it fits beside a band of four rows; its longer line at font 11.
  const std::string bar_label = "score: 0 = chance (or the commonest answer),\n1 = accuracy 1";
  const int bar_label_px =
      static_cast<int>(kNameCharPx * static_cast<double>(bar_label.find('\n'))) + 16;
  const int cell_h = std::max({46, 150 / static_cast<int>(rows),  // room for the colour bar's ticks
                               (bar_label_px - 2 * (title_h + header_h) + static_cast<int>(rows) - 1) /
                                   static_cast<int>(rows)});
  int cell_w = std::max(112, (1200 - left - right) / static_cast<int>(widest));
  for (const ColumnRange& t : task_ranges(ov)) {
    const double name_px = kNameCharPx * static_cast<double>(ov.columns[t.first].task.size()) + 16;
    cell_w = std::max(cell_w, static_cast<int>(std::ceil(name_px / static_cast<double>(t.size()))));
    for (size_t j = t.first; j < t.last; ++j)
      cell_w = std::max(cell_w, static_cast<int>(kCharPx * static_cast<double>(length_label(ov.columns[j]).size())) + 16);
  }
  const int band_h = header_h + cell_h * static_cast<int>(rows);
  const int nb = static_cast<int>(bands.size());
  const int width = left + cell_w * static_cast<int>(widest) + right;
  // The colour bar's label (centred on the first band's cells) reaches below a lone band of a
  // few rows: the canvas grows to hold it.
  const int overhang = std::max(0, (bar_label_px - cell_h * static_cast<int>(rows)) / 2) - (nb - 1) * (band_h + gap);
  const int height = title_h + nb * band_h + (nb - 1) * gap + std::max(bottom, overhang + 24);
  const auto x_at = [&](double px) { return num(px / width); };
  const auto y_at = [&](double px_from_top) { return num(1 - px_from_top / height); };

  std::string yt;
  for (size_t i = 0; i < rows; ++i) yt += (i ? ", " : "") + quote(ov.rows[i].label) + " " + std::to_string(i);
  double bar_train = 0, bar_beyond = 0;
  for (const OverviewColumn& c : ov.columns) (c.length == 0 ? bar_train : bar_beyond) = c.bar;

  std::ostringstream body;
  body << "set multiplot\n"
       << "set yrange [" << num(static_cast<double>(rows) - 0.5) << ":-0.5]\n"
       << "set cbrange [0:1]\nset palette defined (0 \"#f7fbff\", 0.35 \"#9ecae1\", 0.7 \"#3182bd\", 1 \"#08306b\")\n"
       << "set cblabel " << quote(bar_label) << " offset -0.5,0\nset cbtics 0,0.25\n"
       << "unset key\nset tics scale 0\nset tics front\nunset xtics\nset ytics (" << yt << ")\n";
  char buf[64];
  for (int b = 0; b < nb; ++b) {
    const size_t first = bands[b].front().first, last = bands[b].back().last, n = last - first;
    const double top = title_h + b * (band_h + gap) + header_h, cells_bottom = top + cell_h * static_cast<double>(rows);
    body << "# band " << b + 1 << ": " << ov.columns[first].task << " .. " << ov.columns[last - 1].task << "\n"
         << "unset label\nunset arrow\nunset object\n"
         << margins(Rect{static_cast<double>(left) / width, (left + cell_w * static_cast<double>(n)) / width,
                         1 - cells_bottom / height, 1 - top / height})
         << "set xrange [-0.5:" << num(static_cast<double>(n) - 0.5) << "]\n";
    int tag = 1;
    if (b == 0) {
      // The title as a label at the top: a title would sit on the column labels.
      body << "set label " << tag++ << " "
           << quote("Overview: final accuracy, mean over " + std::to_string(seeds) +
                    (seeds == 1 ? " seed" : " seeds [95% bootstrap interval]") + "; rows ordered by how far they generalise")
           << " at screen 0.5, screen " << y_at(22) << " center font \",13\"\n";
      // The colour bar in pixels, 24 wide and 20 right of the widest band's cells (its label
      // may hang below the first band): gnuplot's default sizes it by the plot's width, so
      // 26 columns pushed its ticks off the canvas.
      body << "set colorbox user origin screen " << x_at(left + cell_w * static_cast<double>(widest) + 20) << ", screen "
           << y_at(cells_bottom) << " size screen " << num(24.0 / width) << ", screen "
           << num(cell_h * static_cast<double>(rows) / height) << "\n";
    } else {
      body << "unset colorbox\n";
    }
    if (b == nb - 1)
      body << "set label " << tag++ << " "
           << quote("✗: not every seed reaches " + num(bar_train) + " on the training lengths" +
                    (bar_beyond > 0 ? " (" + num(bar_beyond) + " beyond them)" : std::string()) +
                    ".   Grey, not learned: no seed learned the training lengths, so the longer ones say nothing")
           << " at screen " << x_at(left) << ", screen " << num(20.0 / height) << " left font \",10\" textcolor rgb \"#D55E00\"\n";
    // Lengths on the columns, each task's name once above its columns, white lines between tasks.
    std::string xt;
    for (size_t j = first; j < last; ++j)
      xt += (j > first ? ", " : "") + quote(length_label(ov.columns[j])) + " " + std::to_string(j - first);
    body << "set x2tics (" << xt << ")\n";
    for (const ColumnRange& t : bands[b]) {
      const double centre = (static_cast<double>(t.first + t.last) - 1) / 2 - static_cast<double>(first);
      body << "set label " << tag++ << " " << quote(ov.columns[t.first].task) << " at first " << num(centre)
           << ", screen " << y_at(top - header_h + 16) << " center font \",11\"\n";
      if (t.first > first)
        body << "set arrow from " << num(static_cast<double>(t.first - first) - 0.5) << ", graph 0 to "
             << num(static_cast<double>(t.first - first) - 0.5) << ", graph 1 nohead lc rgb \"#ffffff\" lw 5 front\n";
    }
    int objects = 0;
    for (size_t i = 0; i < rows; ++i)
      for (size_t j = first; j < last; ++j) {
        const OverviewCell& c = ov.rows[i].cells[j];
        const double x = static_cast<double>(j - first);
        std::string text = "-";
        if (c.acc.n > 0 && c.not_learned) {
          text = "not learned";
          body << "set object " << ++objects << " rect from " << num(x - 0.5) << "," << num(static_cast<double>(i) - 0.5)
               << " to " << num(x + 0.5) << "," << num(static_cast<double>(i) + 0.5)
               << " fc rgb \"#d9d9d9\" fs solid 1.0 noborder front\n";  // front: under the labels, over the NaN box
        } else if (c.acc.n > 0) {
          std::snprintf(buf, sizeof buf, "%.3f", c.acc.mean);
          text = buf;
          if (c.acc.n > 1) {
            std::snprintf(buf, sizeof buf, "\n[%.2f, %.2f]", c.acc.low, c.acc.high);
            text += buf;
          }
        }
        const bool dark = c.acc.n > 0 && !c.not_learned && c.score > 0.55;
        body << "set label " << tag++ << " " << quote(text) << " at " << num(x) << "," << i
             << " center front textcolor rgb " << (dark ? "\"#ffffff\"" : "\"#111111\"") << " font \",10\"\n";
        if (c.acc.n > 0 && !c.held && !c.not_learned)
          body << "set label " << tag++ << " \"✗\" at " << num(x + 0.45) << "," << num(static_cast<double>(i) - 0.12)
               << " right front textcolor rgb \"#D55E00\" font \",12\"\n";
      }
    // Boxes, not `matrix with image`, which needs a grid of at least 2 x 2 (one series, one task).
    body << "plot " << quote(p.stem + ".dat") << " index " << b
         << " using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle\n";
  }
  body << "unset multiplot\n";
  write_text(p.gp(), figure_script(p, "overview of the study: final accuracy per series, task and length", width,
                                   height, body.str()));
  return p;
}

PlotFiles write_heatmap_plot(const std::string& dir, const std::string& stem, const std::string& title,
                             const std::vector<Heatmap>& panels, const std::string& xlabel,
                             const std::string& ylabel, bool diverging) {
  ORDO_CHECK(!panels.empty(), "plots: a heatmap needs at least one panel");
  PlotFiles p = prepare(dir, stem);
  std::ostringstream dat;
  dat << "# " << title << ": one matrix block per panel (row i = one line), in panel order\n";
  double vmax = 0;
  for (const Heatmap& h : panels) {
    ORDO_CHECK(static_cast<int64_t>(h.values.size()) == h.rows * h.cols, "plots: heatmap '", h.title, "' has ",
               h.values.size(), " values for ", h.rows, " x ", h.cols);
    dat << "# " << h.title << "\n";
    for (int64_t i = 0; i < h.rows; ++i) {
      for (int64_t j = 0; j < h.cols; ++j) {
        const double v = h.values[i * h.cols + j];
        if (std::isfinite(v)) vmax = std::max(vmax, std::fabs(v));
        dat << (j ? " " : "") << num(v);
      }
      dat << "\n";
    }
    dat << "\n\n";
  }
  write_text(p.dat(), dat.str());

  const int n = static_cast<int>(panels.size());
  const int width = n == 1 ? 1200 : std::max(1200, 40 + 420 * n), height = n == 1 ? 1080 : 520;
  std::ostringstream gp;
  gp << "set multiplot layout 1," << n << " title " << quote(title) << "\n"
     << "set xlabel " << quote(xlabel) << "\nset ylabel " << quote(ylabel) << "\nset size ratio -1\n";
  if (vmax <= 0) vmax = 1;
  if (diverging)
    gp << "set palette defined (-1 '#2166ac', 0 '#f7f7f7', 1 '#b2182b')\nset cbrange [" << num(-vmax) << ":"
       << num(vmax) << "]\n";
  else
    gp << "set palette defined (0 '#ffffff', 0.5 '#6baed6', 1 '#08306b')\nset cbrange [0:" << num(vmax) << "]\n";
  for (int i = 0; i < n; ++i) {
    const Heatmap& h = panels[i];
    gp << "set title " << quote(h.title) << "\n"
       << "set xrange [-0.5:" << num(h.cols - 0.5) << "]\nset yrange [" << num(h.rows - 0.5) << ":-0.5]\n"
       << "plot " << quote(p.stem + ".dat") << " index " << i << " matrix with image notitle\n";
  }
  gp << "unset multiplot\n";
  write_text(p.gp(), figure_script(p, title, width, height, gp.str()));
  return p;
}

bool gnuplot_available() {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::stringstream ss(path);
  std::string entry;
  while (std::getline(ss, entry, ':')) {
    const std::string candidate = (entry.empty() ? std::string(".") : entry) + "/gnuplot";  // "" = cwd
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
      return true;
  }
  return false;
}

namespace {

// Runs `gnuplot script` with `dir` as working directory; returns "" or what went wrong
// (gnuplot's own output, trimmed).
std::string run_gnuplot(const std::string& dir, const std::string& script) {
  int fds[2];
  if (::pipe(fds) != 0) return std::string("cannot create a pipe: ") + std::strerror(errno);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return std::string("cannot fork: ") + std::strerror(errno);
  }
  if (pid == 0) {  // child: only async-signal-safe calls until exec
    ::close(fds[0]);
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    const int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
    if (::chdir(dir.c_str()) != 0) ::_exit(126);
    ::execlp("gnuplot", "gnuplot", script.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(fds[1]);
  std::string output;
  char buf[4096];
  for (;;) {
    const ssize_t got = ::read(fds[0], buf, sizeof buf);
    if (got > 0) output.append(buf, static_cast<size_t>(got));
    else if (got == 0 || errno != EINTR) break;
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  while (!output.empty() && (output.back() == '\n' || output.back() == ' ')) output.pop_back();
  if (output.size() > 400) output = "..." + output.substr(output.size() - 400);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  if (WIFEXITED(status) && WEXITSTATUS(status) == 126) return "cannot enter " + dir;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return "cannot run gnuplot";
  return "gnuplot failed" + (output.empty() ? std::string() : ": " + output);
}

}  // namespace

RenderReport render_plots(const std::vector<PlotFiles>& plots) {
  RenderReport r;
  if (!plots.empty()) r.dir = plots.front().dir;
  try {
    for (const PlotFiles& p : plots) {  // a stale image must not pass for a new one
      std::error_code ec;
      fs::remove(p.png(), ec);
      fs::remove(p.svg(), ec);
    }
    r.gnuplot_found = gnuplot_available();
    if (!r.gnuplot_found) return r;
    for (const PlotFiles& p : plots) {
      std::error_code ec;
      const std::string problem = run_gnuplot(p.dir, p.stem + ".gp");
      if (problem.empty() && fs::exists(p.png(), ec) && fs::exists(p.svg(), ec)) ++r.rendered;
      else r.problems.push_back(p.gp() + ": " + (problem.empty() ? "no image written" : problem));
    }
  } catch (const std::exception& e) {
    r.problems.push_back(std::string("plotting stopped: ") + e.what());
  }
  return r;
}

std::string RenderReport::message() const {
  if (!gnuplot_found)
    return "gnuplot not found on PATH: no PNGs drawn; the data (.dat) and scripts (.gp) are in " + dir +
           ". Install it (Debian: apt-get install gnuplot-nox) and run `gnuplot <name>.gp` there.";
  if (problems.empty()) return "";
  std::string s = std::to_string(problems.size()) + " plot(s) failed (data and scripts are kept):";
  for (const std::string& p : problems) s += "\n  " + p;
  return s;
}

}  // namespace ordo
