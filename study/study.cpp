// study/study.cpp: building, scheduling and reporting a grid of runs (see study/study.h).
#include "study/study.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include <omp.h>

#include "core/cluster.h"
#include "core/parallel.h"
#include "core/shared_cores.h"
#include "core/strings.h"
#include "layers/posenc/encoding.h"
#include "report/atomic_file.h"
#include "report/checkpoint_file.h"
#include "report/study_report.h"
#include "study/interrupt.h"
#include "study/output_lock.h"
#include "train/settings.h"
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
// The messages of a study over MPI (study/study.h, "Over MPI"). Ranks other than 0 ask
// rank 0 for runs (request -> assign), and report each run done (its checkpoint is then on
// the shared filesystem), stopped at a checkpoint, or failed; they send their progress and a
// heartbeat; rank 0 tells them to stop, and at the end how the study ended.
constexpr int kTagRequest = 1, kTagDone = 2, kTagStopped = 3, kTagFailed = 4, kTagProgress = 5, kTagFinished = 6,
              kTagStop = 7, kTagFinal = 8, kTagAlive = 9;
constexpr int kTagAssign = 100;  // + the asking worker's id
// A rank silent this long is taken for dead: after a signal (mpirun signals every rank when
// one dies; the living answer within a heartbeat), or at any time (a launcher that lets the
// others run on).
constexpr double kHeartbeatSeconds = 0.1, kSilentAfterSignal = 0.35, kSilentEver = 120;

double seconds_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// Rank 0's side of the queue, until every other rank has finished or gone silent.
template <class Take, class Report>
void serve_queue(Cluster& world, std::mutex& mu, bool& stopping, std::exception_ptr& failure,
                 std::map<int, std::set<size_t>>& in_flight, std::string& lost, const std::vector<StudyRun>& runs,
                 Take& take_next, Report report) {
  using clock = std::chrono::steady_clock;
  const int n = world.size();
  std::vector<bool> finished(static_cast<size_t>(n), false);
  std::vector<clock::time_point> seen(static_cast<size_t>(n), clock::now());
  int left = n - 1;
  bool stop_sent = false;
  std::optional<clock::time_point> signalled;
  while (left > 0) {
    // Polled every millisecond: rank 0 trains too, and a faster poll cost it measurably.
    const std::optional<ClusterMessage> m = world.poll();
    if (!m) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::lock_guard<std::mutex> lock(mu);
    const auto now = clock::now();
    if (interrupt_signal() != 0) {
      stopping = true;
      if (!signalled) signalled = now;
    }
    if (stopping && !stop_sent) {
      for (int r = 1; r < n; ++r)
        if (!finished[static_cast<size_t>(r)]) world.send(r, kTagStop, "");
      stop_sent = true;
    }
    for (int r = 1; r < n; ++r) {
      const double silent = seconds_between(seen[static_cast<size_t>(r)], now);
      if (finished[static_cast<size_t>(r)] || !(silent > kSilentEver || (signalled && silent > kSilentAfterSignal)))
        continue;
      std::string held;
      for (size_t i : in_flight[r]) held += (held.empty() ? "" : ", ") + runs[i].label();
      const std::string text = "rank " + std::to_string(r) + " went silent (killed or crashed) while training " +
                               (held.empty() ? std::string("no run") : held);
      std::fprintf(stderr, "ordo: %s\n", text.c_str());  // now: its launcher may end this rank too
      lost += (lost.empty() ? "" : "; ") + text;
      finished[static_cast<size_t>(r)] = true;
      --left;
      stopping = true;
    }
    if (!m) continue;
    seen[static_cast<size_t>(m->from)] = now;
    switch (m->tag) {
      case kTagRequest: {
        std::optional<size_t> i;
        if (!stopping) i = take_next();
        if (i) in_flight[m->from].insert(*i);
        world.send(m->from, kTagAssign + std::stoi(m->bytes), i ? std::to_string(*i) : "-1");
        break;
      }
      case kTagDone:
      case kTagStopped:
      case kTagProgress:
        try {
          report(m->from, *m);
        } catch (...) {
          if (!failure) failure = std::current_exception();
          stopping = true;
        }
        break;
      case kTagFailed: {
        const size_t nl = m->bytes.find('\n');
        const size_t i = static_cast<size_t>(std::stoll(m->bytes.substr(0, nl)));
        in_flight[m->from].erase(i);
        if (!failure)
          failure = std::make_exception_ptr(
              Error("rank " + std::to_string(m->from) + ": " + runs[i].label() + ": " + m->bytes.substr(nl + 1)));
        stopping = true;
        break;
      }
      case kTagFinished:
        if (!finished[static_cast<size_t>(m->from)]) --left;
        finished[static_cast<size_t>(m->from)] = true;
        break;
      default:  // kTagAlive: the time seen is all it says
        break;
    }
  }
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
  Cluster& world = cluster();
  const bool remote = world.rank() != 0;  // a rank other than 0: trains what rank 0 hands it
  if (!remote) {
    if (options_.existing == ExistingOutput::Replace)
      for (const char* name : {"results.h5", "summary.md", "report.html", "checkpoints", "plots"}) fs::remove_all(out + "/" + name);
    fs::create_directories(out + "/checkpoints");
  }
  world.barrier();  // the directory is ready before any rank writes into it
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
  // Over MPI, a rank's runs share the cores its host gives it (one rank per core: one run
  // each); alone, the process's own limit.
  const int threads = world.distributed() ? shared_cores().threads : shared_cores().limit;
  int64_t pending = 0;
  for (const StudyRun& r : runs_) pending += r.finished() ? 0 : 1;
  if (world.distributed()) pending = std::max<int64_t>(1, pending / world.size());
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
  // Over MPI: where each run went (rank 0's queue), and a rank's progress not yet reported.
  std::map<int, std::set<size_t>> in_flight;
  int64_t unreported_steps = 0;
  auto last_report = std::chrono::steady_clock::now();
  const std::string total_runs = std::to_string(runs_.size());
  auto save_results = [&]() {  // with mu held
    std::vector<RunRecord> all;
    for (const auto& s : slots)
      if (s) all.push_back(*s);
    write_results(outcome.results_path, all, shared);
  };
  for (size_t i = 0; i < runs_.size() && !remote; ++i) {
    const StudyRun& r = runs_[i];
    if (!r.finished()) continue;
    slots[i] = RunRecord{r.config.task.name, r.config.model.encoding, r.config.seed, r.checkpoint->log, r.settings, r.variant};
    ++runs_done;
    message("[" + std::to_string(runs_done) + "/" + total_runs + "] " + r.label() + ": finished earlier, skipped (" +
            eval_text(r.checkpoint->log) + ")");
  }
  if (jobs > 1 && !world.distributed())
    message(std::to_string(jobs) + " runs at a time, " +
            (threads >= jobs ? std::to_string(threads / jobs) : std::string("1")) +
            " OpenMP thread(s) each (--jobs; a run's numbers do not depend on it)");

  auto take_next = [&]() -> std::optional<size_t> {  // with mu held: the grid's next unfinished run
    while (next < runs_.size() && runs_[next].finished()) ++next;
    if (next == runs_.size()) return std::nullopt;
    return next++;
  };
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
        std::unique_lock<std::mutex> lock(mu);
        if (interrupt_signal() != 0) stopping = true;  // no new run after a signal
        std::optional<size_t> taken;
        if (!stopping && remote) {  // ask rank 0's queue, without holding up this rank's other runs
          lock.unlock();
          world.send(0, kTagRequest, std::to_string(id));
          const std::optional<ClusterMessage> reply = world.wait(kTagAssign + id, 0);
          lock.lock();
          const long long assigned = std::stoll(reply->bytes);
          if (assigned >= 0 && stopping) world.send(0, kTagStopped, std::to_string(assigned));  // not started
          if (assigned >= 0 && !stopping) taken = static_cast<size_t>(assigned);
        } else if (!stopping) {
          taken = take_next();
          if (taken && world.distributed()) in_flight[0].insert(*taken);
        }
        if (!taken) {
          --workers_left;
          status[id].clear();
          return;
        }
        i = *taken;
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
          if (remote && world.poll(kTagStop, 0)) stopping = true;  // another rank failed or stopped
          share_threads();
          char text[160];
          std::snprintf(text, sizeof text, "%s %lld/%lld loss %.4f", r.label().c_str(),
                        static_cast<long long>(s.step + 1), static_cast<long long>(s.total), s.loss);
          status[id] = text;
          std::string line = "runs " + std::to_string(runs_done) + "/" + total_runs + " done";
          for (const std::string& st : status)
            if (!st.empty()) line += " | " + st;
          ++steps_done;
          if (remote) {  // rank 0 shows the progress of every rank, told once a second
            ++unreported_steps;
            if (std::chrono::steady_clock::now() - last_report > std::chrono::seconds(1)) {
              world.send(0, kTagProgress, std::to_string(unreported_steps) + "\n" + text);
              unreported_steps = 0;
              last_report = std::chrono::steady_clock::now();
            }
          } else if (progress.update) {
            progress.update(steps_done, total_steps, line, elapsed());
          }
          // Another run failed: keep this one's state so that Resume continues it.
          const int64_t every = options_.ckpt_every;
          const bool by_step = every > 0 && (s.step + 1) % every == 0;
          const bool checkpoint = stopping || ((by_step || clock.due()) && s.step + 1 < s.total);
          if (checkpoint) {
            save_checkpoint(r.checkpoint_path, trainer->checkpoint());
            if (!remote) {  // rank 0 writes results.h5; the others' curves reach it by their checkpoints
              slots[i] = record();
              save_results();
            }
            clock.reset();
          }
          return !stopping;
        });
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (remote) {  // rank 0 names the run and this rank, and stops the others
          std::string what = "unknown exception";
          try {
            throw;
          } catch (const std::exception& e) {
            what = e.what();
          } catch (...) {
          }
          world.send(0, kTagFailed, std::to_string(i) + "\n" + what);
          failure = std::make_exception_ptr(PeerFailure(r.label() + ": " + what));
          stopping = true;
          --workers_left;
          status[id].clear();
          return;
        }
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
            const std::string where = world.distributed() ? "rank 0: " : "";
            failure = std::make_exception_ptr(Error(where + r.label() + ": " + e.what()));
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
      if (trainer->step() < r.config.steps) {  // stopped by another run's failure, checkpointed
        if (remote) world.send(0, kTagStopped, std::to_string(i));
        else in_flight[0].erase(i);
        continue;
      }
      if (remote) {  // the checkpoint holds the log: rank 0 reads it from the shared directory
        try {
          save_checkpoint(r.checkpoint_path, trainer->checkpoint());
          world.send(0, kTagDone, std::to_string(i));
        } catch (const std::exception& e) {
          world.send(0, kTagFailed, std::to_string(i) + "\n" + e.what());
          failure = std::make_exception_ptr(PeerFailure(r.label() + ": " + e.what()));
          stopping = true;
          --workers_left;
          return;
        }
        ++runs_done;
        ++trained;
        continue;
      }
      in_flight[0].erase(i);
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
  // Rank 0 of an MPI job also serves the queue: the other ranks ask it for runs and tell it
  // what became of them (study/study.h, "Over MPI").
  std::thread coordinator;
  std::string lost;  // ranks that went silent, with the runs they held
  if (world.distributed() && !remote)
    coordinator = std::thread([&]() {
      serve_queue(world, mu, stopping, failure, in_flight, lost, runs_, take_next, [&](int from, const ClusterMessage& m) {
        // with mu held: a rank finished, stopped or progressed
        const size_t i = static_cast<size_t>(std::stoll(m.bytes));
        const StudyRun& r = runs_[i];
        if (m.tag == kTagProgress) {
          const size_t nl = m.bytes.find('\n');
          steps_done += std::stoll(m.bytes.substr(0, nl));
          if (progress.update)
            progress.update(steps_done, total_steps,
                            "runs " + std::to_string(runs_done) + "/" + total_runs + " done | rank " +
                                std::to_string(from) + ": " + m.bytes.substr(nl + 1),
                            elapsed());
          return;
        }
        in_flight[from].erase(i);
        if (!fs::exists(r.checkpoint_path)) return;  // stopped before its first checkpoint
        const Checkpoint ck = load_checkpoint(r.checkpoint_path);
        slots[i] = RunRecord{r.config.task.name, r.config.model.encoding, r.config.seed, ck.log, r.settings, r.variant};
        save_results();
        if (m.tag != kTagDone) return;
        ORDO_CHECK(ck.step == r.config.steps, "rank ", from, " reported ", r.label(), " finished, but its checkpoint ",
                   r.checkpoint_path, " is at step ", ck.step, " of ", r.config.steps);
        ++runs_done;
        ++trained;
        message("[" + std::to_string(runs_done) + "/" + total_runs + "] " + r.label() + ": " + eval_text(ck.log) +
                " (" + format_duration(ck.log.total_wall_seconds) + ", rank " + std::to_string(from) + ")");
      });
    });
  std::thread heartbeat;  // a rank other than 0 says it is alive, whatever its runs are doing
  bool workers_done = false;
  if (remote)
    heartbeat = std::thread([&]() {
      for (;;) {
        {
          std::lock_guard<std::mutex> lock(mu);
          if (workers_done) return;
        }
        world.send(0, kTagAlive, "");
        std::this_thread::sleep_for(std::chrono::duration<double>(kHeartbeatSeconds));
      }
    });
  if (jobs == 1) {
    worker(0);
    omp_set_num_threads(threads);
  } else {
    std::vector<std::thread> pool;
    for (int id = 0; id < jobs; ++id) pool.emplace_back(worker, id);
    for (std::thread& t : pool) t.join();
  }
  if (coordinator.joinable()) coordinator.join();
  if (remote) {  // rank 0 says how the study ended; it reports any failure, once
    {
      std::lock_guard<std::mutex> lock(mu);
      workers_done = true;
    }
    heartbeat.join();
    world.send(0, kTagFinished, "");
    const std::optional<ClusterMessage> end = world.wait(kTagFinal, 0);
    if (failure) std::rethrow_exception(failure);
    if (interrupt_signal() != 0) throw Interrupted(interrupt_signal(), signal_name(interrupt_signal()));
    if (end->bytes != "ok") throw PeerFailure(end->bytes);
    outcome.trained = trained;
    outcome.seconds = elapsed();
    return outcome;
  }
  if (world.distributed()) {
    const std::string end = failure || !lost.empty() ? "failed" : interrupt_signal() != 0 ? "stopped" : "ok";
    for (int r = 1; r < world.size(); ++r)
      if (lost.find("rank " + std::to_string(r) + " ") == std::string::npos) world.send(r, kTagFinal, end);
    if (!lost.empty() && !failure)
      failure = std::make_exception_ptr(Error(lost + "; " + std::to_string(runs_done) + " of " + total_runs +
                                              " runs finished and kept; continue with --resume"));
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
