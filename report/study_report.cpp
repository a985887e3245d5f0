// report/study_report.cpp: see study_report.h.
#include "report/study_report.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "core/error.h"
#include "core/options.h"
#include "io/atomic_file.h"
#include "report/html_report.h"
#include "report/plots.h"
#include "report/rate_selection.h"
#include "report/series_style.h"
#include "train/settings.h"

namespace ordo {
namespace fs = std::filesystem;

namespace {

std::string attribute(const std::map<std::string, std::string>& a, const std::string& key, const std::string& fallback) {
  auto it = a.find(key);
  return it == a.end() ? fallback : it->second;
}

}  // namespace

namespace {

// "Machines (...): `A` 5 runs; `B` 2 runs; not recorded 1 run.\n\n": where the runs' steps
// were taken (RunLog::machines; a run resumed on another machine counts under both), or ""
// when no run records one (files from before ordo kept them).
std::string machines_line(const std::vector<RunRecord>& runs) {
  std::vector<std::pair<std::string, int>> counts;  // in order of first appearance
  int unrecorded = 0;
  for (const RunRecord& r : runs) {
    if (r.log.machines.empty()) ++unrecorded;
    std::set<std::string> seen;
    for (const std::string& entry : r.log.machines) {
      const std::string machine = machine_of(entry);
      if (!seen.insert(machine).second) continue;
      auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == machine; });
      if (it == counts.end()) counts.emplace_back(machine, 1);
      else ++it->second;
    }
  }
  if (counts.empty()) return "";
  auto runs_text = [](int n) { return std::to_string(n) + (n == 1 ? " run" : " runs"); };
  std::ostringstream os;
  os << "Machines (where the runs' steps were taken; the same seed gives the same bits only on one CPU type): ";
  for (size_t i = 0; i < counts.size(); ++i) os << (i ? "; `" : "`") << counts[i].first << "` " << runs_text(counts[i].second);
  if (unrecorded > 0) os << "; not recorded " << runs_text(unrecorded);
  os << ".\n\n";
  return os.str();
}

}  // namespace

std::string study_preamble(const std::vector<RunRecord>& runs, const std::map<std::string, std::string>& attributes,
                           double session_seconds) {
  std::vector<std::string> tasks, encodings, variants;
  std::set<uint64_t> seeds;
  std::map<std::string, std::string> steps;  // task -> steps of its runs
  double run_seconds = 0;
  auto add = [](std::vector<std::string>& v, const std::string& x) {
    if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
  };
  for (const RunRecord& r : runs) {
    add(tasks, r.task);
    add(encodings, r.encoding);
    add(variants, r.variant);
    seeds.insert(r.seed);
    auto s = r.settings.find("steps");
    if (s != r.settings.end()) steps[r.task] = s->second;
    run_seconds += r.log.total_wall_seconds;
  }
  std::ostringstream os;
  os << "Grid: " << tasks.size() << " task(s) x " << encodings.size() << " encoding(s) x ";
  const std::string vary = attribute(attributes, "vary", "");
  if (!vary.empty()) {
    std::string flags;
    std::stringstream ss(vary);
    std::string item;
    while (std::getline(ss, item, ';')) flags += " --vary " + item;
    os << variants.size() << " variant(s) (" << flags.substr(1) << ") x ";
  }
  const std::string kept = attribute(attributes, "kept-seeds", "");
  if (!kept.empty()) {  // --kept-seeds: each cell tried seeds until that many of its runs learned
    std::map<std::string, int64_t> per_cell;
    for (const RunRecord& r : runs) ++per_cell[r.task + "/" + r.encoding + "/" + r.variant];
    int64_t fewest = INT64_MAX, most = 0;
    for (const auto& [cell, n] : per_cell) fewest = std::min(fewest, n), most = std::max(most, n);
    os << (fewest == most ? std::to_string(most) : std::to_string(fewest) + " to " + std::to_string(most))
       << " seed(s) per cell, tried until " << kept << " runs of a cell learned (--kept-seeds " << kept
       << ", at most " << attribute(attributes, "max-seeds", "?") << ")";
  } else {
    os << seeds.size() << " seed(s)";
  }
  if (!seeds.empty()) os << " (seeds " << *seeds.begin() << ".." << *seeds.rbegin() << ")";
  const std::string lr_seeds = attribute(attributes, "lr-seeds", "");
  if (!lr_seeds.empty())  // --lr-seeds N: every rate trained the first N seeds, the chosen one all of them
    os << ", every learning rate on the first " << lr_seeds << " and each cell's chosen rate on all (--lr-seeds "
       << lr_seeds << ")";
  std::set<std::string> distinct_steps;
  for (const auto& [task, n] : steps) distinct_steps.insert(n);
  // --until-learned: --steps is the most a run takes.
  const bool until_learned = attribute(attributes, "until-learned", "false") == "true";
  const std::string at_most = until_learned ? "at most " : "";
  if (distinct_steps.size() == 1) {
    os << ", " << at_most << *distinct_steps.begin() << " steps each";
  } else if (!distinct_steps.empty()) {
    os << ", " << at_most;
    for (size_t i = 0; i < tasks.size(); ++i) os << (i ? ", " : "") << tasks[i] << " " << steps[tasks[i]];
    os << " steps per run";
  }
  if (until_learned) os << " (trained until learned: see \"stopped\")";
  os << "; ";
  if (std::isfinite(session_seconds)) os << "grid wall time " << format_duration(session_seconds) << " in this session; ";
  os << "the runs' own wall times add up to " << format_duration(run_seconds) << ".\n\n";
  os << machines_line(runs);
  // The shared settings that differ from the defaults (the swept ones are each run's own).
  const std::map<std::string, std::string> defaults = to_settings(TrainConfig{});
  std::string given;
  for (const auto& [name, value] : attributes) {
    auto d = defaults.find(name);
    if (d != defaults.end() && d->second != value && find_setting(name)) given += " --" + name + " " + compact_setting(value);
  }
  os << "Settings: " << (given.empty() ? std::string("SPEC defaults") : "SPEC defaults except" + given)
     << ". Every run's settings are in results.h5 as setting.<name> attributes: at the root where every run "
        "shares them, else on the run's group.\n";
  return os.str();
}

StudyReport write_study_report(const std::string& out, const std::vector<RunRecord>& all_runs,
                               const std::map<std::string, std::string>& attributes, double session_seconds) {
  // A study that sweeps the learning rate is read at one rate per cell, chosen on the training
  // lengths (report/rate_selection.h); every other study as it is.
  // --lr-seeds N: the rates were chosen on the first N seeds, which every rate trained; the
  // report scores the same ones, so it shows the choice the study made.
  uint64_t scored_below = UINT64_MAX;
  if (const std::string n = attribute(attributes, "lr-seeds", ""); !n.empty())
    scored_below = static_cast<uint64_t>(parse_int("seed", attribute(attributes, "first_seed", "0"))) +
                   static_cast<uint64_t>(parse_int("lr-seeds", n));
  const RateSelection selection = select_learning_rates(all_runs, 0.99, scored_below);
  const std::vector<RunRecord>& runs = selection.selected;
  StudyReport report;
  report.summary_path = out + "/summary.md";
  report.report_path = out + "/report.html";
  report.plot_dir = out + "/plots";
  const std::vector<TaskSummary> tasks = summarize(runs);
  report.findings = findings(tasks);
  report.findings_legend = findings_legend(tasks);
  const std::vector<SeriesStyle> styles = series_styles(tasks);
  int seeds = 0;
  for (const TaskSummary& t : tasks)
    for (const EncodingSummary& e : t.rows) seeds = std::max(seeds, e.seeds);

  // The figures: a by-product, so their failures are warnings.
  std::vector<PlotFiles> plots;
  std::map<std::string, std::vector<std::string>> images;
  try {
    if (!tasks.empty()) plots.push_back(write_overview_plot(report.plot_dir, overview(tasks), seeds));
    for (const TaskSummary& t : tasks) {
      for (const PlotFiles& p : write_learning_curve_plots(report.plot_dir, t, runs, styles)) plots.push_back(p);
      plots.push_back(write_length_plot(report.plot_dir, t, styles));
      if (auto distance = write_distance_plot(report.plot_dir, t, runs, styles)) plots.push_back(*distance);
    }
  } catch (const Error& e) {
    report.warnings.push_back(std::string("plots: ") + e.what());
  }
  const RenderReport rendered = render_plots(plots);
  report.plots_rendered = rendered.rendered;
  if (!rendered.message().empty()) report.warnings.push_back(rendered.message());
  std::string overview_image;
  std::error_code ec;
  if (fs::exists(report.plot_dir + "/overview.png", ec)) overview_image = "plots/overview.png";
  for (const TaskSummary& t : tasks)
    for (const char* kind : {"_curves", "_loss", "_lengths", "_distance"})
      if (fs::exists(report.plot_dir + "/" + t.task + kind + ".png", ec))
        images[t.task].push_back("plots/" + t.task + kind + ".png");

  const std::string preamble = study_preamble(all_runs, attributes, session_seconds);
  const std::string md = render_summary_markdown(tasks, report.findings, preamble, images, overview_image) +
                         render_rate_selection_markdown(selection);
  atomic_write(report.summary_path, [&](const std::string& tmp) { write_file(tmp, md); });

  ReportInput input;
  input.title = "ordo study: " + fs::path(out).lexically_normal().filename().string();
  if (input.title == "ordo study: " || input.title == "ordo study: .") input.title = "ordo study: " + out;
  input.runs = &runs;
  input.tasks = &tasks;
  input.findings = &report.findings;
  input.styles = &styles;
  input.settings = attributes;
  input.preamble = preamble;
  input.rates = &selection;
  write_html_report(report.report_path, input);
  return report;
}

}  // namespace ordo
