// experiments/compare_command.cpp: `ordo compare`, the task x encoding x seed grid.
//
// Writes into --out (DIR):
//   results.h5                          every run's log, /runs/<task>/<encoding>/seed<k>/ (docs/spec.md §7),
//                                       rewritten atomically after each run
//   checkpoints/<task>/<encoding>/seed<k>.h5   each run's final checkpoint (`ordo analyze` reads it)
//   plots/<task>_curves.{dat,gp,png}    learning curves (train loss, accuracy) per encoding
//   plots/<task>_lengths.{dat,gp,png}   accuracy against evaluation length per encoding
//   summary.md                          tables and findings (report/summary.h)
// Every run is validated (its Trainer built, names and settings checked) before DIR is
// touched. An existing non-empty DIR is refused unless --resume (finished runs, whose final
// checkpoint and complete log exist, are skipped; partial ones continue from their
// checkpoint) or --force (ordo's own files in DIR are replaced).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include <omp.h>

#include "report/checkpoint_file.h"
#include "core/parallel.h"
#include "experiments/cli.h"
#include "experiments/commands.h"
#include "experiments/progress.h"
#include "layers/posenc/encoding.h"
#include "report/atomic_file.h"
#include "train/checkpoint.h"
#include "report/plots.h"
#include "report/results.h"
#include "report/summary.h"
#include "train/settings.h"
#include "train/trainer.h"

namespace ordo {
namespace fs = std::filesystem;

namespace {

const std::vector<cli::Option>& compare_options() {
  static const std::vector<cli::Option> opts = {
      {"tasks", "tasks to compare, comma-separated", "order,shift,periodic", false},
      {"encodings", "encodings to compare, comma-separated", "none,sinusoidal,learned,rope,alibi,t5", false},
      {"seeds", "seeds per task and encoding: --seed, --seed + 1, ...", "3", false},
      {"task-steps", "training steps per task, e.g. order=1200,shift=400 (tasks not named train --steps)", "", false},
      {"out", "output directory", "runs/compare", false},
      {"resume", "continue the grid in --out: skip finished runs, continue partial ones", "", true},
      {"force", "replace the results of a grid already in --out", "", true},
      {"ckpt-every", "also checkpoint each run every N steps (0 = only at its end)", "0", false},
      {"jobs", "runs trained at once, sharing the OpenMP threads (0 = one per thread); results do not depend on it",
       "0", false},
      {"quiet", "print nothing but errors", "", true},
  };
  return opts;
}

// One cell of the grid.
struct GridRun {
  TrainConfig cfg;                   // task, encoding and seed set; the rest from the flags
  std::map<std::string, std::string> settings;  // resolved (to_settings of the Trainer's config)
  std::string ck_path;
  std::unique_ptr<Checkpoint> ck;    // --resume: the run's checkpoint, when there is one
  std::string label() const {
    return cfg.task.name + "/" + cfg.model.encoding + "/seed" + std::to_string(cfg.seed);
  }
  bool finished() const {
    return ck && ck->step == cfg.steps && static_cast<int64_t>(ck->log.step.size()) == cfg.steps;
  }
};

std::vector<std::string> checked_list(const std::string& flag, const std::string& text,
                                      const std::vector<std::string>& known) {
  std::vector<std::string> items = split_list(text);
  std::string names;
  for (const std::string& k : known) names += (names.empty() ? "" : ", ") + k;
  ORDO_CHECK(!items.empty(), "--", flag, " needs at least one name; known: ", names);
  std::set<std::string> seen;
  for (const std::string& item : items) {
    ORDO_CHECK(std::find(known.begin(), known.end(), item) != known.end(), "--", flag, ": unknown name '", item,
               "'; known: ", names);
    ORDO_CHECK(seen.insert(item).second, "--", flag, ": '", item, "' listed twice");
  }
  return items;
}

bool non_empty_dir(const std::string& dir) {
  std::error_code ec;
  return fs::exists(dir, ec) && (!fs::is_directory(dir, ec) || !fs::is_empty(dir, ec));
}

std::string eval_text(const RunLog& log) {
  std::ostringstream os;
  os.precision(3);
  os << std::fixed;
  for (const auto& [len, points] : log.eval)
    if (!points.empty()) os << (len == 0 ? std::string("acc ") : "  @" + std::to_string(len) + " ") << points.back().acc;
  return os.str();
}

// --task-steps: "order=1200,shift=400" -> {order: 1200, shift: 400}, each a task of the grid.
std::map<std::string, int64_t> parse_task_steps(const std::string& text, const std::vector<std::string>& tasks) {
  std::map<std::string, int64_t> out;
  for (const std::string& item : split_list(text)) {
    const size_t eq = item.find('=');
    ORDO_CHECK(eq != std::string::npos, "--task-steps: '", item, "' is not task=steps (e.g. order=1200)");
    const std::string task = item.substr(0, eq);
    std::string names;
    for (const std::string& t : tasks) names += (names.empty() ? "" : ", ") + t;
    ORDO_CHECK(std::find(tasks.begin(), tasks.end(), task) != tasks.end(), "--task-steps: '", task,
               "' is not a task of this grid; its tasks: ", names);
    const int64_t steps = parse_int("task-steps", item.substr(eq + 1));
    ORDO_CHECK(steps >= 1, "--task-steps: ", task, " needs at least 1 step, got ", steps);
    ORDO_CHECK(out.emplace(task, steps).second, "--task-steps: '", task, "' listed twice");
  }
  return out;
}

// summary.md's opening: the grid and the settings that were given.
std::string preamble(const std::vector<std::string>& tasks, const std::vector<std::string>& encs, int64_t seeds,
                     const cli::Parsed& p, const TrainConfig& cfg, const std::map<std::string, int64_t>& task_steps,
                     double wall, double run_seconds) {
  std::ostringstream os;
  os << "Grid: " << tasks.size() << " task(s) x " << encs.size() << " encoding(s) x " << seeds << " seed(s) (seeds "
     << cfg.seed << ".." << cfg.seed + seeds - 1 << "), ";
  if (task_steps.empty()) {
    os << cfg.steps << " steps each";
  } else {
    for (size_t i = 0; i < tasks.size(); ++i) {
      auto it = task_steps.find(tasks[i]);
      os << (i ? ", " : "") << tasks[i] << " " << (it == task_steps.end() ? cfg.steps : it->second);
    }
    os << " steps per run";
  }
  os << "; grid wall time " << format_duration(wall) << " in this session; the runs' own wall times add up to "
     << format_duration(run_seconds) << ".\n\n";
  std::string given;
  for (const auto& [name, value] : p.given)
    if (find_setting(name)) given += " --" + name + " " + value;
  os << "Settings: " << (given.empty() ? std::string("SPEC defaults") : "SPEC defaults except" + given)
     << ". Every run's settings are attributes of its group in results.h5 (setting.<name>).\n";
  return os.str();
}

}  // namespace

int cmd_compare(const Args& args) {
  cli::Parsed p;
  std::vector<std::string> tasks, encs;
  int64_t seeds = 0, ckpt_every = 0, jobs_flag = 0;
  std::string out;
  bool resume = false, force = false, quiet = false;
  std::vector<GridRun> grid;
  std::map<std::string, int64_t> task_steps;  // --task-steps
  try {
    p = cli::parse(args, compare_options(), true);
    if (p.help) {
      std::printf("%s", cli::help_text("ordo compare [flags]",
                                       "Trains every task x encoding x seed of the grid, then writes results.h5, "
                                       "learning-curve and length-generalization plots and summary.md into --out. "
                                       "Every training setting applies to every run.",
                                       compare_options(), true).c_str());
      return 0;
    }
    ORDO_CHECK(!p.has("task") && !p.has("encoding"),
               "compare takes --tasks and --encodings (comma-separated lists), not --task / --encoding");
    std::vector<std::string> enc_names;
    for (const auto& e : encodings()) enc_names.push_back(e.name);
    tasks = checked_list("tasks", p.option("tasks"), task_names());
    encs = checked_list("encodings", p.option("encodings"), enc_names);
    seeds = parse_int("seeds", p.option("seeds"));
    task_steps = parse_task_steps(p.option("task-steps"), tasks);
    ORDO_CHECK(seeds >= 1, "--seeds must be >= 1, got ", seeds);
    ckpt_every = parse_int("ckpt-every", p.option("ckpt-every"));
    ORDO_CHECK(ckpt_every >= 0, "--ckpt-every must be >= 0, got ", ckpt_every);
    jobs_flag = parse_int("jobs", p.option("jobs"));
    ORDO_CHECK(jobs_flag >= 0, "--jobs must be >= 0 (0 = one run per OpenMP thread), got ", jobs_flag);
    out = p.option("out");
    ORDO_CHECK(!out.empty(), "--out must name a directory");
    resume = p.option("resume") == "true";
    force = p.option("force") == "true";
    quiet = p.option("quiet") == "true";
    ORDO_CHECK(!(resume && force), "--resume and --force exclude each other: continue the grid in ", out,
               " or replace it");
    std::error_code ec;
    ORDO_CHECK(!fs::exists(out, ec) || fs::is_directory(out, ec), "--out ", out, " exists and is not a directory");
    ORDO_CHECK(!non_empty_dir(out) || resume || force, out,
               " already holds files; pass --resume to continue that grid, --force to replace it, or another --out");

    // Every run of the grid is built once here, so a bad setting fails before anything is written.
    for (const std::string& task : tasks)
      for (const std::string& enc : encs)
        for (int64_t s = 0; s < seeds; ++s) {
          GridRun r;
          r.cfg = p.config;
          r.cfg.task.name = task;
          r.cfg.model.encoding = enc;
          r.cfg.seed = p.config.seed + static_cast<uint64_t>(s);
          if (auto it = task_steps.find(task); it != task_steps.end()) r.cfg.steps = it->second;
          r.ck_path = out + "/checkpoints/" + task + "/" + enc + "/seed" + std::to_string(r.cfg.seed) + ".h5";
          try {
            Trainer t(r.cfg);
            r.settings = to_settings(t.config());
            if (resume && fs::exists(r.ck_path)) {
              r.ck = std::make_unique<Checkpoint>(load_checkpoint(r.ck_path));
              t.restore(*r.ck);  // refuses a checkpoint of other settings
            }
          } catch (const Error& e) {
            fail(r.label(), ": ", e.what(), r.ck ? "; use another --out, or --force to replace the grid" : "");
          }
          grid.push_back(std::move(r));
        }
  } catch (const Error& e) {
    throw InputError(e.what());
  }

  // Input is good: from here on DIR is written.
  if (force) {
    for (const char* name : {"results.h5", "summary.md", "checkpoints", "plots"}) fs::remove_all(out + "/" + name);
  }
  fs::create_directories(out + "/checkpoints");
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&]() { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };

  int64_t total_steps = 0;
  for (const GridRun& r : grid) total_steps += r.cfg.steps - (r.ck ? r.ck->step : 0);
  Progress progress(quiet, static_cast<int>(std::max<int64_t>(1, total_steps / 40)));
  if (!quiet)
    progress.message("ordo compare: " + std::to_string(tasks.size()) + " task(s) x " + std::to_string(encs.size()) +
                     " encoding(s) x " + std::to_string(seeds) + " seed(s) = " + std::to_string(grid.size()) +
                     " runs of " + (task_steps.empty() ? std::to_string(p.config.steps) : "per-task") + " steps -> " +
                     out);

  std::map<std::string, std::string> shared = to_settings(p.config);
  for (const char* key : {"task", "encoding", "seed"}) shared.erase(key);
  shared["tasks"] = p.option("tasks");
  shared["encodings"] = p.option("encodings");
  shared["seeds"] = std::to_string(seeds);
  if (!task_steps.empty()) shared["task-steps"] = p.option("task-steps");
  shared["first_seed"] = std::to_string(p.config.seed);

  // Runs train `jobs` at a time, each on a worker thread with its share of the OpenMP threads
  // (a run's numbers do not depend on its thread count, so neither do the results). One mutex
  // guards the shared state below, the progress line and every HDF5 call (Debian's HDF5 is
  // not built thread-safe).
  const std::string results_path = out + "/results.h5";
  const int threads = num_threads();
  int64_t pending = 0;
  for (const GridRun& r : grid) pending += r.finished() ? 0 : 1;
  const int jobs = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(jobs_flag > 0 ? jobs_flag : threads, pending)));
  std::mutex mu;
  std::vector<std::optional<RunRecord>> slots(grid.size());  // finished or interrupted runs, grid order
  std::vector<std::string> status(jobs);                      // each worker's run, for the progress line
  size_t next = 0;
  int workers_left = jobs, runs_done = 0, trained = 0;
  int64_t steps_done = 0;
  bool stopping = false;
  std::exception_ptr failure;
  auto save_results = [&]() {  // with mu held
    std::vector<RunRecord> all;
    for (const auto& s : slots)
      if (s) all.push_back(*s);
    write_results(results_path, all, shared);
  };
  for (size_t i = 0; i < grid.size(); ++i) {
    const GridRun& r = grid[i];
    if (!r.finished()) continue;
    slots[i] = RunRecord{r.cfg.task.name, r.cfg.model.encoding, r.cfg.seed, r.ck->log, r.settings};
    ++runs_done;
    progress.message("[" + std::to_string(runs_done) + "/" + std::to_string(grid.size()) + "] " + r.label() +
                     ": finished earlier, skipped (" + eval_text(r.ck->log) + ")");
  }
  if (!quiet && jobs > 1)
    progress.message(std::to_string(jobs) + " runs at a time, " + (threads >= jobs ? std::to_string(threads / jobs)
                                                                                   : std::string("1")) +
                     " OpenMP thread(s) each (--jobs; a run's numbers do not depend on it)");

  auto worker = [&](int id) {
    int my_threads = 0;
    auto share_threads = [&]() {  // with mu held: the threads of workers that left go to the rest
      const int want = std::max(1, threads / workers_left);
      if (want != my_threads) omp_set_num_threads(my_threads = want);
    };
    for (;;) {
      size_t i;
      {
        std::lock_guard<std::mutex> lock(mu);
        while (next < grid.size() && grid[next].finished()) ++next;
        if (stopping || next == grid.size()) {
          --workers_left;
          status[id].clear();
          return;
        }
        i = next++;
        share_threads();
      }
      GridRun& r = grid[i];
      std::unique_ptr<Trainer> trainer;
      auto record = [&]() {
        return RunRecord{r.cfg.task.name, r.cfg.model.encoding, r.cfg.seed, trainer->log(), r.settings};
      };
      try {
        trainer = std::make_unique<Trainer>(r.cfg);
        if (r.ck) trainer->restore(*r.ck);
        {
          std::lock_guard<std::mutex> lock(mu);
          fs::create_directories(fs::path(r.ck_path).parent_path());
        }
        trainer->run([&](const StepInfo& s) {
          std::lock_guard<std::mutex> lock(mu);
          share_threads();
          char text[160];
          std::snprintf(text, sizeof text, "%s %lld/%lld loss %.4f", r.label().c_str(),
                        static_cast<long long>(s.step + 1), static_cast<long long>(s.total), s.loss);
          status[id] = text;
          std::string line = "runs " + std::to_string(runs_done) + "/" + std::to_string(grid.size()) + " done";
          for (const std::string& st : status)
            if (!st.empty()) line += " | " + st;
          progress.update(++steps_done, total_steps, line, elapsed());
          // Another run failed: keep this one's state so that --resume continues it.
          const bool checkpoint = stopping || (ckpt_every > 0 && (s.step + 1) % ckpt_every == 0 && s.step + 1 < s.total);
          if (checkpoint) {
            save_checkpoint(r.ck_path, trainer->checkpoint());
            slots[i] = record();
            save_results();
          }
          return !stopping;
        });
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (trainer) {  // the curve up to the fault; rerun with --resume after fixing the settings
          slots[i] = record();
          try {
            save_results();
          } catch (...) {
          }
        }
        if (!failure) {  // named by its run: other runs may have been training beside it
          try {
            throw;
          } catch (const Error& e) {
            failure = std::make_exception_ptr(Error(r.label() + ": " + e.what()));
          } catch (...) {
            failure = std::current_exception();
          }
        }
        stopping = true;
        --workers_left;
        status[id].clear();
        return;
      }
      std::lock_guard<std::mutex> lock(mu);
      status[id].clear();
      if (trainer->step() < r.cfg.steps) continue;  // stopped by another run's failure, checkpointed
      try {
        save_checkpoint(r.ck_path, trainer->checkpoint());
        slots[i] = record();
        save_results();
      } catch (...) {
        if (!failure) failure = std::current_exception();
        stopping = true;
        --workers_left;
        return;
      }
      ++runs_done;
      ++trained;
      progress.message("[" + std::to_string(runs_done) + "/" + std::to_string(grid.size()) + "] " + r.label() + ": " +
                       eval_text(trainer->log()) + " (" + format_duration(trainer->log().total_wall_seconds) + ")");
    }
  };
  if (jobs == 1) {
    worker(0);
    omp_set_num_threads(threads);
  } else {
    std::vector<std::thread> pool;
    for (int id = 0; id < jobs; ++id) pool.emplace_back(worker, id);
    for (std::thread& t : pool) t.join();
  }
  if (failure) {
    progress.finish("");
    std::rethrow_exception(failure);
  }
  std::vector<RunRecord> records;
  for (auto& s : slots) records.push_back(std::move(*s));
  if (trained == 0) write_results(results_path, records, shared);  // everything was skipped
  const double grid_seconds = elapsed();
  double run_seconds = 0;  // training and evaluation of every run, in whichever session it ran
  for (const RunRecord& r : records) run_seconds += r.log.total_wall_seconds;
  progress.finish("");

  // The summary, the plots, and the findings: from the logs, never by hand.
  const std::vector<TaskSummary> summary = summarize(records);
  const std::vector<std::string> notes = findings(summary);
  const std::string plot_dir = out + "/plots";
  std::vector<PlotFiles> plots;
  std::string plot_problem;
  try {
    for (const TaskSummary& t : summary) {
      plots.push_back(write_learning_curve_plot(plot_dir, t.task, records));
      plots.push_back(write_length_plot(plot_dir, t));
    }
  } catch (const Error& e) {
    plot_problem = std::string("plots: ") + e.what();
  }
  const RenderReport rendered = render_plots(plots);
  std::map<std::string, std::vector<std::string>> images;
  for (const TaskSummary& t : summary)
    for (const char* kind : {"_curves", "_lengths"})
      if (fs::exists(plot_dir + "/" + t.task + kind + ".png")) images[t.task].push_back("plots/" + t.task + kind + ".png");
  const std::string md =
      render_summary_markdown(summary, notes, preamble(tasks, encs, seeds, p, p.config, task_steps, grid_seconds, run_seconds),
                              images);
  atomic_write(out + "/summary.md", [&](const std::string& tmp) {
    std::ofstream f(tmp, std::ios::binary);
    f << md;
    f.close();
    ORDO_CHECK(f, "cannot write ", tmp);
  });

  // Plotting problems are warnings (the data and scripts are written); shown even with --quiet.
  for (const std::string& warning : {plot_problem, rendered.message()})
    if (!warning.empty()) std::fprintf(stderr, "ordo compare: warning: %s\n", warning.c_str());
  if (!quiet) {
    std::string text = "done: " + std::to_string(trained) + " run(s) trained, " +
                       std::to_string(grid.size() - trained) + " skipped, in " + format_duration(grid_seconds) +
                       "\n  " + out + "/summary.md\n  " + results_path + "\n  " + plot_dir + "/ (" +
                       std::to_string(rendered.rendered) + " PNG(s), .dat data and .gp scripts)\n  " + out +
                       "/checkpoints/<task>/<encoding>/seed<k>.h5 (ordo analyze --checkpoint ...)\nfindings:";
    for (const std::string& n : notes) text += "\n  - " + n;
    progress.finish(text);
  }
  return 0;
}

}  // namespace ordo
