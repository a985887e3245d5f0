// study/study.cpp: building, scheduling and reporting a grid of runs (see study/study.h).
#include "study/study.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include <omp.h>

#include "cluster/cluster.h"
#include "core/mutex.h"
#include "core/parallel.h"
#include "cluster/shared_cores.h"
#include "core/strings.h"
#include "layers/model.h"
#include "layers/posenc/encoding.h"
#include "io/atomic_file.h"
#include "io/checkpoint_file.h"
#include "report/study_report.h"
#include "study/interrupt.h"
#include "study/output_lock.h"
#include "study/run_queue.h"
#include "train/settings.h"
#include "train/stopping.h"
#include "train/trainer.h"

namespace ordo {
namespace fs = std::filesystem;

namespace {

// Every name known and listed once.
// `all` alone stands for every registered name, in registry order.
void expand_all(const char* flag, std::vector<std::string>& items, const std::vector<std::string>& known) {
  if (std::find(items.begin(), items.end(), "all") == items.end()) return;
  ORDO_CHECK(items.size() == 1, "--", flag, ": 'all' stands for every name and takes no others beside it; known: ",
             join(known));
  items = known;
}

// An --encodings entry E1+E2+...: one encoding per layer (--layer-encodings), a series of its
// own (RNoPE: rope+none). Empty for a single name.
std::vector<std::string> layer_pattern(const std::string& entry) {
  if (entry.find('+') == std::string::npos) return {};
  std::vector<std::string> parts;
  size_t begin = 0;
  for (size_t plus = entry.find('+');; plus = entry.find('+', begin)) {
    parts.push_back(entry.substr(begin, plus == std::string::npos ? std::string::npos : plus - begin));
    ORDO_CHECK(!parts.back().empty(), "--encodings: '", entry, "' has an empty part; E1+E2+... names one encoding per "
               "layer");
    if (plus == std::string::npos) return parts;
    begin = plus + 1;
  }
}

void check_names(const char* flag, const std::vector<std::string>& items, const std::vector<std::string>& known,
                 bool patterns = false) {
  ORDO_CHECK(!items.empty(), "--", flag, " needs at least one name (or all); known: ", join(known));
  std::set<std::string> seen;
  for (const std::string& item : items) {
    const std::vector<std::string> parts = patterns ? layer_pattern(item) : std::vector<std::string>{};
    for (const std::string& name : parts.empty() ? std::vector<std::string>{item} : parts)
      ORDO_CHECK(std::find(known.begin(), known.end(), name) != known.end(), "--", flag, ": unknown name '", name,
                 "'", parts.empty() ? "" : " in '" + item + "'", "; known: ", join(known),
                 patterns ? " (or E1+E2+...: one per layer)" : "");
    ORDO_CHECK(seen.insert(item).second, "--", flag, ": '", item, "' listed twice");
  }
}

bool non_empty_dir(const std::string& dir) {
  std::error_code ec;
  return fs::exists(dir, ec) && (!fs::is_directory(dir, ec) || !fs::is_empty(dir, ec));
}

std::string task_steps_text(const std::vector<std::pair<std::string, int64_t>>& task_steps) {
  std::vector<std::string> items;
  for (const auto& [task, steps] : task_steps) items.push_back(task + "=" + std::to_string(steps));
  return join(items, ",");
}

}  // namespace

std::vector<std::pair<std::string, int64_t>> parse_task_steps(const std::string& text,
                                                               const std::vector<std::string>& grid_tasks) {
  const std::vector<std::string> tasks =
      grid_tasks == std::vector<std::string>{"all"} ? task_names() : expand_task_groups(grid_tasks);
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
  return config.task.name + "/" + encoding_label(config.model) + "/" + (variant.empty() ? "" : variant + "/") + "seed" +
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

namespace {

// The study's shared settings, as results.h5's root attributes: the base settings less the
// per-run ones, and the grid (tasks, encodings, seeds, varied settings).
std::map<std::string, std::string> shared_settings(const StudySpec& spec) {
  std::map<std::string, std::string> shared = to_settings(spec.base);
  for (const char* key : {"task", "encoding", "seed"}) shared.erase(key);
  if (std::any_of(spec.encodings.begin(), spec.encodings.end(),
                  [](const std::string& e) { return !layer_pattern(e).empty(); }))
    shared.erase("layer-encodings");  // an E1+E2 entry's runs each have their own
  for (const Variation& v : spec.vary) shared.erase(v.key);  // each run's own: its setting.<key>
  if (!spec.vary.empty()) {
    std::vector<std::string> vary;
    for (const Variation& v : spec.vary) vary.push_back(v.key + "=" + join(v.values, ","));
    shared["vary"] = join(vary, ";");
  }
  shared["tasks"] = join(spec.tasks, ",");
  shared["encodings"] = join(spec.encodings, ",");
  shared["seeds"] = std::to_string(spec.seeds);
  if (!spec.task_steps.empty()) shared["task-steps"] = task_steps_text(spec.task_steps);
  shared["first_seed"] = std::to_string(spec.base.seed);
  return shared;
}

// Resuming a study under another protocol would mix runs stopped by different rules, or
// choose among other learning rates: refused before anything runs. A file written before a
// setting existed holds its default.
void check_same_protocol(const std::string& results, const std::map<std::string, std::string>& mine) {
  std::error_code ec;
  if (!fs::exists(results, ec)) return;
  const std::map<std::string, std::string> theirs = read_results_attributes(results);
  const std::map<std::string, std::string> defaults = to_settings(TrainConfig{});
  for (const std::string key : {"until-learned", "learned-at", "patience", "vary"}) {
    auto value = [&](const std::map<std::string, std::string>& m) {
      auto it = m.find(key);
      if (it != m.end()) return it->second;
      auto d = defaults.find(key);
      return d == defaults.end() ? std::string() : d->second;
    };
    auto text = [&](const std::string& v) {
      return key == "vary" ? (v.empty() ? std::string("no --vary or --lrs") : "--vary " + v) : "--" + key + " " + v;
    };
    ORDO_CHECK(value(theirs) == value(mine), "--resume: the study in ", fs::path(results).parent_path().string(),
               " was run with ", text(value(theirs)), ", this command has ", text(value(mine)),
               "; resume with the same protocol, or start another --out");
  }
}

}  // namespace

bool StudyRun::finished() const {
  if (!checkpoint) return false;
  const int64_t last = last_step(config, checkpoint->log);  // a --until-learned run may stop before --steps
  return checkpoint->step == last && static_cast<int64_t>(checkpoint->log.step.size()) == last &&
         final_lengths_pending(config, checkpoint->log).empty();
}

Study::Study(StudySpec spec, StudyOptions options) : spec_(std::move(spec)), options_(std::move(options)) {
  Cluster& world = cluster();
  if (!world.distributed()) {
    build_runs();
    lock_ = OutputLock(options_.out);  // every run checked: now the directory is ours alone
    remove_stale_temporaries(options_.out);
    return;
  }
  // Over MPI every rank builds and checks the same runs; rank 0 alone owns the directory.
  // The ranks then agree: one that failed stops them all, and the failure is said once.
  std::exception_ptr mine;
  try {
    build_runs();
    if (world.rank() == 0) {
      lock_ = OutputLock(options_.out);
      remove_stale_temporaries(options_.out);
    }
  } catch (...) {
    mine = std::current_exception();
  }
  const int64_t all_ok = world.min_over_ranks(mine ? 0 : 1);
  const int64_t rank0_ok = world.min_over_ranks(world.rank() == 0 ? (mine ? 0 : 1) : 1);
  if (all_ok) return;
  if (world.rank() == 0 && mine) std::rethrow_exception(mine);
  if (world.rank() == 0) throw Error("another rank could not set up the study; its error is printed above");
  if (!rank0_ok || !mine) throw PeerFailure("rank 0 or another rank could not set up the study");
  try {
    std::rethrow_exception(mine);
  } catch (const Error& e) {
    throw Error("rank " + std::to_string(world.rank()) + " on " + world.host() + ": " + e.what());
  }
}

void Study::build_runs() {
  std::vector<std::string> encoding_list;
  for (const EncodingInfo& e : encodings()) encoding_list.push_back(e.name);
  expand_all("tasks", spec_.tasks, task_names());
  spec_.tasks = expand_task_groups(spec_.tasks);  // --tasks chomsky: its fifteen tasks
  expand_all("encodings", spec_.encodings, encoding_list);
  check_names("tasks", spec_.tasks, task_names());
  check_names("encodings", spec_.encodings, encoding_list, true);
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
  if (resume) check_same_protocol(out + "/results.h5", shared_settings(spec_));
  for (const Variation& v : spec_.vary)
    ORDO_CHECK(!spec_.given.count(v.key), "--", v.key, " is both given and varied (--vary ", v.key,
               "=...); drop one of them");
  const auto grid_variants = variants(spec_.vary);
  const bool varies_layer_encodings = std::any_of(spec_.vary.begin(), spec_.vary.end(),
                                                  [](const Variation& v) { return v.key == "layer-encodings"; });
  for (const std::string& enc : spec_.encodings)
    ORDO_CHECK(layer_pattern(enc).empty() || (!spec_.given.count("layer-encodings") && !varies_layer_encodings),
               "--encodings ", enc, " gives one encoding per layer, as --layer-encodings does; drop one of them");
  for (const std::string& task : spec_.tasks)
    for (const std::string& enc : spec_.encodings)
      for (auto variant : grid_variants) {
        // An encoding defined for causal attention only runs causal in a bidirectional
        // grid, labelled like a varied setting; where the grid varies causal itself, its
        // causal=true cell already holds it. A layer pattern is causal when any part is.
        const std::vector<std::string> pattern = layer_pattern(enc);
        if (std::any_of(pattern.begin(), pattern.end(), [](const std::string& e) { return encoding_info(e).causal_only; }) ||
            (pattern.empty() && encoding_info(enc).causal_only)) {
          auto varied = std::find_if(variant.begin(), variant.end(), [](const auto& kv) { return kv.first == "causal"; });
          if (varied != variant.end() && !parse_bool("causal", varied->second)) continue;
          if (varied == variant.end() && !spec_.base.model.causal) variant.emplace_back("causal", "true");
        }
        for (int64_t s = 0; s < spec_.seeds; ++s) {
          StudyRun r;
          r.config = spec_.base;
          r.config.task.name = task;
          if (pattern.empty()) r.config.model.encoding = enc;
          r.config.model.layer_encodings = pattern.empty() ? r.config.model.layer_encodings : pattern;
          r.config.seed = spec_.base.seed + static_cast<uint64_t>(s);
          for (const auto& [t, steps] : spec_.task_steps)
            if (t == task) r.config.steps = steps;
          r.variant = variant_label(variant);
          r.checkpoint_path = out + "/checkpoints/" + task + "/" + enc + "/" +
                              (r.variant.empty() ? "" : r.variant + "/") + "seed" + std::to_string(r.config.seed) + ".h5";
          try {
            for (const auto& [key, value] : variant) find_setting(key)->set(r.config, value);
            ORDO_CHECK(pattern.empty() || static_cast<int64_t>(pattern.size()) == r.config.model.n_layers,
                       "--encodings ", enc, " names ", pattern.size(), " layers' encodings for a model of --layers ",
                       r.config.model.n_layers, "; give one per layer");
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
}

int64_t Study::steps_to_train() const {
  int64_t total = 0;
  for (const StudyRun& r : runs_)  // a finished run adds nothing, also one that stopped before --steps
    total += r.finished() ? 0 : r.config.steps - (r.checkpoint ? r.checkpoint->step : 0);
  return total;
}

namespace {

// One Study::run: the state its worker threads share (and, over MPI, rank 0's queue and a
// remote rank's heartbeat), each member declared with the mutex that guards it. Workers take
// runs from the grid (or, on a rank other than 0, from rank 0's queue: study/run_queue.h),
// train them, and leave when none is left or the study stops (a failure, a signal).
class Session {
 public:
  Session(const std::vector<StudyRun>& runs, const StudyOptions& options, const StudyProgress& progress,
          const std::map<std::string, std::string>& shared, const std::string& results_path, int threads, int jobs,
          int64_t total_steps)
      : runs_(runs),
        options_(options),
        progress_(progress),
        shared_(shared),
        results_path_(results_path),
        world_(cluster()),
        remote_(world_.rank() != 0),
        threads_(threads),
        jobs_(jobs),
        total_steps_(total_steps),
        total_runs_(std::to_string(runs.size())),
        t0_(std::chrono::steady_clock::now()),
        slots_(runs.size()),
        status_(static_cast<size_t>(jobs)),
        workers_left_(jobs) {
    if (world_.distributed() && !remote_) server_.emplace(world_, runs_, mu_);
    if (remote_) client_.emplace(world_);
  }

  // Trains every unfinished run; returns every run's record, in grid order (rank 0), or
  // nothing (the other ranks). Throws the first failure, or Interrupted after a signal.
  std::vector<RunRecord> run() EXCLUDES(mu_);
  int64_t trained() EXCLUDES(mu_) {
    MutexLock lock(mu_);
    return trained_;
  }
  double elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(); }

 private:
  void worker(int id) EXCLUDES(mu_);
  // The next run for worker `id`, or nullopt: none left, or the study stops.
  std::optional<size_t> next_run(int id, int& my_threads) EXCLUDES(mu_);
  void train(int id, size_t i, int& my_threads) EXCLUDES(mu_);
  bool on_step(int id, size_t i, const Trainer& trainer, const StepInfo& s, CheckpointClock& clock,
               int& my_threads) EXCLUDES(mu_);
  bool after_final_length(int id, size_t i, const Trainer& trainer, CheckpointClock& clock, int& my_threads)
      EXCLUDES(mu_);
  void show_progress() REQUIRES(mu_);
  // The run's checkpoint, and (rank 0) its curve into results.h5.
  void save_state(size_t i, const Trainer& trainer, CheckpointClock& clock) REQUIRES(mu_);
  void run_failed(size_t i, const Trainer* trainer, std::exception_ptr error) REQUIRES(mu_);
  void run_stopped(size_t i) REQUIRES(mu_);
  void run_finished(size_t i, const Trainer& trainer) REQUIRES(mu_);
  // Rank 0 over MPI: another rank's run ended, its checkpoint on the shared filesystem.
  void remote_run_ended(int rank, size_t i, bool done) REQUIRES(mu_);
  std::optional<size_t> take_next() REQUIRES(mu_);
  void share_threads(int& my_threads) REQUIRES(mu_);
  void fail(std::exception_ptr error) REQUIRES(mu_);
  void save_results() REQUIRES(mu_);
  void message(const std::string& text) REQUIRES(mu_) {
    if (progress_.message) progress_.message(text);
  }
  std::string runs_done_text() const REQUIRES(mu_) {
    return "[" + std::to_string(runs_done_) + "/" + total_runs_ + "] ";
  }

  // Fixed for the whole run, read by every thread without a lock.
  const std::vector<StudyRun>& runs_;
  const StudyOptions& options_;
  const StudyProgress& progress_;
  const std::map<std::string, std::string>& shared_;
  const std::string results_path_;
  Cluster& world_;
  const bool remote_;  // a rank other than 0: trains what rank 0 hands it
  const int threads_, jobs_;
  const int64_t total_steps_;
  const std::string total_runs_;
  const std::chrono::steady_clock::time_point t0_;
  std::optional<QueueClient> client_;  // ranks other than 0 (thread-safe: Cluster serialises sends)

  // mu_ guards everything below, and also the progress callbacks and every HDF5 call
  // (Debian's HDF5 is not built thread-safe).
  Mutex mu_;
  std::optional<QueueServer> server_;  // rank 0 over MPI: the queue (its state guarded by mu_ too)
  std::vector<std::optional<RunRecord>> slots_ GUARDED_BY(mu_);  // finished or interrupted runs, grid order
  std::vector<std::string> status_ GUARDED_BY(mu_);             // each worker's run, for the progress line
  size_t next_ GUARDED_BY(mu_) = 0;                             // take_next's place in the grid
  int workers_left_ GUARDED_BY(mu_);
  int runs_done_ GUARDED_BY(mu_) = 0, trained_ GUARDED_BY(mu_) = 0;
  int sharing_processes_ GUARDED_BY(mu_) = 0;  // ordo processes on these cores when last said
  int64_t steps_done_ GUARDED_BY(mu_) = 0;
  bool stopping_ GUARDED_BY(mu_) = false;    // no run starts, every run checkpoints and stops
  std::exception_ptr failure_ GUARDED_BY(mu_);  // the first failure, rethrown at the end
  int64_t unreported_steps_ GUARDED_BY(mu_) = 0;  // a remote rank's progress not yet sent
  std::chrono::steady_clock::time_point last_report_ GUARDED_BY(mu_) = std::chrono::steady_clock::now();
  bool workers_done_ GUARDED_BY(mu_) = false;  // a remote rank's heartbeat stops
};

// The one place a run's record is made, from whichever log holds its curves.
RunRecord record_of(const StudyRun& r, const RunLog& log) {
  return RunRecord{r.config.task.name, encoding_label(r.config.model), r.config.seed, log, r.settings, r.variant};
}

std::vector<RunRecord> Session::run() {
  {
    MutexLock lock(mu_);
    for (size_t i = 0; i < runs_.size() && !remote_; ++i) {
      const StudyRun& r = runs_[i];
      if (!r.finished()) continue;
      slots_[i] = record_of(r, r.checkpoint->log);
      ++runs_done_;
      message(runs_done_text() + r.label() + ": finished earlier, skipped (" + eval_summary(r.checkpoint->log) + ")");
    }
    if (jobs_ > 1 && !world_.distributed())
      message(std::to_string(jobs_) + " runs at a time, " +
              (threads_ >= jobs_ ? std::to_string(threads_ / jobs_) : std::string("1")) +
              " OpenMP thread(s) each (--jobs; a run's numbers do not depend on it)");
  }
  // Rank 0 of an MPI job also serves the queue: the other ranks ask it for runs and tell it
  // what became of them.
  std::thread coordinator;
  if (server_)
    coordinator = std::thread([this]() {
      QueueHandlers handlers;
      handlers.stopping = [this]() {
        mu_.assert_held();
        return stopping_;
      };
      handlers.stop = [this]() {
        mu_.assert_held();
        stopping_ = true;
      };
      handlers.fail = [this](std::exception_ptr e) {
        mu_.assert_held();
        fail(e);
      };
      handlers.take_next = [this]() {
        mu_.assert_held();
        return take_next();
      };
      handlers.run_ended = [this](int rank, size_t i, bool done) {
        mu_.assert_held();
        remote_run_ended(rank, i, done);
      };
      handlers.progress = [this](int rank, int64_t steps, const std::string& status) {
        mu_.assert_held();
        steps_done_ += steps;
        if (progress_.update)
          progress_.update(steps_done_, total_steps_,
                           "runs " + std::to_string(runs_done_) + "/" + total_runs_ + " done | rank " +
                               std::to_string(rank) + ": " + status,
                           elapsed());
      };
      server_->serve(handlers);  // takes mu_ for each message and calls the handlers with it held
    });
  std::thread heartbeat;  // a rank other than 0 says it is alive, whatever its runs are doing
  if (remote_)
    heartbeat = std::thread([this]() {
      for (;;) {
        {
          MutexLock lock(mu_);
          if (workers_done_) return;
        }
        client_->alive();
        std::this_thread::sleep_for(std::chrono::duration<double>(QueueClient::kHeartbeatSeconds));
      }
    });
  if (jobs_ == 1) {
    worker(0);
    omp_set_num_threads(threads_);
  } else {
    std::vector<std::thread> pool;
    for (int id = 0; id < jobs_; ++id) pool.emplace_back([this, id]() { worker(id); });
    for (std::thread& t : pool) t.join();
  }
  if (coordinator.joinable()) coordinator.join();

  if (remote_) {  // rank 0 says how the study ended; it reports any failure, once
    {
      MutexLock lock(mu_);
      workers_done_ = true;
    }
    heartbeat.join();
    const std::string end = client_->finish();
    MutexLock lock(mu_);
    if (failure_) std::rethrow_exception(failure_);
    if (interrupt_signal() != 0) throw Interrupted(interrupt_signal(), signal_name(interrupt_signal()));
    if (end != "ok") throw PeerFailure(end);
    return {};
  }
  const std::string lost = server_ ? server_->lost() : "";  // ranks that went silent, with the runs they held
  MutexLock lock(mu_);
  if (server_) {
    const std::string end = failure_ || !lost.empty() ? "failed" : interrupt_signal() != 0 ? "stopped" : "ok";
    lock.unlock();
    server_->send_final(end);
    lock.lock();
    if (!lost.empty() && !failure_)
      failure_ = std::make_exception_ptr(Error(lost + "; " + std::to_string(runs_done_) + " of " + total_runs_ +
                                               " runs finished and kept; continue with --resume"));
  }
  if (failure_) std::rethrow_exception(failure_);
  if (interrupt_signal() != 0) {
    const int64_t unfinished = static_cast<int64_t>(runs_.size()) - runs_done_;
    throw Interrupted(interrupt_signal(),
                      signal_name(interrupt_signal()) + ": " + std::to_string(runs_done_) + " of " + total_runs_ +
                          " runs finished, the " + std::to_string(unfinished) +
                          " others checkpointed or not started; continue with --resume");
  }
  std::vector<RunRecord> records;
  for (auto& s : slots_) records.push_back(std::move(*s));
  return records;
}

// One exit: the loop ends when no run is left or the study stops (every failure sets
// stopping_, so a failed run's worker asks for no other).
void Session::worker(int id) {
  int my_threads = 0;
  while (const std::optional<size_t> i = next_run(id, my_threads)) train(id, *i, my_threads);
  MutexLock lock(mu_);
  --workers_left_;
  status_[static_cast<size_t>(id)].clear();
}

std::optional<size_t> Session::next_run(int id, int& my_threads) {
  MutexLock lock(mu_);
  if (interrupt_signal() != 0) stopping_ = true;  // no new run after a signal
  if (stopping_) return std::nullopt;
  std::optional<size_t> run;
  if (remote_) {  // ask rank 0's queue, without holding up this rank's other runs
    lock.unlock();
    run = client_->request(id);
    lock.lock();
    if (run && stopping_) {  // stopped while asking: given back, not started
      client_->stopped(*run);
      return std::nullopt;
    }
  } else {
    run = take_next();
  }
  if (run) share_threads(my_threads);
  return run;
}

void Session::train(int id, size_t i, int& my_threads) {
  const StudyRun& r = runs_[i];
  std::unique_ptr<Trainer> trainer;
  CheckpointClock clock(options_.ckpt_minutes);
  std::exception_ptr error;
  try {
    trainer = std::make_unique<Trainer>(r.config);
    if (r.checkpoint) trainer->restore(*r.checkpoint);
    {
      MutexLock lock(mu_);
      fs::create_directories(fs::path(r.checkpoint_path).parent_path());
    }
    trainer->run([&](const StepInfo& s) { return on_step(id, i, *trainer, s, clock, my_threads); },
                 [&] { return after_final_length(id, i, *trainer, clock, my_threads); });
  } catch (...) {
    error = std::current_exception();
  }
  MutexLock lock(mu_);
  status_[static_cast<size_t>(id)].clear();
  if (error) run_failed(i, trainer.get(), error);
  else if (!trainer->finished()) run_stopped(i);
  else run_finished(i, *trainer);
}

// After each training step: the progress line, the checkpoints, and whether to go on.
bool Session::on_step(int id, size_t i, const Trainer& trainer, const StepInfo& s, CheckpointClock& clock,
                      int& my_threads) {
  const StudyRun& r = runs_[i];
  MutexLock lock(mu_);
  if (interrupt_signal() != 0) stopping_ = true;            // checkpointed below, then stopped
  if (remote_ && client_->stop_requested()) stopping_ = true;  // another rank failed or stopped
  share_threads(my_threads);
  char text[160];
  std::snprintf(text, sizeof text, "%s %lld/%lld loss %.4f", r.label().c_str(), static_cast<long long>(s.step + 1),
                static_cast<long long>(s.total), s.loss);
  status_[static_cast<size_t>(id)] = text;
  ++steps_done_;
  if (remote_) {  // rank 0 shows the progress of every rank, told once a second
    ++unreported_steps_;
    if (std::chrono::steady_clock::now() - last_report_ > std::chrono::seconds(1)) {
      client_->progress(unreported_steps_, text);
      unreported_steps_ = 0;
      last_report_ = std::chrono::steady_clock::now();
    }
  } else {
    show_progress();
  }
  // Stopping (another run failed, a signal): keep this run's state so that Resume continues it.
  const int64_t every = options_.ckpt_every;
  const bool by_step = every > 0 && (s.step + 1) % every == 0;
  const bool last = trainer.trained();  // before the final sweep, if one is left
  if (stopping_ || (last ? !trainer.finished() : by_step || clock.due())) save_state(i, trainer, clock);
  return !stopping_;
}

// After each length of the final sweep, which can take hours: a checkpoint when due, and
// whether to go on.
bool Session::after_final_length(int id, size_t i, const Trainer& trainer, CheckpointClock& clock,
                                 int& my_threads) {
  const StudyRun& r = runs_[i];
  MutexLock lock(mu_);
  if (interrupt_signal() != 0) stopping_ = true;
  if (remote_ && client_->stop_requested()) stopping_ = true;
  share_threads(my_threads);  // the cores of runs that ended meanwhile
  const size_t all = r.config.eval_lens_final.size();
  status_[static_cast<size_t>(id)] = r.label() + " final lengths " +
                                     std::to_string(all - final_lengths_pending(r.config, trainer.log()).size()) +
                                     "/" + std::to_string(all);
  if (!remote_) show_progress();
  if (stopping_ || clock.due()) save_state(i, trainer, clock);
  return !stopping_;
}

// "runs k/N done | <run> 310/1200 loss 0.5 | ...": one status per run in training.
void Session::show_progress() {
  if (!progress_.update) return;
  std::string line = "runs " + std::to_string(runs_done_) + "/" + total_runs_ + " done";
  for (const std::string& st : status_)
    if (!st.empty()) line += " | " + st;
  progress_.update(steps_done_, total_steps_, line, elapsed());
}

void Session::save_state(size_t i, const Trainer& trainer, CheckpointClock& clock) {
  const StudyRun& r = runs_[i];
  save_checkpoint(r.checkpoint_path, trainer.checkpoint());
  if (!remote_) {  // rank 0 writes results.h5; the others' curves reach it by their checkpoints
    slots_[i] = record_of(r, trainer.log());
    save_results();
  }
  clock.reset();
}

void Session::run_failed(size_t i, const Trainer* trainer, std::exception_ptr error) {
  const StudyRun& r = runs_[i];
  stopping_ = true;
  if (remote_) {  // rank 0 names the run and this rank, and stops the others
    std::string what = "unknown exception";
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    client_->failed(i, what);
    fail(std::make_exception_ptr(PeerFailure(r.label() + ": " + what)));
    return;
  }
  if (trainer) {  // the curve up to the fault; rerun with Resume after fixing the settings
    slots_[i] = record_of(r, trainer->log());
    try {
      save_results();
    } catch (...) {
    }
  }
  try {  // named by its run: other runs may have been training beside it
    std::rethrow_exception(error);
  } catch (const Error& e) {
    fail(std::make_exception_ptr(Error((world_.distributed() ? "rank 0: " : "") + r.label() + ": " + e.what())));
  } catch (...) {
    fail(error);
  }
}

// Stopped by another run's failure or a signal, and checkpointed.
void Session::run_stopped(size_t i) {
  if (remote_) client_->stopped(i);
}

void Session::run_finished(size_t i, const Trainer& trainer) {
  const StudyRun& r = runs_[i];
  if (remote_) {  // the checkpoint holds the log: rank 0 reads it from the shared directory
    try {
      save_checkpoint(r.checkpoint_path, trainer.checkpoint());
      client_->done(i);
    } catch (const std::exception& e) {
      client_->failed(i, e.what());
      fail(std::make_exception_ptr(PeerFailure(r.label() + ": " + e.what())));
      stopping_ = true;
      return;
    }
    ++runs_done_;
    ++trained_;
    return;
  }
  try {  // the log reaches results.h5 even when the checkpoint cannot be written
    slots_[i] = record_of(r, trainer.log());
    std::exception_ptr checkpoint_failure;
    try {
      save_checkpoint(r.checkpoint_path, trainer.checkpoint());
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
    fail(std::current_exception());
    stopping_ = true;
    return;
  }
  ++runs_done_;
  ++trained_;
  steps_done_ += r.config.steps - trainer.step();  // a --until-learned run that stopped early: its steps not taken
  message(runs_done_text() + r.label() + ": " + eval_summary(trainer.log()) + " (" +
          format_duration(trainer.log().total_wall_seconds) + ")");
}

void Session::remote_run_ended(int rank, size_t i, bool done) {
  const StudyRun& r = runs_[i];
  if (!fs::exists(r.checkpoint_path)) return;  // stopped before its first checkpoint
  const Checkpoint ck = load_checkpoint(r.checkpoint_path);
  slots_[i] = record_of(r, ck.log);
  save_results();
  if (!done) return;
  ORDO_CHECK(ck.step == last_step(r.config, ck.log), "rank ", rank, " reported ", r.label(),
             " finished, but its checkpoint ", r.checkpoint_path, " is at step ", ck.step, " of ",
             last_step(r.config, ck.log));
  ORDO_CHECK(final_lengths_pending(r.config, ck.log).empty(), "rank ", rank, " reported ", r.label(),
             " finished, but its checkpoint ", r.checkpoint_path, " lacks ",
             final_lengths_pending(r.config, ck.log).size(), " of its --eval-lens-final lengths");
  ++runs_done_;
  ++trained_;
  steps_done_ += r.config.steps - ck.step;  // a --until-learned run that stopped early: its steps not taken
  message(runs_done_text() + r.label() + ": " + eval_summary(ck.log) + " (" + format_duration(ck.log.total_wall_seconds) +
          ", rank " + std::to_string(rank) + ")");
}

std::optional<size_t> Session::take_next() {
  while (next_ < runs_.size() && runs_[next_].finished()) ++next_;
  if (next_ == runs_.size()) return std::nullopt;
  return next_++;
}

// The threads of workers that left go to the rest, within this process's share of the cores
// (cluster/shared_cores.h).
void Session::share_threads(int& my_threads) {
  const CoreShare share = shared_cores();
  if (share.processes != sharing_processes_) {
    if (sharing_processes_ != 0 || share.processes > 1) message(describe(share));
    sharing_processes_ = share.processes;
  }
  const int want = std::max(1, std::min(threads_, share.threads) / workers_left_);
  if (want != my_threads) omp_set_num_threads(my_threads = want);
}

void Session::fail(std::exception_ptr error) {
  if (!failure_) failure_ = error;
}

void Session::save_results() {
  std::vector<RunRecord> all;
  for (const auto& s : slots_)
    if (s) all.push_back(*s);
  write_results(results_path_, all, shared_);
}

}  // namespace

StudyOutcome Study::run(const StudyProgress& progress) {
  const std::string& out = options_.out;
  Cluster& world = cluster();
  const bool remote = world.rank() != 0;  // a rank other than 0: trains what rank 0 hands it
  if (!remote) {
    if (options_.existing == ExistingOutput::Replace)
      for (const char* name : {"results.h5", "summary.md", "report.html", "checkpoints", "plots"}) fs::remove_all(out + "/" + name);
    fs::create_directories(out + "/checkpoints");
  }
  world.barrier();  // the directory is ready before any rank writes into it

  StudyOutcome outcome;
  outcome.results_path = out + "/results.h5";
  outcome.summary_path = out + "/summary.md";
  outcome.plot_dir = out + "/plots";

  const std::map<std::string, std::string> shared = shared_settings(spec_);

  // Runs train `jobs` at a time, each on a worker thread with its share of the OpenMP threads
  // (a run's numbers do not depend on its thread count, so neither do the results).
  // Over MPI, a rank's runs share the cores its host gives it (one rank per core: one run
  // each); alone, the process's own limit.
  const int threads = world.distributed() ? shared_cores().threads : shared_cores().limit;
  int64_t pending = 0;
  for (const StudyRun& r : runs_) pending += r.finished() ? 0 : 1;
  if (world.distributed()) pending = std::max<int64_t>(1, pending / world.size());
  const int jobs = static_cast<int>(
      std::max<int64_t>(1, std::min<int64_t>(options_.jobs > 0 ? options_.jobs : threads, pending)));

  Session session(runs_, options_, progress, shared, outcome.results_path, threads, jobs, steps_to_train());
  outcome.records = session.run();
  outcome.trained = session.trained();
  outcome.seconds = session.elapsed();
  if (remote) return outcome;
  if (outcome.trained == 0) write_results(outcome.results_path, outcome.records, shared);  // everything was skipped
  outcome.skipped = static_cast<int64_t>(runs_.size()) - outcome.trained;
  for (const RunRecord& r : outcome.records) outcome.run_seconds += r.log.total_wall_seconds;

  // The figures, summary.md, report.html and the findings: from the logs, never by hand, and
  // from the same code as `ordo report` (report/study_report.h).
  std::map<std::string, std::string> attributes = shared;
  attributes["format"] = "ordo-results";
  const StudyReport report = write_study_report(options_.out, outcome.records, attributes, outcome.seconds);
  outcome.findings = report.findings;
  outcome.findings_legend = report.findings_legend;
  outcome.summary_path = report.summary_path;
  outcome.report_path = report.report_path;
  outcome.plot_dir = report.plot_dir;
  outcome.plots_rendered = report.plots_rendered;
  outcome.warnings = report.warnings;
  return outcome;
}

}  // namespace ordo
