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
#include "layers/posenc/encoding.h"
#include "report/atomic_file.h"

namespace ordo {
namespace {

namespace fs = std::filesystem;

// A fixed colour per registered encoding (registry order), so an encoding has the same
// colour in every plot; unknown names cycle through the same palette.
std::string encoding_colour(const std::string& name, size_t fallback_index) {
  static const char* const kPalette[] = {"#7f7f7f", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                         "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf"};
  constexpr size_t n = sizeof kPalette / sizeof kPalette[0];
  const auto& reg = encodings();
  for (size_t i = 0; i < reg.size(); ++i)
    if (name == reg[i].name) return kPalette[i % n];
  return kPalette[fallback_index % n];
}

// A gnuplot single-quoted string ('' escapes a quote).
std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string num(double v) {
  if (!std::isfinite(v)) return "NaN";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

void write_text(const std::string& path, const std::string& text) { write_file(path, text); }

PlotFiles prepare(const std::string& dir, const std::string& stem) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  ORDO_CHECK(!ec, "plots: cannot create ", dir, ": ", ec.message());
  return PlotFiles{dir, stem};
}

std::string script_head(const PlotFiles& p, const std::string& what, int width, int height) {
  std::ostringstream os;
  os << "# " << p.stem << ".gp: " << what << "\n"
     << "# Written by ordo; edit freely and redraw with: gnuplot " << p.stem << ".gp\n"
     << "set terminal pngcairo size " << width << "," << height << " font 'sans,9'\n"
     << "set output " << quote(p.stem + ".png") << "\n";
  return os.str();
}

struct Band {
  double x, mean, min, max;
};

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

// A line's dash pattern: 1 (solid) for the first variant of a swept study, 2, 3, ... for
// the next (gnuplot's dash types), so colour names the encoding and dashes the variant.
int variant_dash(const std::vector<std::string>& variants_seen, const std::string& variant) {
  const auto it = std::find(variants_seen.begin(), variants_seen.end(), variant);
  return 1 + static_cast<int>(it - variants_seen.begin());
}

// Appends `item` unless it is there already (first-appearance order).
void add_once(std::vector<std::string>& items, const std::string& item) {
  if (std::find(items.begin(), items.end(), item) == items.end()) items.push_back(item);
}

// A task's variants in the order its rows first show them ({""} without a sweep).
std::vector<std::string> variants_of(const TaskSummary& t) {
  std::vector<std::string> seen;
  for (const EncodingSummary& e : t.rows) add_once(seen, e.variant);
  return seen;
}

void write_block(std::ostringstream& os, const std::string& comment, const std::vector<Band>& rows) {
  os << "# " << comment << "\n";
  if (rows.empty()) os << "0 NaN NaN NaN\n";  // keeps the block (and the index numbering)
  for (const Band& b : rows) os << num(b.x) << " " << num(b.mean) << " " << num(b.min) << " " << num(b.max) << "\n";
  os << "\n\n";
}

}  // namespace

PlotFiles write_learning_curve_plot(const std::string& dir, const std::string& task,
                                    const std::vector<RunRecord>& runs) {
  PlotFiles p = prepare(dir, task + "_curves");
  // One line per encoding, or per encoding and variant in a swept study ("rope (causal=true)").
  std::vector<std::string> encs, variants_seen;
  std::map<std::string, std::vector<const RunLog*>> logs;
  std::map<std::string, std::pair<std::string, std::string>> cell;  // line -> encoding, variant
  for (const RunRecord& r : runs) {
    if (r.task != task) continue;
    const std::string line = run_label(r.encoding, r.variant);
    add_once(encs, line);
    cell[line] = {r.encoding, r.variant};
    add_once(variants_seen, r.variant);
    logs[line].push_back(&r.log);
  }
  std::ostringstream dat;
  dat << "# learning curves of task " << task << ": blocks 0.." << encs.size() - 1
      << " train loss, then blocks " << encs.size() << ".." << 2 * encs.size() - 1
      << " accuracy on the training lengths; columns: step mean min max (over seeds)\n";
  int seeds = 0;
  for (const std::string& e : encs) {
    const auto& ls = logs[e];
    seeds = std::max(seeds, static_cast<int>(ls.size()));
    size_t n = ls.front()->step.size();
    for (const RunLog* l : ls) n = std::min(n, l->step.size());
    const size_t w = std::max<size_t>(1, n / 200);
    std::vector<Band> rows;
    for (size_t start = 0; start < n; start += w) {
      const size_t end = std::min(n, start + w);
      std::vector<double> per_seed;
      for (const RunLog* l : ls) {
        double s = 0;
        for (size_t i = start; i < end; ++i) s += l->train_loss[i];
        per_seed.push_back(s / static_cast<double>(end - start));
      }
      rows.push_back(band(static_cast<double>(ls.front()->step[end - 1]), per_seed));
    }
    write_block(dat, e + " train loss (windows of " + std::to_string(w) + " steps)", rows);
  }
  for (const std::string& e : encs) {
    const auto& ls = logs[e];
    size_t m = SIZE_MAX;
    for (const RunLog* l : ls) {
      auto it = l->eval.find(0);
      m = std::min(m, it == l->eval.end() ? size_t{0} : it->second.size());
    }
    std::vector<Band> rows;
    for (size_t i = 0; i < m; ++i) {
      std::vector<double> per_seed;
      for (const RunLog* l : ls) per_seed.push_back(l->eval.at(0)[i].acc);
      rows.push_back(band(static_cast<double>(ls.front()->eval.at(0)[i].step), per_seed));
    }
    write_block(dat, e + " accuracy on the training lengths", rows);
  }
  write_text(p.dat(), dat.str());

  std::ostringstream gp;
  gp << script_head(p, "learning curves of task " + task + " (ordo compare)", 640, 480)
     << "set multiplot layout 2,1 title " << quote(task + ": mean over " + std::to_string(seeds) +
                                                   " seed(s), band = min-max over seeds")
     << "\nset key outside right top\nset grid\nset xlabel 'step'\nset ylabel 'train loss'\n";
  auto plot_panel = [&](size_t offset) {
    gp << "plot ";
    for (size_t i = 0; i < encs.size(); ++i) {
      const std::string c = encoding_colour(cell[encs[i]].first, i);
      gp << (i ? ", \\\n     " : "") << quote(p.stem + ".dat") << " index " << offset + i
         << " using 1:3:4 with filledcurves lc rgb " << quote(c) << " fs transparent solid 0.2 noborder notitle, \\\n"
         << "     '' index " << offset + i << " using 1:2 with lines lc rgb " << quote(c) << " lw 1.5 dt "
         << variant_dash(variants_seen, cell[encs[i]].second) << " title " << quote(encs[i]);
    }
    gp << "\n";
  };
  plot_panel(0);
  gp << "set ylabel 'accuracy (train lengths)'\nset yrange [0:1.02]\n";
  plot_panel(encs.size());
  gp << "unset multiplot\n";
  write_text(p.gp(), gp.str());
  return p;
}

PlotFiles write_length_plot(const std::string& dir, const TaskSummary& t) {
  PlotFiles p = prepare(dir, t.task + "_lengths");
  // x is the evaluation length, on a log2 axis (2x and 4x the training length are evenly
  // spaced; --eval-lens 64:512:64 draws a curve). The training-range set sits at the middle
  // of that range, left of a dotted line at its longest length.
  const bool range_known = t.min_len > 0 && t.max_len >= t.min_len;
  const double train_x = range_known ? 0.5 * static_cast<double>(t.min_len + t.max_len) : 1.0;
  auto x_of = [&](int64_t length) { return length == 0 ? train_x : static_cast<double>(length); };
  std::ostringstream dat;
  dat << "# accuracy against evaluation length, task " << t.task << ": one block per encoding; columns: "
      << "length (the training-range set at " << num(train_x) << ", the middle of its range) mean min max "
      << "(final accuracy over seeds)\n";
  double x_min = train_x, x_max = train_x;
  for (const EncodingSummary& e : t.rows) {
    std::vector<Band> rows;
    for (int64_t length : t.lengths) {
      auto it = e.acc.find(length);
      if (it == e.acc.end() || it->second.n == 0) continue;
      rows.push_back(Band{x_of(length), it->second.mean, it->second.min, it->second.max});
      x_min = std::min(x_min, x_of(length));
      x_max = std::max(x_max, x_of(length));
    }
    std::sort(rows.begin(), rows.end(), [](const Band& a, const Band& b) { return a.x < b.x; });
    write_block(dat, e.label(), rows);
  }
  write_text(p.dat(), dat.str());

  std::ostringstream gp;
  gp << script_head(p, "accuracy against evaluation length, task " + t.task + " (ordo compare)", 640, 400)
     << "set title " << quote(t.task + ": length generalization (final accuracy, bars = min-max over seeds)") << "\n"
     << "set key outside right top\nset grid\nset ylabel 'accuracy'\nset xlabel 'evaluation length (log scale)'\n"
     << "set yrange [0:1.02]\nset logscale x 2\nset xrange [" << num(x_min / 1.25) << ":" << num(x_max * 1.25) << "]\n";
  if (range_known)
    gp << "set arrow from " << t.max_len << ", graph 0 to " << t.max_len << ", graph 1 nohead dt 3 lc rgb 'gray40'\n"
       << "set label " << quote("training " + std::to_string(t.min_len) + "-" + std::to_string(t.max_len)) << " at "
       << num(train_x) << ", graph 0.04 center font ',8'\n";
  gp << "plot ";
  const std::vector<std::string> variants_seen = variants_of(t);
  for (size_t i = 0; i < t.rows.size(); ++i)
    gp << (i ? ", \\\n     " : "") << quote(p.stem + ".dat") << " index " << i
       << " using 1:2:3:4 with yerrorlines lc rgb " << quote(encoding_colour(t.rows[i].encoding, i))
       << " lw 1.5 dt " << variant_dash(variants_seen, t.rows[i].variant) << " pt 7 ps 0.6 title "
       << quote(t.rows[i].label());
  if (std::isfinite(t.chance)) gp << ", \\\n     " << num(t.chance) << " with lines dt 2 lc rgb 'black' title 'chance'";
  gp << "\n";
  write_text(p.gp(), gp.str());
  return p;
}

std::optional<PlotFiles> write_distance_plot(const std::string& dir, const TaskSummary& t,
                                             const std::vector<RunRecord>& runs) {
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
  const size_t width = (distances + 15) / 16;  // distances per bin
  PlotFiles p = prepare(dir, t.task + "_distance");
  const std::string set_name = length == 0 ? std::string("the training lengths") : "length " + std::to_string(length);
  std::ostringstream dat;
  dat << "# accuracy against distance, task " << t.task << ", evaluation set at " << set_name
      << ", final evaluation: one block per encoding; columns: distance (bin centre) accuracy scored_rows "
      << "(seeds pooled; bins of " << width << " distance(s))\n";
  for (const EncodingSummary& e : t.rows) {
    std::vector<double> correct((distances + width - 1) / width, 0), scored(correct.size(), 0);
    for (const RunRecord& r : runs) {
      if (r.task != t.task || r.encoding != e.encoding || r.variant != e.variant) continue;
      auto it = r.log.eval.find(length);
      if (it == r.log.eval.end() || it->second.empty()) continue;
      const EvalPoint& last = it->second.back();
      for (size_t d = 0; d < last.count_by_distance.size() && d < last.acc_by_distance.size(); ++d) {
        const double n = static_cast<double>(last.count_by_distance[d]);
        if (n == 0 || !std::isfinite(last.acc_by_distance[d])) continue;
        scored[d / width] += n;
        correct[d / width] += n * last.acc_by_distance[d];
      }
    }
    dat << "# " << e.label() << "\n";
    bool any = false;
    for (size_t b = 0; b < scored.size(); ++b) {
      if (scored[b] == 0) continue;
      const double centre = static_cast<double>(b * width) + 0.5 * static_cast<double>(width - 1);
      dat << num(centre) << " " << num(correct[b] / scored[b]) << " " << num(scored[b]) << "\n";
      any = true;
    }
    if (!any) dat << "0 NaN 0\n";  // keeps the block (and the index numbering)
    dat << "\n\n";
  }
  write_text(p.dat(), dat.str());

  std::ostringstream gp;
  gp << script_head(p, "accuracy against distance, task " + t.task + " (ordo compare)", 640, 400)
     << "set title " << quote(t.task + ": accuracy against distance, " + set_name + " (final evaluation, seeds pooled)")
     << "\n"
     << "set key outside right top\nset grid\nset ylabel 'accuracy'\nset xlabel "
     << quote(width == 1 ? "distance" : "distance (bins of " + std::to_string(width) + ")") << "\n"
     << "set yrange [0:1.02]\nset xrange [0:" << distances << "]\n";
  if (t.max_len > 0 && static_cast<size_t>(t.max_len) < distances)
    gp << "set arrow from " << t.max_len - 1 << ", graph 0 to " << t.max_len - 1
       << ", graph 1 nohead dt 3 lc rgb 'gray40'\n"
       << "set label 'longest trained distance' at " << t.max_len - 1 << ", graph 0.04 left offset 0.5,0 font ',8'\n";
  const std::vector<std::string> variants_seen = variants_of(t);
  gp << "plot ";
  for (size_t i = 0; i < t.rows.size(); ++i)
    gp << (i ? ", \\\n     " : "") << quote(p.stem + ".dat") << " index " << i
       << " using 1:2 with linespoints lc rgb " << quote(encoding_colour(t.rows[i].encoding, i)) << " lw 1.5 dt "
       << variant_dash(variants_seen, t.rows[i].variant) << " pt 7 ps 0.5 title " << quote(t.rows[i].label());
  if (std::isfinite(t.chance)) gp << ", \\\n     " << num(t.chance) << " with lines dt 2 lc rgb 'black' title 'chance'";
  gp << "\n";
  write_text(p.gp(), gp.str());
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
  const int width = n == 1 ? 440 : std::min(1600, 40 + 300 * n), height = n == 1 ? 400 : 320;
  std::ostringstream gp;
  gp << script_head(p, title, width, height)
     << "set multiplot layout 1," << n << " title " << quote(title) << "\n"
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
  write_text(p.gp(), gp.str());
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
    r.gnuplot_found = gnuplot_available();
    if (!r.gnuplot_found) return r;
    for (const PlotFiles& p : plots) {
      std::error_code ec;
      fs::remove(p.png(), ec);  // a stale image must not pass for a new one
      const std::string problem = run_gnuplot(p.dir, p.stem + ".gp");
      if (problem.empty() && fs::exists(p.png(), ec)) ++r.rendered;
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
