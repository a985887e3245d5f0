// report/html_report.h: report.html, a study's interactive report in one file.
//
// One self-contained page that works offline from file:// (no network request): the
// overview heatmap, each task's ranked table and findings, and its curves, drawn by Chart.js
// (Debian's libjs-chart.js 3.9, embedded in the page at build time): hover shows values,
// clicking a series in a legend hides or shows it in every chart, and choosers pick the task
// and the varied setting. The page is report/report_template.html with two placeholders
// replaced: Chart.js's source and the study's data as JSON (report_json below).
//
//   std::string json = report_json(input);          // the data, for tests and other tools
//   write_html_report("runs/cmp/report.html", input);
#pragma once

#include <map>
#include <string>
#include <vector>

#include "io/results.h"
#include "report/rate_selection.h"
#include "report/series_style.h"
#include "report/summary.h"

namespace ordo {

// What the page shows, all computed elsewhere (summary.h, series_style.h).
struct ReportInput {
  std::string title;                                   // "ordo study: runs/cmp"
  const std::vector<RunRecord>* runs = nullptr;
  const std::vector<TaskSummary>* tasks = nullptr;
  const std::vector<Finding>* findings = nullptr;
  const std::vector<SeriesStyle>* styles = nullptr;
  std::map<std::string, std::string> settings;         // the study's shared settings
  std::string preamble;                                // the study's description: paragraphs, `code` spans
  const RateSelection* rates = nullptr;                // the learning rates chosen (a sweep), or none
};

// The data the page reads (format "ordo-report", version 1), as JSON text in which '<' is
// written \u003c, so that it cannot end the <script> element it sits in.
std::string report_json(const ReportInput& input);

// The page: the template with Chart.js and report_json(input) in place. Written atomically.
void write_html_report(const std::string& path, const ReportInput& input);

// The page as text (what write_html_report writes).
std::string render_html_report(const ReportInput& input);

}  // namespace ordo
