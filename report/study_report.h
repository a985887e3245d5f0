// report/study_report.h: everything a study writes from its runs' logs: the figures
// (plots/), summary.md and report.html. `ordo compare` and `ordo demo` call it when their
// grid is done; `ordo report DIR` calls it on DIR/results.h5 alone, so a study run on a
// cluster is re-reported anywhere, with the same bytes but the wall time of the session.
//
//   StudyReport r = write_study_report("runs/cmp", read_results("runs/cmp/results.h5"),
//                                      read_results_attributes("runs/cmp/results.h5"));
//   // r.findings, r.summary_path, r.report_path, r.plots_rendered, r.warnings
#pragma once

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "io/results.h"
#include "report/findings.h"
#include "report/summary.h"

namespace ordo {

struct StudyReport {
  std::vector<Finding> findings;     // as in summary.md and report.html
  std::string findings_legend;       // what their words mean (summary.h's findings_legend)
  std::string summary_path, report_path, plot_dir;
  int plots_rendered = 0;            // figures gnuplot drew (PNG and SVG; 0 without gnuplot)
  std::vector<std::string> warnings; // plotting problems: the data and scripts are still written
};

// The study's description at the top of summary.md: the grid (tasks x encodings x variants
// x seeds, steps), the wall times, and the settings that differ from SPEC defaults, read
// from the results file's shared settings (`attributes`) and the runs. `session_seconds`:
// the grid's wall time in the session that finished it (NaN: not said).
std::string study_preamble(const std::vector<RunRecord>& runs, const std::map<std::string, std::string>& attributes,
                           double session_seconds = NAN);

// Writes out/plots/*, out/summary.md and out/report.html from `runs` (throws ordo::Error on
// an I/O failure of summary.md or report.html; figures only warn).
StudyReport write_study_report(const std::string& out, const std::vector<RunRecord>& runs,
                               const std::map<std::string, std::string>& attributes, double session_seconds = NAN);

}  // namespace ordo
