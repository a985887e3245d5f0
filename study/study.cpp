// study/study.cpp: building and reporting a grid of runs (see study/study.h); training it is
// study/session.cpp.
#include "study/study.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

#include "cluster/cluster.h"
#include "cluster/shared_cores.h"
#include "cluster/tags.h"
#include "core/strings.h"
#include "layers/model.h"
#include "layers/posenc/encoding.h"
#include "io/checkpoint_file.h"
#include "report/rate_selection.h"
#include "report/study_report.h"
#include "study/output_lock.h"
#include "study/session.h"
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
LayerEncodings layer_pattern(const std::string& entry) {
  return LayerEncodings::is_pattern(entry) ? LayerEncodings::parse(entry, "--encodings") : LayerEncodings{};
}

void check_names(const char* flag, const std::vector<std::string>& items, const std::vector<std::string>& known,
                 bool patterns = false) {
  ORDO_CHECK(!items.empty(), "--", flag, " needs at least one name (or all); known: ", join(known));
  std::set<std::string> seen;
  for (const std::string& item : items) {
    const LayerEncodings parts = patterns ? layer_pattern(item) : LayerEncodings{};
    for (const std::string& name : parts.empty() ? std::vector<std::string>{item} : parts.names())
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
  if (spec.kept_seeds > 0) {
    shared["kept-seeds"] = std::to_string(spec.kept_seeds);
    shared["max-seeds"] = std::to_string(spec.max_seeds > 0 ? spec.max_seeds : 4 * spec.kept_seeds);
  }
  if (spec.lr_seeds > 0) shared["lr-seeds"] = std::to_string(spec.lr_seeds);
  if (!spec.task_steps.empty()) shared["task-steps"] = task_steps_text(spec.task_steps);
  shared["first_seed"] = std::to_string(spec.base.seed);
  // What the encodings meant to the runs recorded here (layers/posenc/encoding.h): a resumed
  // study reuses a record without a checkpoint only where its encoding has not changed since.
  shared["encodings_revision"] = std::to_string(kEncodingsRevision);
  return shared;
}

// Resuming a study under another protocol would mix runs stopped by different rules, or
// choose among other learning rates: refused before anything runs. A file written before a
// setting existed holds its default.
void check_same_protocol(const std::string& results, const std::map<std::string, std::string>& mine) {
  std::error_code ec;
  if (!fs::exists(results, ec)) return;
  std::map<std::string, std::string> theirs;
  try {
    theirs = read_results_attributes(results);
  } catch (const Error& e) {
    fail("--resume: ", e.what(), "; move ", results, " away to resume from the checkpoints alone");
  }
  const std::map<std::string, std::string> defaults = to_settings(TrainConfig{});
  for (const std::string key : {"until-learned", "learned-at", "patience", "vary", "lr-seeds"}) {
    auto value = [&](const std::map<std::string, std::string>& m) {
      auto it = m.find(key);
      if (it != m.end()) return it->second;
      auto d = defaults.find(key);
      return d == defaults.end() ? std::string() : d->second;
    };
    auto text = [&](const std::string& v) {
      if (key == "vary") return v.empty() ? std::string("no --vary or --lrs") : "--vary " + v;
      if (key == "lr-seeds" && v.empty()) return std::string("no --lr-seeds");
      return "--" + key + " " + v;
    };
    ORDO_CHECK(value(theirs) == value(mine), "--resume: the study in ", fs::path(results).parent_path().string(),
               " was run with ", text(value(theirs)), ", this command has ", text(value(mine)),
               "; resume with the same protocol, or start another --out");
  }
}

// Whether a log ends at step `last`: trained to it, every length's last evaluation there (a
// run's last step is an evaluation step; a run that failed in that evaluation lacks it).
bool log_ends_at(const RunLog& log, int64_t last) {
  if (log.step.empty() || log.step.back() != last || log.eval.empty()) return false;
  return std::all_of(log.eval.begin(), log.eval.end(),
                     [&](const auto& kv) { return !kv.second.empty() && kv.second.back().step == last; });
}

// Whether a results record is of a run that ended by its own settings (its --steps, or its
// --until-learned stop), whatever the settings of the study reading it.
bool ended_as_recorded(const RunRecord& rec) {
  if (rec.log.stop_step > 0) return log_ends_at(rec.log, rec.log.stop_step);
  const auto steps = rec.settings.find("steps");
  int64_t n = 0;
  if (steps == rec.settings.end() ||
      std::from_chars(steps->second.data(), steps->second.data() + steps->second.size(), n).ec != std::errc())
    return false;
  return log_ends_at(rec.log, n);
}

}  // namespace

bool StudyRun::finished() const {
  if (recorded) return true;  // make_run kept it only complete
  if (!checkpoint) return false;
  const int64_t last = last_step(config, checkpoint->log);  // a --until-learned run may stop before --steps
  return checkpoint->step == last && static_cast<int64_t>(checkpoint->log.step.size()) == last &&
         final_lengths_pending(config, checkpoint->log).empty();
}

const RunLog& StudyRun::finished_log() const {
  ORDO_CHECK(finished(), label(), ": not finished");
  return recorded ? *recorded : checkpoint->log;
}

namespace {

// Over MPI, after a step every rank took (`mine`: its failure, if any): the ranks agree, and
// one that failed stops them all, the failure said once (rank 0's own, or the failing rank's
// named by its rank and host; the others stop as its peers). `what`: "set up the study".
void agree_over_ranks(Cluster& world, std::exception_ptr mine, const std::string& what) {
  const int64_t all_ok = world.min_over_ranks(mine ? 0 : 1);
  const int64_t rank0_ok = world.min_over_ranks(world.rank() == 0 ? (mine ? 0 : 1) : 1);
  if (all_ok) return;
  if (world.rank() == 0 && mine) std::rethrow_exception(mine);
  if (world.rank() == 0) throw Error("another rank could not " + what + "; its error is printed above");
  if (!rank0_ok || !mine) throw PeerFailure("rank 0 or another rank could not " + what);
  try {
    std::rethrow_exception(mine);
  } catch (const Error& e) {
    throw Error("rank " + std::to_string(world.rank()) + " on " + world.host() + ": " + e.what());
  }
}

}  // namespace

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
  agree_over_ranks(world, mine, "set up the study");
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
  ORDO_CHECK(spec_.kept_seeds >= 0, "--kept-seeds must be >= 0 (0 = off), got ", spec_.kept_seeds);
  ORDO_CHECK(spec_.max_seeds >= 0, "--max-seeds must be >= 0 (0 = 4 x --kept-seeds), got ", spec_.max_seeds);
  ORDO_CHECK(spec_.kept_seeds > 0 || spec_.max_seeds == 0, "--max-seeds needs --kept-seeds N (the seeds tried until "
             "N runs of a cell learned)");
  if (spec_.kept_seeds > 0) {
    const int64_t most = spec_.max_seeds > 0 ? spec_.max_seeds : 4 * spec_.kept_seeds;
    ORDO_CHECK(most >= spec_.seeds && most >= spec_.kept_seeds, "--max-seeds ", most, " is below --seeds ",
               spec_.seeds, " or --kept-seeds ", spec_.kept_seeds, "; accepted: at least ",
               std::max(spec_.seeds, spec_.kept_seeds));
  }
  ORDO_CHECK(spec_.lr_seeds >= 0, "--lr-seeds must be >= 0 (0 = off), got ", spec_.lr_seeds);
  if (spec_.lr_seeds > 0) {
    ORDO_CHECK(std::any_of(spec_.vary.begin(), spec_.vary.end(), [](const Variation& v) { return v.key == "lr"; }),
               "--lr-seeds chooses among learning rates, and this study sweeps none; add --lrs R1,R2,...");
    ORDO_CHECK(spec_.lr_seeds < spec_.seeds, "--lr-seeds ", spec_.lr_seeds, " must be below --seeds ", spec_.seeds,
               " (the seeds the chosen rate trains in all); accepted: ",
               spec_.seeds > 1 ? "1 to " + std::to_string(spec_.seeds - 1) : std::string("none below --seeds 1: give --seeds 2 or more"));
    ORDO_CHECK(spec_.kept_seeds == 0, "--lr-seeds and --kept-seeds both add seeds after the first round; give one "
               "of them");
  }
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
  if (resume) read_records();
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
        // An encoding defined for causal attention only, or a next-token task, runs causal in
        // a bidirectional grid, labelled like a varied setting; where the grid varies causal
        // itself, its causal=true cell already holds it. A layer pattern is causal when any
        // part is.
        const LayerEncodings pattern = layer_pattern(enc);
        if (std::any_of(pattern.begin(), pattern.end(), [](const std::string& e) { return encoding_info(e).causal_only; }) ||
            (pattern.empty() && encoding_info(enc).causal_only) || task_info(task).causal_only) {
          auto varied = std::find_if(variant.begin(), variant.end(), [](const auto& kv) { return kv.first == "causal"; });
          if (varied != variant.end() && !parse_bool("causal", varied->second)) continue;
          if (varied == variant.end() && !spec_.base.model.causal) variant.emplace_back("causal", "true");
        }
        cells_.push_back({task, enc, variant});
        const int64_t first_round = spec_.lr_seeds > 0 ? spec_.lr_seeds : spec_.seeds;
        for (int64_t s = 0; s < first_round; ++s) runs_.push_back(make_run(cells_.back(), s));
      }
  if (resume) claim_finished_rounds();
}

StudyRun Study::make_run(const Cell& cell, int64_t seed_index) const {
  const std::string& out = options_.out;
  const bool resume = options_.existing == ExistingOutput::Resume;
  const std::string &task = cell.task, &enc = cell.encoding;
  const LayerEncodings pattern = layer_pattern(enc);
  StudyRun r;
  r.cell = static_cast<size_t>(&cell - cells_.data());
  r.config = spec_.base;
  r.config.task.name = task;
  if (pattern.empty()) r.config.model.encoding = enc;
  r.config.model.layer_encodings = pattern.empty() ? r.config.model.layer_encodings : pattern;
  r.config.seed = spec_.base.seed + static_cast<uint64_t>(seed_index);
  bool task_steps = false;
  for (const auto& [t, steps] : spec_.task_steps)
    if (t == task) r.config.steps = steps, task_steps = true;
  r.variant = variant_label(cell.variant);
  r.checkpoint_path = out + "/checkpoints/" + task + "/" + enc + "/" +
                      (r.variant.empty() ? "" : r.variant + "/") + "seed" + std::to_string(r.config.seed) + ".h5";
  try {
    for (const auto& [key, value] : cell.variant) find_setting(key)->set(r.config, value);
    // A task given fewer --task-steps than --patience could not stop for want of progress
    // before its maximum anyway: its runs have no patience (recorded as 0), not an error.
    if (task_steps && r.config.patience > r.config.steps) r.config.patience = 0;
    ORDO_CHECK(pattern.empty() || static_cast<int64_t>(pattern.size()) == r.config.model.n_layers,
               "--encodings ", enc, " names ", pattern.size(), " layers' encodings for a model of --layers ",
               r.config.model.n_layers, "; give one per layer");
    Trainer t(r.config);
    r.settings = to_settings(t.config());
    if (resume && fs::exists(r.checkpoint_path)) {
      r.checkpoint = std::make_shared<Checkpoint>(load_checkpoint(r.checkpoint_path));
      t.restore(*r.checkpoint);  // refuses a checkpoint of other settings
    } else if (auto found = records_.find(run_group_path(task, encoding_label(r.config.model), r.config.seed, r.variant));
               resume && found != records_.end()) {
      // No checkpoint, but results.h5 holds the run. One that ended by its own settings is
      // checked as its checkpoint would be (the same settings, an encoding unchanged since)
      // and, finished, stands for it; one that did not (interrupted, or failed and perhaps
      // since given other settings; its checkpoint lost) trains again from step 0, as does a
      // finished one whose final sweep was cut short (no weights to score the rest with).
      const RunRecord& rec = found->second;
      if (ended_as_recorded(rec)) {
        check_same_settings(t.config(), rec.settings, "its record in results.h5 (no checkpoint)");
        Checkpoint shell;  // what check_encoding_revision reads: the settings and the revision
        shell.encodings_revision = records_revision_;
        shell.ordo_version = records_version_;
        shell.config = rec.settings;
        check_encoding_revision(shell, "its record in results.h5 (no checkpoint)");
        if (final_lengths_pending(r.config, rec.log).empty()) r.recorded = std::make_shared<const RunLog>(rec.log);
      }
    }
  } catch (const Error& e) {
    fail(r.label(), ": ", e.what(),
         r.checkpoint ? "; use another --out, or --force to replace the grid" : "");
  }
  return r;
}

void Study::read_records() {
  const std::string results = options_.out + "/results.h5";
  std::error_code ec;
  if (!fs::exists(results, ec)) return;
  try {
    const std::map<std::string, std::string> attributes = read_results_attributes(results);
    if (auto it = attributes.find("encodings_revision"); it != attributes.end())
      records_revision_ = parse_int("results.h5 attribute encodings_revision", it->second);  // else 1: before it existed
    if (auto it = attributes.find("ordo_version"); it != attributes.end()) records_version_ = it->second;
    for (RunRecord& r : read_results(results)) {
      std::string group = run_group_path(r.task, r.encoding, r.seed, r.variant);
      records_.emplace(std::move(group), std::move(r));
    }
  } catch (const Error& e) {
    fail("--resume: ", e.what(), "; move ", results, " away to resume from the checkpoints alone");
  }
}

void Study::claim_finished_rounds() {
  // --kept-seeds, --lr-seeds: the rounds a study trained before, as far as their runs are all
  // finished, so that results.h5 keeps their records from the first write on (a record may be
  // a run's only trace).
  for (;;) {
    std::vector<RunRecord> done;
    for (const StudyRun& r : runs_) {
      if (!r.finished()) return;
      done.push_back(
          RunRecord{r.config.task.name, encoding_label(r.config.model), r.config.seed, r.finished_log(), {}, r.variant});
    }
    std::vector<StudyRun> more = more_seeds(done);
    if (more.empty()) return;
    for (StudyRun& r : more) runs_.push_back(std::move(r));
  }
}

bool run_learned(const RunLog& log, double learned_at) {
  if (log.stop_reason == stop_name(Stop::learned)) return true;
  const auto train = log.eval.find(0);
  return train != log.eval.end() && !train->second.empty() && train->second.back().step > 0 &&
         train->second.back().acc >= learned_at;
}

std::vector<StudyRun> Study::more_seeds(const std::vector<RunRecord>& records) const {
  return spec_.lr_seeds > 0 ? more_lr_seeds(records) : more_kept_seeds(records);
}

std::vector<StudyRun> Study::next_round(const std::vector<RunRecord>& records) const {
  Cluster& world = cluster();
  if (!world.distributed()) return more_seeds(records);
  if (world.rank() == 0) {
    // Rank 0 alone holds every run's record: it decides, and tells every rank the new runs
    // as "cell seed_index" lines ("failed": it could not), which each builds in this order.
    std::vector<StudyRun> more;
    try {
      // A run that a signal stopped on another rank only is not finished: no round is
      // decided from its partial curve.
      for (const StudyRun& r : runs_)
        ORDO_CHECK(r.finished(), r.label(), " did not finish; continue with --resume");
      more = more_seeds(records);
    } catch (...) {
      for (int r = 1; r < world.size(); ++r) world.send(r, tags::kRound, "failed");
      throw;
    }
    std::string lines = std::to_string(runs_.size()) + "\n";  // the runs before, as a check
    for (const StudyRun& r : more)
      lines += std::to_string(r.cell) + " " + std::to_string(r.config.seed - spec_.base.seed) + "\n";
    for (int r = 1; r < world.size(); ++r) world.send(r, tags::kRound, lines);
    return more;
  }
  const std::optional<ClusterMessage> m = world.wait(tags::kRound, 0);
  if (!m || m->bytes == "failed") throw PeerFailure("rank 0 could not decide the study's next round of seeds");
  std::vector<StudyRun> more;
  std::istringstream in(m->bytes);
  size_t before = 0, cell = 0;
  int64_t seed_index = 0;
  ORDO_CHECK(in >> before && before == runs_.size(), "study: rank 0's next round follows ", before,
             " runs, this rank holds ", runs_.size());
  while (in >> cell >> seed_index) {
    ORDO_CHECK(cell < cells_.size(), "study: rank 0 named cell ", cell, " of ", cells_.size());
    more.push_back(make_run(cells_[cell], seed_index));
  }
  ORDO_CHECK(in.eof(), "study: rank 0's next round could not be read");
  return more;
}

std::vector<StudyRun> Study::more_lr_seeds(const std::vector<RunRecord>& records) const {
  std::vector<StudyRun> more;
  ORDO_CHECK(records.size() == runs_.size(), "study: ", records.size(), " records for ", runs_.size(), " runs");
  // The first lr_seeds seeds of every rate, each record under its run's variant (lr= included).
  std::vector<RunRecord> first;
  for (size_t i = 0; i < runs_.size(); ++i) {
    const StudyRun& r = runs_[i];
    ORDO_CHECK(records[i].task == r.config.task.name && records[i].seed == r.config.seed,
               "study: the records are not in the order of the runs");
    if (r.config.seed - spec_.base.seed >= static_cast<uint64_t>(spec_.lr_seeds)) continue;
    RunRecord rec = records[i];
    rec.variant = r.variant;
    first.push_back(std::move(rec));
  }
  // Each cell's choice (report/rate_selection.h), by (task, encoding, variant without lr=).
  std::map<std::tuple<std::string, std::string, std::string>, std::string> chosen;
  for (const RateChoice& c : select_learning_rates(first).choices)
    chosen[{c.task, c.encoding, c.variant}] = c.rates[c.selected].lr;
  for (const Cell& cell : cells_) {
    int64_t tried = 0;
    const StudyRun* any = nullptr;
    for (const StudyRun& r : runs_)
      if (&cells_[r.cell] == &cell) ++tried, any = any ? any : &r;
    if (!any) continue;
    const auto [rest, lr] = split_rate(any->variant);
    const auto it = chosen.find({any->config.task.name, encoding_label(any->config.model), rest});
    if (it == chosen.end() || it->second != lr) continue;
    for (int64_t k = tried; k < spec_.seeds; ++k) more.push_back(make_run(cell, k));
  }
  return more;
}

std::vector<StudyRun> Study::more_kept_seeds(const std::vector<RunRecord>& records) const {
  std::vector<StudyRun> more;
  if (spec_.kept_seeds <= 0) return more;
  const int64_t most = spec_.max_seeds > 0 ? spec_.max_seeds : 4 * spec_.kept_seeds;
  ORDO_CHECK(records.size() == runs_.size(), "study: ", records.size(), " records for ", runs_.size(), " runs");
  for (const Cell& cell : cells_) {
    int64_t tried = 0, learned = 0;
    for (size_t i = 0; i < runs_.size(); ++i) {
      const StudyRun& r = runs_[i];
      if (&cells_[r.cell] != &cell) continue;
      ORDO_CHECK(records[i].task == r.config.task.name && records[i].seed == r.config.seed,
                 "study: the records are not in the order of the runs");
      ++tried;
      if (run_learned(records[i].log, r.config.learned_at)) ++learned;
    }
    const int64_t add = std::min(spec_.kept_seeds - learned, most - tried);
    for (int64_t k = 0; k < add; ++k) more.push_back(make_run(cell, tried + k));
  }
  return more;
}

int64_t Study::steps_to_train() const {
  int64_t total = 0;
  for (const StudyRun& r : runs_)  // a finished run adds nothing, also one that stopped before --steps
    total += r.finished() ? 0 : r.config.steps - (r.checkpoint ? r.checkpoint->step : 0);
  return total;
}

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
  // --kept-seeds: rounds of further seeds for the cells short of learned runs, each round
  // decided by the runs before it (so the seeds trained do not depend on the schedule).
  // --lr-seeds: one further round, the chosen rates' remaining seeds. Over MPI rank 0
  // decides each round and every rank trains it (next_round).
  for (;;) {
    // The runs trained since they were built are finished: their final checkpoints say so
    // (a run resumed from a partial checkpoint still holds that one until reloaded). Over
    // MPI every rank reloads them and builds the next round, and the ranks agree before it
    // trains (a rank that cannot stops them all, rather than leaving the others waiting).
    std::vector<StudyRun> more;
    std::exception_ptr mine;
    try {
      for (StudyRun& r : runs_)
        if (!r.finished() && fs::exists(r.checkpoint_path))
          r.checkpoint = std::make_shared<Checkpoint>(load_checkpoint(r.checkpoint_path));
      more = next_round(outcome.records);
    } catch (...) {
      mine = std::current_exception();
    }
    if (world.distributed()) agree_over_ranks(world, mine, "prepare the study's next round of seeds");
    else if (mine) std::rethrow_exception(mine);
    if (more.empty()) break;
    if (progress.message && !remote)
      progress.message(spec_.lr_seeds > 0
                           ? "--lr-seeds: " + std::to_string(more.size()) + " more run(s) at the rates chosen on the "
                                 "first " + std::to_string(spec_.lr_seeds) + " seed(s)"
                           : "--kept-seeds: " + std::to_string(more.size()) + " more run(s) for the cells short of " +
                                 std::to_string(spec_.kept_seeds) + " learned");
    for (StudyRun& r : more) runs_.push_back(std::move(r));
    int64_t left = 0;
    for (const StudyRun& r : runs_) left += r.finished() ? 0 : 1;
    if (world.distributed()) left = std::max<int64_t>(1, left / world.size());
    const int round_jobs =
        static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(options_.jobs > 0 ? options_.jobs : threads, left)));
    Session next(runs_, options_, progress, shared, outcome.results_path, threads, round_jobs, steps_to_train());
    outcome.records = next.run();
    outcome.trained += next.trained();
    outcome.seconds += next.elapsed();
  }
  if (remote) return outcome;
  // Every record, also where the last round trained nothing (its runs finished earlier).
  write_results(outcome.results_path, outcome.records, shared);
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
