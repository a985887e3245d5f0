// tests/report/test_html_report.cpp: the study report: one style per series, report.html's
// data and page, the files write_study_report writes, and a results file ordo cannot read.
// (The page in a real browser: tests/shell/test_report_browser.sh.)
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "io/hdf5.h"
#include "report/findings.h"
#include "report/html_report.h"
#include "io/results.h"
#include "report/series_style.h"
#include "report/study_report.h"
#include "tests/temp_dir.h"

using namespace ordo;
using ordo::testing::TempDir;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

// A run of `task` whose training accuracy climbs to `final_acc` over `steps` steps, with 0.5
// at 64 and 128 (order's layout: training lengths 8-32).
RunRecord run(const std::string& task, const std::string& enc, uint64_t seed, double final_acc,
              const std::string& variant = "", int64_t steps = 300) {
  RunRecord r;
  r.task = task;
  r.encoding = enc;
  r.variant = variant;
  r.seed = seed;
  r.settings = {{"min-len", "8"}, {"max-len", "32"}, {"steps", std::to_string(steps)}};
  for (int64_t s = 1; s <= steps; ++s) {
    r.log.step.push_back(s);
    r.log.train_loss.push_back(1.0 / s);
    r.log.lr.push_back(1e-3);
    r.log.wall_time.push_back(0.01 * s);
  }
  for (int64_t i = 0; i <= 3; ++i)
    r.log.eval[0].push_back(EvalPoint{steps * i / 3, 0.5 + (final_acc - 0.5) * i / 3.0});
  r.log.eval[64].push_back(EvalPoint{steps, 0.5});
  r.log.eval[128].push_back(EvalPoint{steps, 0.5});
  r.log.total_wall_seconds = 3;
  return r;
}

// A text label of an SVG that gnuplot wrote, as a box in pixels. Its width is estimated from
// DejaVu Sans (gnuplot's "sans" here): 0.64 em per character, the width of its digits.
struct TextBox {
  double left, right, top, bottom;
  std::string text;
};

std::vector<TextBox> svg_labels(const std::string& svg) {
  // <g transform="translate(x,y)" ... font-size="F"  text-anchor="A">  <text>S</text>
  static const std::regex label(
      R"re(<g transform="translate\(([-0-9.]+),([-0-9.]+)\)( rotate\([^)]*\))?"[^>]*font-size="([0-9.]+)"\s*text-anchor="(\w+)">\s*<text>([^<]*)</text>)re");
  std::vector<TextBox> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), label); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    std::string text = m[6].str();
    text.erase(0, text.find_first_not_of(' '));
    if (m[3].matched || text.empty()) continue;  // rotated (axis titles) or a blank tick
    const double x = std::stod(m[1].str()), y = std::stod(m[2].str()), em = std::stod(m[4].str());
    const double w = 0.64 * em * static_cast<double>(text.size());
    const double left = m[5].str() == "start" ? x : m[5].str() == "end" ? x - w : x - w / 2;
    out.push_back(TextBox{left, left + w, y - 0.75 * em, y + 0.2 * em, text});
  }
  return out;
}

std::string read(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("series styles: twenty-one series all look different, and a shared colour never shares a marker",
          "[report]") {
  std::set<std::pair<std::string, Dash>> colour_dash;
  for (size_t i = 0; i < 21; ++i) {
    const SeriesStyle s = series_style(i, "s" + std::to_string(i));
    CHECK(colour_dash.insert({s.colour, s.dash}).second);
    for (size_t j = 0; j < i; ++j) {
      const SeriesStyle t = series_style(j, "t");
      if (t.colour == s.colour) CHECK(t.marker != s.marker);
    }
  }
  // The palette is Okabe and Ito's, without the yellow.
  CHECK(series_palette().size() == 7);
  CHECK(std::find(series_palette().begin(), series_palette().end(), "#F0E442") == series_palette().end());
  // A study's styles follow its rows' first appearance, one per label.
  const auto tasks = summarize({run("order", "rope", 0, 1), run("order", "alibi", 0, 1), run("shift", "rope", 0, 1),
                                run("shift", "none", 0, 1), run("shift", "rope", 0, 1, "causal=true")});
  const auto styles = series_styles(tasks);
  REQUIRE(styles.size() == 4);
  CHECK(styles[0].label == "rope");
  CHECK(styles[3].label == "rope (causal=true)");
  CHECK(style_of(styles, "none").colour == series_palette()[2]);
  CHECK_THROWS_WITH(style_of(styles, "nope"), Contains("no style for series 'nope'"));
}

TEST_CASE("report.html: one page with Chart.js and the study's data in place, nothing that can end its script",
          "[report]") {
  std::vector<RunRecord> runs = {run("order", "rope", 0, 1), run("order", "rope", 1, 0.98), run("order", "a</script>b", 0, 0.6)};
  const auto tasks = summarize(runs);
  const auto notes = findings(tasks);
  const auto styles = series_styles(tasks);
  ReportInput in;
  in.title = "ordo study: test";
  in.runs = &runs;
  in.tasks = &tasks;
  in.findings = &notes;
  in.styles = &styles;
  in.settings = {{"steps", "300"}};
  const std::string json = report_json(in);
  CHECK(json.find("{\"format\":\"ordo-report\",\"version\":1,") == 0);
  CHECK(json.find("</") == std::string::npos);  // '<' is \u003c
  CHECK(json.find("a\\u003c/script\\u003eb") != std::string::npos);
  CHECK(json.find("\"label\":\"rope\"") != std::string::npos);
  CHECK(json.find("\"color\":\"" + style_of(styles, "rope").colour + "\"") != std::string::npos);
  CHECK(json.find("\"findings\":[\"Solved by some seeds only: rope (1 of 2).\"") != std::string::npos);
  CHECK(json.find("\"distance\":null") != std::string::npos);  // these runs record no distances
  CHECK(json.find("\"seeds\":2,\"fewest_seeds\":1,") != std::string::npos);  // rope's 2 runs, the other's 1

  const std::string page = render_html_report(in);
  CHECK(page.find("/*ORDO_DATA*/") == std::string::npos);
  CHECK(page.find("/*ORDO_CHARTJS*/") == std::string::npos);
  CHECK(page.find("Chart.js v3.9.1") != std::string::npos);
  CHECK(page.find(json) != std::string::npos);
  CHECK(page.find("<!DOCTYPE html>") == 0);
}

TEST_CASE("write_study_report: summary.md, report.html and the figures from the runs alone", "[report]") {
  TempDir dir;
  std::vector<RunRecord> runs;
  for (uint64_t seed : {0, 1})
    for (const char* enc : {"none", "rope", "alibi"}) runs.push_back(run("order", enc, seed, enc[0] == 'n' ? 0.5 : 1));
  // Where the steps were taken: one run resumed on a second machine, one from before ordo kept it.
  for (RunRecord& r : runs) r.log.machines = {"from step 0: cpu A; built for avx2; oneDNN 2.6.3 on avx2"};
  runs[1].log.machines.push_back("from step 150: cpu B; built for avx2; oneDNN 2.6.3 on avx2");
  runs[2].log.machines.clear();
  write_results(dir.path + "/results.h5", runs, {{"tasks", "order"}, {"steps", "300"}, {"seeds", "2"}});
  const StudyReport r = write_study_report(dir.path, read_results(dir.path + "/results.h5"),
                                           read_results_attributes(dir.path + "/results.h5"));
  CHECK(fs::exists(r.summary_path));
  CHECK(fs::exists(r.report_path));
  CHECK(fs::exists(r.plot_dir + "/overview.dat"));
  CHECK(fs::exists(r.plot_dir + "/order_curves.gp"));
  const std::string md = read(r.summary_path);
  CHECK(md.find("Grid: 1 task(s) x 3 encoding(s) x 2 seed(s) (seeds 0..1), 300 steps each; the runs' own wall "
                "times add up to 18s.") != std::string::npos);
  CHECK(md.find("on one CPU type): `cpu A; built for avx2; oneDNN 2.6.3 on avx2` 5 runs; `cpu B; built for avx2; "
                "oneDNN 2.6.3 on avx2` 1 run; not recorded 1 run.\n") != std::string::npos);
  for (const Finding& f : r.findings) CHECK(md.find("- " + f.text) != std::string::npos);
  if (r.warnings.empty()) {  // gnuplot drew them
    CHECK(fs::exists(r.plot_dir + "/overview.png"));
    CHECK(fs::exists(r.plot_dir + "/overview.svg"));
    CHECK(md.find("![overview") == md.find("\n\n") + 2);  // right after the title
  }
}

// Small multiples side by side put one panel's last x tick beside the next one's first; with
// too narrow a gap "2000" and "0" read as "20000" (issue 29). Every label of every figure of a
// 14-encoding study must keep half an em clear of every other on its line.
TEST_CASE("figures of 14 encodings: no two text labels run into each other", "[report]") {
  TempDir dir;
  const std::vector<std::string> encodings = {"none", "sinusoidal", "learned", "rope", "alibi", "t5", "rbf",
                                              "cyclic", "fourier2d", "kerple_log", "kerple_power", "fire",
                                              "xpos", "cope"};
  std::vector<RunRecord> runs;
  for (size_t e = 0; e < encodings.size(); ++e)
    runs.push_back(run("order", encodings[e], 0, 0.5 + 0.5 * static_cast<double>(e) / 13, "", 2000));
  write_results(dir.path + "/results.h5", runs, {{"tasks", "order"}});
  const StudyReport r = write_study_report(dir.path, read_results(dir.path + "/results.h5"),
                                           read_results_attributes(dir.path + "/results.h5"));
  if (!r.warnings.empty()) {
    WARN("gnuplot drew no figures: " << r.warnings.front());
    return;
  }
  int figures = 0;
  for (const auto& entry : fs::directory_iterator(r.plot_dir)) {
    if (entry.path().extension() != ".svg") continue;
    ++figures;
    const std::vector<TextBox> boxes = svg_labels(read(entry.path().string()));
    INFO(entry.path().filename().string() << ": " << boxes.size() << " labels");
    CHECK(boxes.size() >= 20);  // the parser found the ticks
    for (size_t i = 0; i < boxes.size(); ++i)
      for (size_t j = i + 1; j < boxes.size(); ++j) {
        const TextBox &a = boxes[i], &b = boxes[j];
        const double clear = 0.5 * 11;  // half an em of the 11 px tick font
        const bool same_line = a.top < b.bottom && b.top < a.bottom;
        const bool touching = a.left < b.right + clear && b.left < a.right + clear;
        if (same_line && touching) FAIL_CHECK("'" << a.text << "' at x " << a.left << " runs into '" << b.text << "' at x " << b.left);
      }
  }
  CHECK(figures >= 4);
}

namespace {
// The x tics of the lengths figure of `runs` (task order), reported into dir: "train..." on.
std::string lengths_tics(const TempDir& dir, const std::vector<RunRecord>& runs) {
  write_results(dir.path + "/results.h5", runs, {{"tasks", "order"}});
  const StudyReport r = write_study_report(dir.path, read_results(dir.path + "/results.h5"),
                                           read_results_attributes(dir.path + "/results.h5"));
  const std::string gp = read(r.plot_dir + "/order_lengths.gp");
  std::smatch m;
  REQUIRE(std::regex_search(gp, m, std::regex("set xtics \\((\"train[^\n]*)\\)\n")));
  return m[1];
}
}  // namespace

// A sweep of many lengths is thinned to ticks 80 px apart from the left; the longest length,
// where the extrapolation ends, keeps its label (it fell to the thinning before: 51-150 showed
// 127 last).
TEST_CASE("the lengths figure of a sweep labels its longest length", "[report]") {
  TempDir dir;
  std::vector<RunRecord> runs{run("order", "rope", 0, 1.0)};
  for (int64_t len = 33; len <= 150; ++len) runs[0].log.eval[len] = {EvalPoint{300, 0.5}};
  const std::string tics = lengths_tics(dir, runs);
  INFO(tics);
  CHECK(tics.find("\"33\" 33") != std::string::npos);
  CHECK(tics.rfind("\"150\" 150") == tics.size() - 9);
  std::vector<double> ticks;  // the ticks' lengths, 80 px apart on a 1000 px log axis
  const std::regex tick("\" ([0-9.]+)(,|$)");
  for (std::sregex_iterator it(tics.begin(), tics.end(), tick), end; it != end; ++it)
    ticks.push_back(std::stod((*it)[1]));
  REQUIRE(ticks.size() >= 5);
  const double lo = ticks.front() / 1.25, hi = 150 * 1.25;
  for (size_t i = 1; i < ticks.size(); ++i)
    CHECK(1000 * std::log2(ticks[i] / ticks[i - 1]) / std::log2(hi / lo) >= 80);
}

// On an axis too narrow for two labels (the training-range set at 100, one length at 101,
// some 22 px apart), the longest length's label is not drawn over the first.
TEST_CASE("the lengths figure of a narrow axis draws one label, not two on top of each other", "[report]") {
  TempDir dir;
  std::vector<RunRecord> runs{run("order", "rope", 0, 1.0)};
  runs[0].settings["min-len"] = runs[0].settings["max-len"] = "100";
  runs[0].log.eval.erase(64), runs[0].log.eval.erase(128);
  runs[0].log.eval[101] = {EvalPoint{300, 0.5}};
  const std::string tics = lengths_tics(dir, runs);
  INFO(tics);
  CHECK(tics.find("101") == std::string::npos);
  CHECK(tics.find(", ") == std::string::npos);  // one tick
}

TEST_CASE("results: a run group whose seed does not fit 64 bits is refused, naming it", "[report]") {
  TempDir dir;
  const std::string path = dir.path + "/results.h5";
  write_results(path, {run("order", "rope", 0, 1)}, {});
  {
    h5::File f = h5::File::open(path, h5::Access::read_write);
    f.require_group("runs/order/rope/seed99999999999999999999");
    f.close();
  }
  CHECK_THROWS_WITH(read_results(path), Contains("/runs/order/rope/seed99999999999999999999") &&
                                            Contains("the seed is not a number below 2^64"));
}

TEST_CASE("results: a file of another format_version is refused, naming the version and its writer", "[report]") {
  TempDir dir;
  const std::string path = dir.path + "/results.h5";
  write_results(path, {run("order", "rope", 0, 1)}, {});
  {
    h5::File f = h5::File::open(path, h5::Access::read_write);
    f.set_attr("format_version", int64_t{7});
    f.set_attr("ordo_version", "9.9.9");
    f.close();
  }
  CHECK_THROWS_WITH(read_results(path), Contains("results format_version 7 is not supported") &&
                                            Contains("reads format_version 1 and 2") && Contains("ordo 9.9.9"));
}
