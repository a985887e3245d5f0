// experiments/compare_command.cpp: `ordo compare`, the task x encoding x seed grid.
//
// Flags to a StudySpec and StudyOptions, a progress line, the closing report: the grid
// itself (validation, scheduling, resume, files written into --out) is study/study.h.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "cluster/cluster.h"
#include "core/strings.h"
#include "experiments/cli.h"
#include "experiments/commands.h"
#include "experiments/progress.h"
#include "layers/posenc/encoding.h"
#include "report/findings.h"
#include "report/summary.h"
#include "study/interrupt.h"
#include "study/study.h"
#include "train/settings.h"

namespace ordo {

namespace {

const std::vector<cli::Option>& compare_options() {
  static const std::vector<cli::Option> opts = {
      {"tasks", "tasks to compare, comma-separated, or all, or a group of tasks: " + join(task_groups(), ", "), join(default_study_tasks(), ","), false},
      {"encodings", "encodings to compare, comma-separated, or all (every registered encoding that can run on the "
                    "tasks; fourier2d on its default --grid-w); E1+E2+... is one encoding per layer, a series of its "
                    "own (rope+none: RNoPE)",
       join(default_study_encodings(), ","), false},
      {"seeds", "seeds per task and encoding: --seed, --seed + 1, ...", "3", false},
      {"kept-seeds", "N > 0: after --seeds, train further seeds of a cell until N of its runs learned their training "
                     "lengths (Huang et al.'s protocol; with --until-learned: stopped 'learned'), at most --max-seeds; "
                     "0 = off", "0", false},
      {"max-seeds", "with --kept-seeds: the most seeds a cell tries (0 = 4 x --kept-seeds)", "0", false},
      {"lr-seeds", "N > 0, with --lrs: every rate trains the first N seeds only; each cell's rate is chosen on those "
                   "(docs/spec.md §7.6) and only the chosen rate trains the rest of --seeds; 0 = every rate every "
                   "seed", "0", false},
      {"task-steps", "training steps per task, e.g. order=1200,shift=400 (tasks not named train --steps)", "", false},
      {"vary", "KEY=V1,V2,...: also sweep a setting (repeatable; the Cartesian product with tasks x encodings x seeds), "
               "e.g. --vary causal=false,true --vary layers=1,2",
       "", false},
      {"lrs", "learning rates to sweep, R1,R2,...: every (task, encoding) is trained at each and reported at the "
              "one chosen on the training lengths alone (docs/spec.md §7.6); the same as --vary lr=R1,R2,...",
       "", false},
      {"out", "output directory", "runs/compare", false},
      {"resume", "continue the grid in --out: skip finished runs (their checkpoints, or where those are gone their records in results.h5), continue partial ones", "", true},
      {"force", "replace the results of a grid already in --out", "", true},
      {"ckpt-every", "also checkpoint each run every N steps (0 = off)", "0", false},
      {"ckpt-minutes", "and after every N minutes of its training, so a hard kill loses at most that (0 = off)", "5",
       false},
      {"jobs", "runs trained at once, sharing the OpenMP threads (0 = one per thread); results do not depend on it",
       "0", false},
      {"quiet", "print nothing but errors", "", true},
  };
  return opts;
}

}  // namespace

// --vary may be given several times: its values are taken out of the arguments here (the
// parser refuses a flag given twice).
std::vector<std::string> take_vary(Args& args) {
  std::vector<std::string> vary;
  Args rest;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--vary") {
      ORDO_CHECK(i + 1 < args.size(), "--vary needs a value: KEY=V1,V2,... (e.g. --vary causal=false,true)");
      vary.push_back(args[++i]);
    } else if (args[i].rfind("--vary=", 0) == 0) {
      vary.push_back(args[i].substr(7));
    } else {
      rest.push_back(args[i]);
    }
  }
  args = rest;
  return vary;
}

namespace {

// --lrs R1,R2,...: a sweep of the learning rate, each rate a positive number, at least two.
Variation parse_rates(const std::string& text, bool lr_given, const std::vector<Variation>& vary) {
  const char* accepted = "accepted: two or more positive rates separated by commas, e.g. --lrs 3e-4,1e-3";
  ORDO_CHECK(!lr_given, "--lrs sweeps the learning rate, so --lr has no meaning beside it; drop --lr");
  for (const Variation& v : vary)
    ORDO_CHECK(v.key != "lr", "--lrs and --vary lr=... both sweep the learning rate; give one of them");
  const std::vector<std::string> rates = split_list(text);
  std::vector<double> values;
  for (const std::string& rate : rates) {
    double value = 0;
    try {
      value = parse_double("lrs", rate);
    } catch (const Error&) {
      fail("--lrs: '", rate, "' is not a number; ", accepted);
    }
    ORDO_CHECK(value > 0, "--lrs: ", rate, " is not positive; ", accepted);
    ORDO_CHECK(std::find(values.begin(), values.end(), value) == values.end(), "--lrs: '", rate,
               "' is a rate listed already (the same number); ", accepted);
    values.push_back(value);
  }
  ORDO_CHECK(rates.size() >= 2, "--lrs: ", rates.size(), " rate given (one rate is a plain --lr); ", accepted);
  return parse_vary({"lr=" + text}).front();
}

}  // namespace

int cmd_compare(const Args& given_args) {
  cli::Parsed p;
  StudySpec spec;
  StudyOptions how;
  bool quiet = false;
  std::unique_ptr<Study> study;
  try {
    Args args = given_args;
    spec.vary = parse_vary(take_vary(args));
    p = cli::parse(args, compare_options(), true);
    if (p.help) {
      std::printf("%s", cli::help_text("ordo compare [flags]",
                                       "Trains every task x encoding x seed of the grid, then writes results.h5, "
                                       "the overview, learning-curve and length-generalization figures, summary.md "
                                       "and report.html (interactive, offline) into --out. "
                                       "Every training setting applies to every run.",
                                       compare_options(), true).c_str());
      return 0;
    }
    ORDO_CHECK(!p.has("task") && !p.has("encoding"),
               "compare takes --tasks and --encodings (comma-separated lists), not --task / --encoding");
    spec.base = p.config;
    spec.tasks = split_list(p.option("tasks"));
    spec.encodings = split_list(p.option("encodings"));
    spec.seeds = parse_int("seeds", p.option("seeds"));
    spec.kept_seeds = parse_int("kept-seeds", p.option("kept-seeds"));
    spec.max_seeds = parse_int("max-seeds", p.option("max-seeds"));
    spec.lr_seeds = parse_int("lr-seeds", p.option("lr-seeds"));
    spec.task_steps = parse_task_steps(p.option("task-steps"), spec.tasks);
    if (p.has("lrs")) spec.vary.push_back(parse_rates(p.option("lrs"), p.has("lr"), spec.vary));
    for (const auto& [name, value] : p.given)  // --max-steps is --steps (train/settings.cpp)
      if (find_setting(name)) spec.given[name == "max-steps" ? "steps" : name] = value;
    const bool resume = p.option("resume") == "true", force = p.option("force") == "true";
    ORDO_CHECK(!(resume && force), "--resume and --force exclude each other: continue the grid in ",
               p.option("out"), " or replace it");
    how.out = p.option("out");
    how.existing = resume ? ExistingOutput::Resume : force ? ExistingOutput::Replace : ExistingOutput::Refuse;
    how.ckpt_every = parse_int("ckpt-every", p.option("ckpt-every"));
    how.ckpt_minutes = parse_double("ckpt-minutes", p.option("ckpt-minutes"));
    how.jobs = parse_int("jobs", p.option("jobs"));
    quiet = p.option("quiet") == "true" || cluster().rank() != 0;  // rank 0 speaks for an MPI job
    study = std::make_unique<Study>(spec, how);  // every run checked; nothing written yet
  } catch (const Error& e) {
    throw InputError(e.what());
  }

  install_interrupt_handlers();  // Ctrl-C / SIGTERM: every running run checkpoints, exit 130 / 143
  Progress live(quiet, static_cast<int>(std::max<int64_t>(1, study->steps_to_train() / 40)));
  live.message("ordo compare: " + std::to_string(study->spec().tasks.size()) + " task(s) x " +
               std::to_string(study->spec().encodings.size()) + " encoding(s) x " +
               (spec.vary.empty() ? std::string() : std::to_string(variants(spec.vary).size()) + " variant(s) x ") +
               (spec.lr_seeds > 0 ? std::to_string(spec.lr_seeds) + " seed(s) (then " + std::to_string(spec.seeds) +
                                        " at each cell's chosen rate, --lr-seeds)"
                                  : std::to_string(spec.seeds) + " seed(s)") +
               " = " + std::to_string(study->runs().size()) + " runs of " +
               (spec.task_steps.empty() ? std::to_string(spec.base.steps) : "per-task") + " steps -> " + how.out +
               (cluster().distributed() ? ", over " + std::to_string(cluster().size()) + " MPI ranks" : ""));
  StudyProgress show;
  show.message = [&](const std::string& text) { live.message(text); };
  show.update = [&](int64_t done, int64_t total, const std::string& line, double seconds) {
    live.update(done, total, line, seconds);
  };
  StudyOutcome done;
  try {
    done = study->run(show);
  } catch (...) {
    live.finish("");
    throw;
  }
  live.finish("");
  // Plotting problems are warnings (the data and scripts are written); shown even with --quiet.
  for (const std::string& warning : done.warnings) std::fprintf(stderr, "ordo compare: warning: %s\n", warning.c_str());
  if (!quiet) {
    std::string text = "done: " + std::to_string(done.trained) + " run(s) trained, " + std::to_string(done.skipped) +
                       " skipped, in " + format_duration(done.seconds) + "\n  " + done.summary_path + "\n  " +
                       done.report_path + " (open it in a browser)\n  " + done.results_path + "\n  " +
                       done.plot_dir + "/ (" + std::to_string(done.plots_rendered) +
                       " figure(s) as PNG and SVG, .dat data and .gp scripts)\n  " + how.out +
                       "/checkpoints/<task>/<encoding>/" + (spec.vary.empty() ? "" : "<variant>/") +
                       "seed<k>.h5 (ordo analyze --checkpoint ...)\nfindings (" + done.findings_legend.substr(
                           0, done.findings_legend.find(". ")) + "; the words: summary.md):";
    for (const Finding& f : done.findings) text += "\n  - " + f.line();
    live.finish(text);
  }
  return 0;
}

CommandInfo command_info_compare() {
  return {"compare", "train the task x encoding x seed grid; results.h5, plots, summary.md", cmd_compare, true};
}

}  // namespace ordo
