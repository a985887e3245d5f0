// study/study.cpp: building, scheduling and reporting a grid of runs (see study/study.h).
#include "study/study.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include <omp.h>

#include "core/parallel.h"
#include "core/shared_cores.h"
#include "layers/posenc/encoding.h"
#include "report/atomic_file.h"
#include "report/checkpoint_file.h"
#include "report/plots.h"
#include "report/summary.h"
#include "study/interrupt.h"
#include "study/output_lock.h"
#include "train/settings.h"
#include "train/trainer.h"

namespace ordo {
namespace fs = std::filesystem;

namespace {

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string s;
  for (const std::string& item : items) s += (s.empty() ? "" : sep) + item;
  return s;
}

// Every name known and listed once.
// `all` alone stands for every registered name, in registry order.
void expand_all(const char* flag, std::vector<std::string>& items, const std::vector<std::string>& known) {
  if (std::find(items.begin(), items.end(), "all") == items.end()) return;
  ORDO_CHECK(items.size() == 1, "--", flag, ": 'all' stands for every name and takes no others beside it; known: ",
             join(known));
  items = known;
}

void check_names(const char* flag, const std::vector<std::string>& items, const std::vector<std::string>& known) {
  ORDO_CHECK(!items.empty(), "--", flag, " needs at least one name (or all); known: ", join(known));
  std::set<std::string> seen;
  for (const std::string& item : items) {
    ORDO_CHECK(std::find(known.begin(), known.end(), item) != known.end(), "--", flag, ": unknown name '", item,
               "'; known: ", join(known));
    ORDO_CHECK(seen.insert(item).second, "--", flag, ": '", item, "' listed twice");
  }
}

bool non_empty_dir(const std::string& dir) {
  std::error_code ec;
  return fs::exists(dir, ec) && (!fs::is_directory(dir, ec) || !fs::is_empty(dir, ec));
}

// "acc 0.998  @64 0.951  @128 0.602": the latest evaluation of each length.
std::string eval_text(const RunLog& log) {
  std::ostringstream os;
  os.precision(3);
  os << std::fixed;
  for (const auto& [len, points] : log.eval)
    if (!points.empty()) os << (len == 0 ? std::string("acc ") : "  @" + std::to_string(len) + " ") << points.back().acc;
  return os.str();
}

std::string task_steps_text(const std::vector<std::pair<std::string, int64_t>>& task_steps) {
  std::vector<std::string> items;
  for (const auto& [task, steps] : task_steps) items.push_back(task + "=" + std::to_string(steps));
  return join(items, ",");
}

// summary.md's opening: the grid and the settings that were given.
std::string preamble(const StudySpec& spec, double wall, double run_seconds) {
  std::ostringstream os;
  const TrainConfig& cfg = spec.base;
  os << "Grid: " << spec.tasks.size() << " task(s) x " << spec.encodings.size() << " encoding(s) x ";
  if (!spec.vary.empty()) {
    std::string vary;
    for (const Variation& v : spec.vary) vary += " --vary " + v.key + "=" + join(v.values, ",");
    os << variants(spec.vary).size() << " variant(s) (" << vary.substr(1) << ") x ";
  }
  os << spec.seeds << " seed(s) (seeds " << cfg.seed << ".." << cfg.seed + spec.seeds - 1 << "), ";
  if (spec.task_steps.empty()) {
    os << cfg.steps << " steps each";
  } else {
    for (size_t i = 0; i < spec.tasks.size(); ++i) {
      int64_t steps = cfg.steps;
      for (const auto& [task, n] : spec.task_steps)
        if (task == spec.tasks[i]) steps = n;
      os << (i ? ", " : "") << spec.tasks[i] << " " << steps;
    }
    os << " steps per run";
  }
  os << "; grid wall time " << format_duration(wall) << " in this session; the runs' own wall times add up to "
     << format_duration(run_seconds) << ".\n\n";
  std::string given;
  for (const auto& [name, value] : spec.given) given += " --" + name + " " + value;
  os << "Settings: " << (given.empty() ? std::string("SPEC defaults") : "SPEC defaults except" + given)
     << ". Every run's settings are attributes of its group in results.h5 (setting.<name>).\n";
  return os.str();
}

}  // namespace

std::vector<std::pair<std::string, int64_t>> parse_task_steps(const std::string& text,
                                                               const std::vector<std::string>& grid_tasks) {
  const std::vector<std::string> tasks = grid_tasks == std::vector<std::string>{"all"} ? task_names() : grid_tasks;
  std::vector<std::pair<std::string, int64_t>> out;
  for (const std::string& item : split_list(text)) {
    const size_t eq = item.find('=');
    ORDO_CHECK(eq != std::string::npos, "--task-steps: '", item, "' is not task=steps (e.g. order=1200)");
    const std::string task = item.substr(0, eq);
    ORDO_CHECK(std::find(tasks.begin(), tasks.end(), task) != tasks.end(), "--task-steps: '", task,
               "' is not a task of this grid; its tasks: ", join(tasks));
    const int64_t steps = parse_int("task-steps", item.substr(eq + 1));
    ORDO_CHECK(steps >= 1, "--task-steps: ", task, " needs at least 1 step, got ", steps);
    for (const auto& [seen, n] : out) ORDO_CHECK(seen != task, "--task-steps: '", task, "' listed twice");
    out.emplace_back(task, steps);
  }
  return out;
}

CheckpointClock::CheckpointClock(double minutes) : seconds_(minutes * 60), last_(std::chrono::steady_clock::now()) {}

bool CheckpointClock::due() const {
  return seconds_ > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - last_).count() >= seconds_;
}

void CheckpointClock::reset() { last_ = std::chrono::steady_clock::now(); }

std::string StudyRun::label() const {
  return config.task.name + "/" + config.model.encoding + "/" + (variant.empty() ? "" : variant + "/") + "seed" +
         std::to_string(config.seed);
}

std::vector<Variation> parse_vary(const std::vector<std::string>& texts) {
  std::vector<Variation> out;
  for (const std::string& text : texts) {
    const size_t eq = text.find('=');
    ORDO_CHECK(eq != std::string::npos && eq > 0, "--vary: '", text,
               "' is not KEY=V1,V2,... (a setting and its values, e.g. --vary causal=false,true)");
    Variation v{text.substr(0, eq), split_list(text.substr(eq + 1))};
    for (const char* axis : {"task", "tasks", "encoding", "encodings", "seed", "seeds"})
      ORDO_CHECK(v.key != axis, "--vary: ", v.key, " is an axis of its own; use --",
                 std::string(axis).back() == 's' ? axis : std::string(axis) + "s", " (comma-separated)");
    const Setting* s = find_setting(v.key);
    ORDO_CHECK(s != nullptr, "--vary: unknown setting '", v.key, "'; any setting of `ordo train --help` can vary (",
               "e.g. causal, layers, lr, max-len)");
    ORDO_CHECK(s->affects_results, "--vary: ", v.key, " changes no result (", s->group, " setting); vary one that does");
    for (const Variation& seen : out) ORDO_CHECK(seen.key != v.key, "--vary: ", v.key, " varied twice; give its values once");
    ORDO_CHECK(v.values.size() >= 2, "--vary ", v.key, ": give at least two values (one value is a plain --", v.key,
               ")");
    std::set<std::string> distinct;
    for (const std::string& value : v.values) {
      ORDO_CHECK(!value.empty() && value.find_first_of("/=,") == std::string::npos && value != "." && value != "..",
                 "--vary ", v.key, ": '", value, "' cannot name a results group (no '/', '=', ',', empty, . or ..)");
      ORDO_CHECK(distinct.insert(value).second, "--vary ", v.key, ": '", value, "' listed twice");
    }
    out.push_back(std::move(v));
  }
  return out;
}

std::vector<std::vector<std::pair<std::string, std::string>>> variants(const std::vector<Variation>& vary) {
  std::vector<std::vector<std::pair<std::string, std::string>>> out = {{}};
  for (const Variation& v : vary) {
    std::vector<std::vector<std::pair<std::string, std::string>>> next;
    for (const auto& prefix : out)
      for (const std::string& value : v.values) {
        next.push_back(prefix);
        next.back().emplace_back(v.key, value);
      }
    out = std::move(next);
  }
  return out;
}

std::string variant_label(const std::vector<std::pair<std::string, std::string>>& variant) {
  std::string label;
  for (const auto& [key, value] : variant) label += (label.empty() ? "" : ",") + key + "=" + value;
  return label;
}

bool StudyRun::finished() const {
  return checkpoint && checkpoint->step == config.steps &&
         static_cast<int64_t>(checkpoint->log.step.size()) == config.steps;
}

Study::Study(StudySpec spec, StudyOptions options) : spec_(std::move(spec)), options_(std::move(options)) {
  std::vector<std::string> encoding_list;
  for (const EncodingInfo& e : encodings()) encoding_list.push_back(e.name);
  expand_all("tasks", spec_.tasks, task_names());
  expand_all("encodings", spec_.encodings, encoding_list);
  check_names("tasks", spec_.tasks, task_names());
  check_names("encodings", spec_.encodings, encoding_list);
  ORDO_CHECK(spec_.seeds >= 1, "--seeds must be >= 1, got ", spec_.seeds);
  for (const auto& [task, steps] : spec_.task_steps) {
    ORDO_CHECK(std::find(spec_.tasks.begin(), spec_.tasks.end(), task) != spec_.tasks.end(), "--task-steps: '",
               task, "' is not a task of this grid; its tasks: ", join(spec_.tasks));
    ORDO_CHECK(steps >= 1, "--task-steps: ", task, " needs at least 1 step, got ", steps);
  }
  ORDO_CHECK(options_.ckpt_every >= 0, "--ckpt-every must be >= 0, got ", options_.ckpt_every);
  ORDO_CHECK(options_.ckpt_minutes >= 0, "--ckpt-minutes must be >= 0 (0 = off), got ", options_.ckpt_minutes);
  ORDO_CHECK(options_.jobs >= 0, "--jobs must be >= 0 (0 = one run per OpenMP thread), got ", options_.jobs);
  const std::string& out = options_.out;
  ORDO_CHECK(!out.empty(), "--out must name a directory");
  std::error_code ec;
  ORDO_CHECK(!fs::exists(out, ec) || fs::is_directory(out, ec), "--out ", out, " exists and is not a directory");
  ORDO_CHECK(!non_empty_dir(out) || options_.existing != ExistingOutput::Refuse, out,
             " already holds files; pass --resume to continue that grid, --force to replace it, or another --out");

  // Every run is built once here, so a bad setting fails before anything is written.
  const bool resume = options_.existing == ExistingOutput::Resume;
  for (const Variation& v : spec_.vary)
    ORDO_CHECK(!spec_.given.count(v.key), "--", v.key, " is both given and varied (--vary ", v.key,
               "=...); drop one of them");
  const auto grid_variants = variants(spec_.vary);
  for (const std::string& task : spec_.tasks)
    for (const std::string& enc : spec_.encodings)
      for (auto variant : grid_variants) {
        // An encoding defined for causal attention only runs causal in a bidirectional
        // grid, labelled like a varied setting; where the grid varies causal itself, its
        // causal=true cell already holds it.
        if (encoding_info(enc).causal_only) {
          auto varied = std::find_if(variant.begin(), variant.end(), [](const auto& kv) { return kv.first == "causal"; });
          if (varied != variant.end() && !parse_bool("causal", varied->second)) continue;
          if (varied == variant.end() && !spec_.base.model.causal) variant.emplace_back("causal", "true");
        }
        for (int64_t s = 0; s < spec_.seeds; ++s) {
          StudyRun r;
          r.config = spec_.base;
          r.config.task.name = task;
          r.config.model.encoding = enc;
          r.config.seed = spec_.base.seed + static_cast<uint64_t>(s);
          for (const auto& [t, steps] : spec_.task_steps)
            if (t == task) r.config.steps = steps;
          r.variant = variant_label(variant);
          r.checkpoint_path = out + "/checkpoints/" + task + "/" + enc + "/" +
                              (r.variant.empty() ? "" : r.variant + "/") + "seed" + std::to_string(r.config.seed) + ".h5";
          try {
            for (const auto& [key, value] : variant) find_setting(key)->set(r.config, value);
            Trainer t(r.config);
            r.settings = to_settings(t.config());
            if (resume && fs::exists(r.checkpoint_path)) {
              r.checkpoint = std::make_shared<Checkpoint>(load_checkpoint(r.checkpoint_path));
              t.restore(*r.checkpoint);  // refuses a checkpoint of other settings
            }
          } catch (const Error& e) {
            fail(r.label(), ": ", e.what(), r.checkpoint ? "; use another --out, or --force to replace the grid" : "");
          }
          runs_.push_back(std::move(r));
        }
      }
  lock_ = OutputLock(out);  // every run checked: now the directory is ours alone
  remove_stale_temporaries(out);
}

int64_t Study::steps_to_train() const {
  int64_t total = 0;
  for (const StudyRun& r : runs_) total += r.config.steps - (r.checkpoint ? r.checkpoint->step : 0);
  return total;
}

StudyOutcome Study::run(const StudyProgress& progress) {
  const std::string& out = options_.out;
  auto message = [&](const std::string& text) {
    if (progress.message) progress.message(text);
  };
  if (options_.existing == ExistingOutput::Replace)
    for (const char* name : {"results.h5", "summary.md", "checkpoints", "plots"}) fs::remove_all(out + "/" + name);
  fs::create_directories(out + "/checkpoints");
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&]() { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };

  StudyOutcome outcome;
  outcome.results_path = out + "/results.h5";
  outcome.summary_path = out + "/summary.md";
  outcome.plot_dir = out + "/plots";

  const int64_t total_steps = steps_to_train();

  std::map<std::string, std::string> shared = to_settings(spec_.base);
  for (const char* key : {"task", "encoding", "seed"}) shared.erase(key);
  for (const Variation& v : spec_.vary) shared.erase(v.key);  // each run's own: its setting.<key>
  if (!spec_.vary.empty()) {
    std::vector<std::string> vary;
    for (const Variation& v : spec_.vary) vary.push_back(v.key + "=" + join(v.values, ","));
    shared["vary"] = join(vary, ";");
  }
  shared["tasks"] = join(spec_.tasks, ",");
  shared["encodings"] = join(spec_.encodings, ",");
  shared["seeds"] = std::to_string(spec_.seeds);
  if (!spec_.task_steps.empty()) shared["task-steps"] = task_steps_text(spec_.task_steps);
  shared["first_seed"] = std::to_string(spec_.base.seed);

  // Runs train `jobs` at a time, each on a worker thread with its share of the OpenMP threads
  // (a run's numbers do not depend on its thread count, so neither do the results). One mutex
  // guards the shared state below, the progress callbacks and every HDF5 call (Debian's HDF5
  // is not built thread-safe).
  const int threads = shared_cores().limit;  // this process's threads when alone
  int64_t pending = 0;
  for (const StudyRun& r : runs_) pending += r.finished() ? 0 : 1;
  const int jobs = static_cast<int>(
      std::max<int64_t>(1, std::min<int64_t>(options_.jobs > 0 ? options_.jobs : threads, pending)));
  std::mutex mu;
  std::vector<std::optional<RunRecord>> slots(runs_.size());  // finished or interrupted runs, grid order
  std::vector<std::string> status(jobs);                      // each worker's run, for the progress line
  size_t next = 0;
  int workers_left = jobs, runs_done = 0, trained = 0;
  int sharing_processes = 0;  // ordo processes on these cores when last said
  int64_t steps_done = 0;
  bool stopping = false;
  std::exception_ptr failure;
  const std::string total_runs = std::to_string(runs_.size());
  auto save_results = [&]() {  // with mu held
    std::vector<RunRecord> all;
    for (const auto& s : slots)
      if (s) all.push_back(*s);
    write_results(outcome.results_path, all, shared);
  };
  for (size_t i = 0; i < runs_.size(); ++i) {
    const StudyRun& r = runs_[i];
    if (!r.finished()) continue;
    slots[i] = RunRecord{r.config.task.name, r.config.model.encoding, r.config.seed, r.checkpoint->log, r.settings, r.variant};
    ++runs_done;
    message("[" + std::to_string(runs_done) + "/" + total_runs + "] " + r.label() + ": finished earlier, skipped (" +
            eval_text(r.checkpoint->log) + ")");
  }
  if (jobs > 1)
    message(std::to_string(jobs) + " runs at a time, " +
            (threads >= jobs ? std::to_string(threads / jobs) : std::string("1")) +
            " OpenMP thread(s) each (--jobs; a run's numbers do not depend on it)");

  auto worker = [&](int id) {
    int my_threads = 0;
    auto share_threads = [&]() {  // with mu held: the threads of workers that left go to the rest
      const CoreShare share = shared_cores();  // and this process's share of the cores (core/shared_cores.h)
      if (share.processes != sharing_processes) {
        if (sharing_processes != 0 || share.processes > 1) message(describe(share));
        sharing_processes = share.processes;
      }
      const int want = std::max(1, std::min(threads, share.threads) / workers_left);
      if (want != my_threads) omp_set_num_threads(my_threads = want);
    };
    for (;;) {
      size_t i;
      {
        std::lock_guard<std::mutex> lock(mu);
        if (interrupt_signal() != 0) stopping = true;  // no new run after a signal
        while (next < runs_.size() && runs_[next].finished()) ++next;
        if (stopping || next == runs_.size()) {
          --workers_left;
          status[id].clear();
          return;
        }
        i = next++;
        share_threads();
      }
      const StudyRun& r = runs_[i];
      std::unique_ptr<Trainer> trainer;
      CheckpointClock clock(options_.ckpt_minutes);
      auto record = [&]() {
        return RunRecord{r.config.task.name, r.config.model.encoding, r.config.seed, trainer->log(), r.settings, r.variant};
      };
      try {
        trainer = std::make_unique<Trainer>(r.config);
        if (r.checkpoint) trainer->restore(*r.checkpoint);
        {
          std::lock_guard<std::mutex> lock(mu);
          fs::create_directories(fs::path(r.checkpoint_path).parent_path());
        }
        trainer->run([&](const StepInfo& s) {
          std::lock_guard<std::mutex> lock(mu);
          if (interrupt_signal() != 0) stopping = true;  // checkpointed below, then stopped
          share_threads();
          char text[160];
          std::snprintf(text, sizeof text, "%s %lld/%lld loss %.4f", r.label().c_str(),
                        static_cast<long long>(s.step + 1), static_cast<long long>(s.total), s.loss);
          status[id] = text;
          std::string line = "runs " + std::to_string(runs_done) + "/" + total_runs + " done";
          for (const std::string& st : status)
            if (!st.empty()) line += " | " + st;
          ++steps_done;
          if (progress.update) progress.update(steps_done, total_steps, line, elapsed());
          // Another run failed: keep this one's state so that Resume continues it.
          const int64_t every = options_.ckpt_every;
          const bool by_step = every > 0 && (s.step + 1) % every == 0;
          const bool checkpoint = stopping || ((by_step || clock.due()) && s.step + 1 < s.total);
          if (checkpoint) {
            save_checkpoint(r.checkpoint_path, trainer->checkpoint());
            slots[i] = record();
            save_results();
            clock.reset();
          }
          return !stopping;
        });
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (trainer) {  // the curve up to the fault; rerun with Resume after fixing the settings
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
      if (trainer->step() < r.config.steps) continue;  // stopped by another run's failure, checkpointed
      try {  // the log reaches results.h5 even when the checkpoint cannot be written
        slots[i] = record();
        std::exception_ptr checkpoint_failure;
        try {
          save_checkpoint(r.checkpoint_path, trainer->checkpoint());
        } catch (...) {
          checkpoint_failure = std::current_exception();
        }
        try {
          save_results();
        } catch (...) {
          if (!checkpoint_failure) throw;
        }
        if (checkpoint_failure) std::rethrow_exception(checkpoint_failure);
      } catch (...) {
        if (!failure) failure = std::current_exception();
        stopping = true;
        --workers_left;
        return;
      }
      ++runs_done;
      ++trained;
      message("[" + std::to_string(runs_done) + "/" + total_runs + "] " + r.label() + ": " +
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
  if (failure) std::rethrow_exception(failure);
  if (interrupt_signal() != 0) {
    const int64_t unfinished = static_cast<int64_t>(runs_.size()) - runs_done;
    throw Interrupted(interrupt_signal(),
                      signal_name(interrupt_signal()) + ": " + std::to_string(runs_done) + " of " + total_runs +
                          " runs finished, the " + std::to_string(unfinished) +
                          " others checkpointed or not started; continue with --resume");
  }

  for (auto& s : slots) outcome.records.push_back(std::move(*s));
  if (trained == 0) write_results(outcome.results_path, outcome.records, shared);  // everything was skipped
  outcome.trained = trained;
  outcome.skipped = static_cast<int64_t>(runs_.size()) - trained;
  outcome.seconds = elapsed();
  for (const RunRecord& r : outcome.records) outcome.run_seconds += r.log.total_wall_seconds;

  // The summary, the plots, and the findings: from the logs, never by hand.
  const std::vector<TaskSummary> summary = summarize(outcome.records);
  outcome.findings = findings(summary);
  std::vector<PlotFiles> plots;
  try {
    for (const TaskSummary& t : summary) {
      plots.push_back(write_learning_curve_plot(outcome.plot_dir, t.task, outcome.records));
      plots.push_back(write_length_plot(outcome.plot_dir, t));
      if (auto distance = write_distance_plot(outcome.plot_dir, t, outcome.records)) plots.push_back(*distance);
    }
  } catch (const Error& e) {
    outcome.warnings.push_back(std::string("plots: ") + e.what());
  }
  const RenderReport rendered = render_plots(plots);
  outcome.plots_rendered = rendered.rendered;
  if (!rendered.message().empty()) outcome.warnings.push_back(rendered.message());
  std::map<std::string, std::vector<std::string>> images;
  for (const TaskSummary& t : summary)
    for (const char* kind : {"_curves", "_lengths", "_distance"})
      if (fs::exists(outcome.plot_dir + "/" + t.task + kind + ".png"))
        images[t.task].push_back("plots/" + t.task + kind + ".png");
  const std::string md = render_summary_markdown(summary, outcome.findings,
                                                 preamble(spec_, outcome.seconds, outcome.run_seconds), images);
  atomic_write(outcome.summary_path, [&](const std::string& tmp) { write_file(tmp, md); });
  return outcome;
}

}  // namespace ordo
