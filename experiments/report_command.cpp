// experiments/report_command.cpp: `ordo report DIR`, a study's figures, summary.md and
// report.html redrawn from DIR/results.h5 alone (report/study_report.h): a study run on a
// cluster is re-reported on a laptop, and an old study with today's figures.
#include <cstdio>
#include <filesystem>

#include "experiments/cli.h"
#include "experiments/commands.h"
#include "experiments/results_dir.h"
#include "io/results.h"
#include "report/findings.h"
#include "report/study_report.h"

namespace ordo {
namespace fs = std::filesystem;

namespace {

const std::vector<cli::Option>& report_options() {
  static const std::vector<cli::Option> opts = {
      {"quiet", "print nothing but errors", "", true},
  };
  return opts;
}

int cmd_report(const Args& args) {
  cli::Parsed p;
  std::string dir, results;
  DirectoryResults in;
  try {
    p = cli::parse(args, report_options(), false, 1, "ordo report");
    if (p.help) {
      std::printf("%s", cli::help_text("ordo report DIR",
                                       "Redraws a study's figures (DIR/plots), summary.md and report.html from "
                                       "DIR/results.h5 alone, e.g. a study that `ordo compare --out DIR` ran on a "
                                       "cluster, or one an older ordo reported.",
                                       report_options(), false).c_str());
      return 0;
    }
    ORDO_CHECK(!p.positional.empty(), "name the study's directory: ordo report DIR (the --out of ordo compare, "
                                      "holding results.h5)");
    dir = p.positional[0];
    results = dir + "/results.h5";
    std::error_code ec;
    ORDO_CHECK(fs::is_directory(dir, ec), "ordo report: ", dir, " is not a directory (give the --out of ordo compare)");
    ORDO_CHECK(fs::is_regular_file(results, ec), "ordo report: ", results, " not found: DIR must hold the results.h5 "
                                                 "that ordo compare wrote");
    in = read_directory_results("ordo report", dir, true);
  } catch (const Error& e) {
    throw InputError(e.what());
  }
  const std::vector<RunRecord>& runs = in.runs;
  const StudyReport r = write_study_report(dir, runs, in.attributes);
  for (const std::string& w : r.warnings) std::fprintf(stderr, "ordo report: warning: %s\n", w.c_str());
  if (p.option("quiet") != "true") {
    std::printf("ordo report: %zu run(s) from %s\n  %s (open it in a browser)\n  %s\n  %s/ (%d figure(s) as PNG and "
                "SVG)\nfindings (%s; the words: summary.md):\n",
                runs.size(), results.c_str(), r.report_path.c_str(), r.summary_path.c_str(), r.plot_dir.c_str(),
                r.plots_rendered, r.findings_legend.substr(0, r.findings_legend.find(". ")).c_str());
    for (const Finding& f : r.findings) std::printf("  - %s\n", f.line().c_str());
  }
  return 0;
}

}  // namespace

CommandInfo command_info_report() {
  return {"report", "redraw a study's figures, summary.md and report.html from its results.h5", cmd_report};
}

}  // namespace ordo
