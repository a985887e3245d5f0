// tests/report/test_overview_plot.cpp: the overview figure stays legible at many tasks
// (docs/spec.md §7.4): its columns are cut into bands of whole tasks, each task's name is
// drawn once above its columns, and the columns carry only their lengths.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

#include "report/plots.h"
#include "report/summary.h"
#include "tests/temp_dir.h"

using namespace ordo;
using ordo::testing::TempDir;

namespace {

// An overview of `tasks` tasks named task_00_with_a_long_name .. with `lengths` columns
// each, two rows.
Overview synthetic_overview(int tasks, int lengths) {
  Overview ov;
  for (int t = 0; t < tasks; ++t)
    for (int l = 0; l < lengths; ++l) {
      OverviewColumn c;
      c.task = "task_" + std::to_string(t / 10) + std::to_string(t % 10) + "_with_a_long_name";
      c.length = l == 0 ? 0 : 40 * (l + 1);
      c.label = c.task + " · " + (l == 0 ? std::string("train (1-40)") : std::to_string(c.length));
      c.chance = 0.5;
      c.bar = 0.99;
      ov.columns.push_back(c);
    }
  for (const char* name : {"rope", "none"}) {
    OverviewRow r;
    r.label = r.encoding = name;
    for (size_t j = 0; j < ov.columns.size(); ++j) {
      OverviewCell cell;
      cell.acc.n = 1;
      cell.acc.mean = 0.5 + 0.01 * static_cast<double>(j % 40);
      cell.score = 2 * (cell.acc.mean - 0.5);
      r.cells.push_back(cell);
    }
    ov.rows.push_back(r);
  }
  return ov;
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("overview plot: fifteen tasks at three lengths are three bands of five whole tasks", "[report][plots]") {
  TempDir dir;
  const Overview ov = synthetic_overview(15, 3);
  write_overview_plot(dir.path, ov, 1);
  const std::string gp = read(dir.path + "/overview.gp"), dat = read(dir.path + "/overview.dat");
  CHECK(count(gp, "# band ") == 3);
  CHECK(count(dat, "# band ") == 3);
  CHECK(count(gp, " index 0 ") == 1);
  CHECK(count(gp, " index 2 ") == 1);
  // Each band names its first and last task: 0-4, 5-9, 10-14, no task cut in two.
  CHECK(gp.find("# band 1: task_00_with_a_long_name .. task_04_with_a_long_name") != std::string::npos);
  CHECK(gp.find("# band 2: task_05_with_a_long_name .. task_09_with_a_long_name") != std::string::npos);
  CHECK(gp.find("# band 3: task_10_with_a_long_name .. task_14_with_a_long_name") != std::string::npos);
  for (const OverviewColumn& c : ov.columns) {
    INFO(c.task);
    CHECK(count(gp, "\"" + c.task + "\" at first") == 1);  // the name once, above its columns
  }
  // The column ticks hold lengths only; every band has at most 15 of them.
  const std::regex x2tics("set x2tics \\(([^\\n]*)\\)");
  int bands = 0;
  for (auto it = std::sregex_iterator(gp.begin(), gp.end(), x2tics); it != std::sregex_iterator(); ++it, ++bands) {
    const std::string ticks = (*it)[1];
    CHECK(ticks.find("task_") == std::string::npos);
    CHECK(count(ticks, "\"") / 2 <= 15);
  }
  CHECK(bands == 3);
  // The canvas is as wide as one band (15 columns), not 45.
  std::smatch size;
  REQUIRE(std::regex_search(gp, size, std::regex("pngcairo size ([0-9]+),([0-9]+)")));
  CHECK(std::stoi(size[1]) < 2400);
  CHECK(std::stoi(size[2]) > std::stoi(size[1]) / 4);
}

TEST_CASE("overview plot: a task with more columns than a band has a band of its own", "[report][plots]") {
  TempDir dir;
  write_overview_plot(dir.path, synthetic_overview(3, 20), 2);
  const std::string gp = read(dir.path + "/overview.gp");
  CHECK(count(gp, "# band ") == 3);
  CHECK(gp.find("# band 2: task_01_with_a_long_name .. task_01_with_a_long_name") != std::string::npos);
}

TEST_CASE("overview plot: a few tasks are one band, the cells wide enough for a long name", "[report][plots]") {
  TempDir dir;
  Overview ov = synthetic_overview(2, 1);  // one column per task: the name sets the width
  write_overview_plot(dir.path, ov, 1);
  const std::string gp = read(dir.path + "/overview.gp");
  CHECK(count(gp, "# band ") == 1);
  std::smatch size;
  REQUIRE(std::regex_search(gp, size, std::regex("pngcairo size ([0-9]+),")));
  // Two cells of at least 26 characters of 8.5 px, plus the margins.
  CHECK(std::stoi(size[1]) >= 2 * 26 * 8.5);
}
