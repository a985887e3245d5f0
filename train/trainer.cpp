#include "train/settings.h"
#include "train/trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>

#include "cluster/tags.h"
#include "core/machine.h"
#include "core/ops.h"
#include "core/rng.h"
#include "layers/posenc/table_cache.h"
#include "train/memory.h"
#include "train/micro_batches.h"
#include "train/random_positions.h"
#include "train/stopping.h"
#include "train/streams.h"
#include "train/version.h"

namespace ordo {
namespace {

HeadType choose_head(const TrainConfig& cfg, const Task& task) {
  if (cfg.head.empty()) return task.head() == HeadKind::Token ? HeadType::Token : HeadType::Pooled;
  HeadType h = parse_head(cfg.head);
  // The summary token sits first: under a causal mask it would see only itself.
  ORDO_CHECK(!(h == HeadType::Cls && cfg.model.causal), "--head cls does not fit --causal true: the cls token ",
             "comes first and a causal mask lets it see only itself; accepted with --causal: pooled (the mean ",
             "of every position's output, the last of which sees the whole sequence)");
  if (task.head() == HeadKind::Token)
    ORDO_CHECK(h == HeadType::Token, "--head ", cfg.head, " does not fit task '", task.name(),
               "', which has a class at every position; accepted: token");
  else
    ORDO_CHECK(h != HeadType::Token, "--head token does not fit task '", task.name(),
               "', which has one class per sequence; accepted: pooled, cls");
  return h;
}

// A compare and an or per element, without an early exit, so that it vectorises (NaN fails
// the comparison too).
bool all_finite(const Tensor& t) {
  const Real* p = t.data();
  const int64_t n = t.numel();
  int bad = 0;
#pragma omp simd reduction(| : bad)
  for (int64_t i = 0; i < n; ++i) bad |= !(std::abs(p[i]) <= std::numeric_limits<Real>::max());
  return bad == 0;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

ModelConfig model_config(const TrainConfig& cfg, const Task& task) {
  ModelConfig m = cfg.model;
  m.vocab_size = task.vocab_size();
  m.num_classes = task.num_classes();
  m.head = choose_head(cfg, task);
  m.seed = cfg.seed;
  const int64_t positions = task.tokens(task.max_len()) + head_tokens(m.head);
  // Randomized positions reach N - 1: the learned table then has N rows, rbf spans [0, N).
  // Random offsets reach N - 1 as well.
  const int64_t spread = std::max(cfg.random_positions, cfg.random_offset);
  m.posenc.max_len = cfg.pe_max_len > 0 ? cfg.pe_max_len : spread > 0 ? spread : positions;
  m.posenc.train_positions = positions;
  m.posenc.random_positions = cfg.random_positions > 0;
  return m;
}

Trainer::Trainer(const TrainConfig& cfg) : cfg_(cfg) {
  validate(cfg_);
  task_ = make_task(cfg_.task);
  cfg_.task = task_->config();  // the length range resolved to numbers
  cfg_.model = model_config(cfg_, *task_);
  if (cfg_.random_positions > 0) {  // every position a training or evaluation sequence takes (in tokens)
    const int64_t extra = head_tokens(cfg_.model.head);
    int64_t longest = task_->tokens(task_->max_len());
    for (int64_t len : cfg_.eval_lens.empty() ? default_extrapolation_lengths(*task_) : cfg_.eval_lens)
      longest = std::max(longest, task_->tokens(len));
    for (int64_t len : cfg_.eval_lens_final) longest = std::max(longest, task_->tokens(len));
    ORDO_CHECK(longest + extra < cfg_.random_positions, "--random-positions ", cfg_.random_positions,
               " must exceed every training and evaluation length", extra ? " (+1 for the cls token)" : "",
               ": the longest is ", longest + extra, "; choose N > ", longest + extra);
  }
  if (cfg_.random_offset > 0) {
    const int64_t longest = task_->tokens(task_->max_len()) + head_tokens(cfg_.model.head);
    ORDO_CHECK(longest <= cfg_.random_offset, "--random-offset ", cfg_.random_offset, " is shorter than the longest "
               "training sequence, ", longest, " tokens; choose N >= ", longest);
  }
  check_memory(cfg_, *task_);  // settings that cannot fit are refused before allocating
  model_ = std::make_unique<EncoderModel>(cfg_.model);
  params_ = model_->parameters();
  optimizer_ = make_optimizer(cfg_.optimizer, params_);
  ORDO_CHECK(!task_->has_eval_twin() || cfg_.eval_sequences % 2 == 0, task_->name(),
             ": evaluation sets are swap-paired, so --eval-sequences must be even, got ", cfg_.eval_sequences);
  std::vector<int64_t> lens = cfg_.eval_lens.empty() ? default_extrapolation_lengths(*task_) : cfg_.eval_lens;
  eval_sets_ = make_eval_sets(*task_, cfg_.held_out_seed(), lens, cfg_.eval_batch, cfg_.eval_train_sequences, cfg_.eval_sequences);
  // The final-only sets are built when scored; their lengths are checked now, not hours later.
  for (int64_t len : cfg_.eval_lens_final) check_eval_length(*task_, len, "--eval-lens-final");
}

void Trainer::train_over(Cluster& world) {
  const int64_t n = world.size(), m = cfg_.micro_batches;
  ORDO_CHECK(m % n == 0, "--micro-batches ", m, " cannot be shared by ", n, " ranks: each rank computes whole "
             "micro-batches; pass --micro-batches a multiple of ", n, " (the one-process run with the same "
             "--micro-batches gives the same bits)");
  world_ = n > 1 ? &world : nullptr;
}

double Trainer::forward_backward(const Batch& part, double weight, int64_t index) {
  tape_.clear();
  ForwardOptions fo;
  fo.training = true;
  fo.dropout_seed = stream_key(cfg_.draws_seed(), Stream::dropout);
  fo.step = static_cast<uint64_t>(step_ * cfg_.micro_batches + index);  // each part its own dropout masks
  if (cfg_.random_positions > 0)  // a fresh sorted sample from [0, N) per step, shared by its parts
    fo.positions = random_positions(stream_key(cfg_.draws_seed(), Stream::random_positions), static_cast<uint64_t>(step_),
                                    part.tokens.dim(1) + head_tokens(cfg_.model.head), cfg_.random_positions);
  if (cfg_.random_offset > 0) {  // each sequence its own offset, drawn by its place in the whole batch
    const int64_t first = step_ * cfg_.batch_size + index * part.batch_size();
    for (int64_t j = 0; j < part.batch_size(); ++j)
      fo.offsets.push_back(random_offset(stream_key(cfg_.draws_seed(), Stream::random_offset), static_cast<uint64_t>(first + j),
                                         part.lengths[static_cast<size_t>(j)] + head_tokens(cfg_.model.head),
                                         cfg_.random_offset));
  }
  ForwardResult r = model_->forward(tape_, part.tokens, part.lengths, fo);
  Var loss = task_loss(tape_, r.logits, part);
  if (weight != 1.0) loss = scale(tape_, loss, static_cast<Real>(weight));  // the part's share of the batch
  const double value = tape_.value(loss).item();
  ORDO_CHECK(std::isfinite(value), "numerics: the loss is ", value, " at step ", step_ + 1, numerics_hint());
  optimizer_->zero_grad();
  tape_.backward(loss);
  tape_.clear();
  return value;
}

double Trainer::train_step(double lr) {
  tape_.clear();
  tape_.set_check_numerics(cfg_.check_numerics);
  const Batch batch = task_->batch(cfg_.draws_seed(), static_cast<uint64_t>(step_), cfg_.batch_size, cfg_.same_length);
  const MicroBatches parts{cfg_.micro_batches, world_};
  std::vector<double> losses;
  try {
    losses = parts.gradient(batch, params_, [this](const Batch& part, double weight, int64_t index) {
      return forward_backward(part, weight, index);
    });
  } catch (const Error& e) {
    tape_.clear();
    // The tape's --check-numerics scan names the op; the step is ours to add.
    if (std::string_view(e.what()).starts_with("numerics: non-finite")) fail(e.what(), " at step ", step_ + 1);
    throw;
  }
  double loss = 0;  // the batch's mean loss: the parts' shares added in part order
  for (double v : parts.gather_losses(std::move(losses))) loss += v;
  last_grad_norm_ = clip_grad_norm(params_, cfg_.clip);
  ORDO_CHECK(std::isfinite(last_grad_norm_), "numerics: the gradient norm is ", last_grad_norm_, " at step ",
             step_ + 1, numerics_hint());
  optimizer_->step(lr);
  for (Parameter* p : params_) p->project();  // bounded parameters back into their range
  // A finite gradient can still overflow a parameter (a huge --lr); stop before that state
  // reaches a checkpoint.
  for (const Parameter* p : params_)
    ORDO_CHECK(all_finite(p->value), "numerics: the update of step ", step_ + 1, " (lr ", lr,
               ") made parameter ", p->name, " non-finite; lower --lr or set --clip");
  return loss;
}

double Trainer::step_once() {
  const double loss = train_step(learning_rate(cfg_.lr, step_, cfg_.warmup, cfg_.steps, parse_schedule(cfg_.schedule)));
  ++step_;
  return loss;
}

EvalResult Trainer::evaluate_set(const EvalSet& set, uint64_t held_out_seed) {
  EvalResult r{set.length, {}};
  const auto t0 = std::chrono::steady_clock::now();
  const int64_t batches = static_cast<int64_t>(set.batches.size());
  for (int64_t i = 0; i < batches; ++i) {
    const Batch& batch = set.batches[static_cast<size_t>(i)];
    tape_.clear();
    NoGradGuard guard(tape_);
    ForwardOptions fo;
    if (cfg_.random_positions_eval)  // a sample per batch, fixed by the sets' seed like the sets themselves
      fo.positions = random_positions(stream_key(held_out_seed, Stream::random_positions),
                                      (static_cast<uint64_t>(set.length) << 32) + static_cast<uint64_t>(i),
                                      batch.tokens.dim(1) + head_tokens(cfg_.model.head), cfg_.random_positions);
    ForwardResult fr = model_->forward(tape_, batch.tokens, batch.lengths, fo);
    r.counts.add(score_batch(tape_.value(fr.logits), batch));
    if (eval_observer_) eval_observer_(set.length, i + 1, batches, seconds_since(t0));
  }
  tape_.clear();
  return r;
}

std::vector<EvalResult> Trainer::evaluate() {
  std::vector<EvalResult> out;
  for (const EvalSet& set : eval_sets_) out.push_back(evaluate_set(set));
  return out;
}

std::vector<int64_t> final_lengths_pending(const TrainConfig& cfg, const RunLog& log) {
  std::vector<int64_t> out;
  for (int64_t len : cfg.eval_lens_final) {
    const auto it = log.eval.find(len);
    const int64_t last = last_step(cfg, log);
    const bool scored = it != log.eval.end() && std::any_of(it->second.begin(), it->second.end(),
                                                            [&](const EvalPoint& p) { return p.step == last; });
    if (!scored) out.push_back(len);
  }
  return out;
}

std::string ranks_machine(const std::vector<std::string>& of_rank) {
  std::vector<std::pair<std::string, std::vector<size_t>>> distinct;  // in the order of their first rank
  for (size_t r = 0; r < of_rank.size(); ++r) {
    auto it = std::find_if(distinct.begin(), distinct.end(), [&](const auto& d) { return d.first == of_rank[r]; });
    if (it == distinct.end()) distinct.push_back({of_rank[r], {r}});
    else it->second.push_back(r);
  }
  if (distinct.size() == 1) return distinct[0].first;
  std::string out;
  for (const auto& [machine, ranks] : distinct) {
    out += (out.empty() ? "" : " + ") + machine + (ranks.size() == 1 ? " (rank " : " (ranks ");
    for (size_t i = 0; i < ranks.size(); ++i) out += (i ? ", " : "") + std::to_string(ranks[i]);
    out += ")";
  }
  return out;
}

namespace {

// This process's machine, or in a data-parallel run every rank's (ranks_machine), at rank 0;
// every rank calls it at the same point.
std::string machine_here(Cluster* world) {
  const std::string mine = machine_description();
  if (world == nullptr) return mine;
  if (world->rank() != 0) {
    world->send(0, tags::kMachine, mine);
    return mine;
  }
  std::vector<std::string> of_rank{mine};
  for (int r = 1; r < world->size(); ++r) of_rank.push_back(world->wait(tags::kMachine, r)->bytes);
  return ranks_machine(of_rank);
}

}  // namespace

void note_machine(RunLog& log, int64_t step, const std::string& here) {
  if (!log.machines.empty() && machine_of(log.machines.back()) == here) return;
  log.machines.push_back("from step " + std::to_string(step) + ": " + here);
}

bool Trainer::trained() const { return step_ >= cfg_.steps || log_.stop_step > 0; }

bool Trainer::finished() const {
  if (!trained()) return false;
  const bool leader = world_ == nullptr || world_->rank() == 0;
  return leader ? final_lengths_pending(cfg_, log_).empty() : leader_swept_;
}

// After an evaluation step of a --until-learned run: rank 0 decides from its log and tells the
// other ranks, which keep no log, so that every rank stops at the same step.
void Trainer::decide_stop(bool leader) {
  Stop stop = leader ? stop_decision(cfg_, log_, step_) : Stop::go;
  if (world_) stop = static_cast<Stop>(world_->min_over_ranks(leader ? static_cast<int64_t>(stop) : INT64_MAX));
  if (stop == Stop::go) return;
  log_.stop_reason = stop_name(stop);
  log_.stop_step = step_;
}

void Trainer::record_eval(const std::vector<EvalResult>& results) {
  for (const EvalResult& r : results) {
    EvalPoint p{step_, r.counts.accuracy(), r.counts.exact_match(), r.counts.mean_loss(),
                r.counts.accuracy_by_distance(), r.counts.scored_by_distance};
    if (!p.count_by_distance.empty()) {  // every distance the set's lengths allow: 0 .. length - 1
      const size_t distances = static_cast<size_t>(r.length == 0 ? task_->max_len() : r.length);
      p.acc_by_distance.resize(std::max(distances, p.acc_by_distance.size()), std::nan(""));
      p.count_by_distance.resize(p.acc_by_distance.size(), 0);
    }
    log_.eval[r.length].push_back(std::move(p));
  }
}

void Trainer::run(const std::function<bool(const StepInfo&)>& on_step, const std::function<bool()>& after_length) {
  const auto t0 = std::chrono::steady_clock::now();
  auto wall = [&] { return elapsed_before_ + seconds_since(t0); };
  const bool leader = world_ == nullptr || world_->rank() == 0;  // data-parallel: rank 0 evaluates and logs
  const std::string here = machine_here(world_);  // on every rank: a data-parallel run's ranks all say
  if (leader && !finished()) note_machine(log_, step_, here);
  if (step_ == 0 && log_.eval.empty() && leader) record_eval(evaluate());  // the untrained baseline
  bool go = true;
  while (go && !trained()) {
    const double lr = learning_rate(cfg_.lr, step_, cfg_.warmup, cfg_.steps, parse_schedule(cfg_.schedule));
    const double loss = train_step(lr);
    ++step_;
    log_.step.push_back(step_);
    log_.train_loss.push_back(loss);
    log_.lr.push_back(lr);
    log_.wall_time.push_back(wall());
    const bool eval_step = step_ == cfg_.steps || (cfg_.eval_every > 0 && step_ % cfg_.eval_every == 0);
    const bool evaluated = leader && eval_step;
    if (evaluated) record_eval(evaluate());
    if (cfg_.until_learned && eval_step) decide_stop(leader);
    log_.total_wall_seconds = wall();
    go = !on_step || on_step(StepInfo{step_ - 1, cfg_.steps, loss, lr, last_grad_norm_, log_.total_wall_seconds,
                                      &log_, evaluated});
    if (world_) go = world_->min_over_ranks(go ? 1 : 0) != 0;  // one rank stopping stops them all, at this step
  }
  // The final sweep, on rank 0: a length scored is recorded at once, so a stop keeps it.
  if (go && leader && trained())
    for (int64_t len : final_lengths_pending(cfg_, log_)) {
      record_eval({evaluate_set(
          make_eval_set(*task_, cfg_.held_out_seed(), len, cfg_.eval_batch, cfg_.eval_sequences, "--eval-lens-final"))});
      release_table_caches();  // the encodings' tables for this length: one length's worth at a time
      log_.total_wall_seconds = wall();
      if (after_length && !after_length()) break;
    }
  // The other ranks wait here while rank 0 sweeps, and learn whether it finished: a stop in
  // the sweep stops every rank, as a stop in training does.
  if (world_) leader_swept_ = world_->min_over_ranks(!leader || finished() ? 1 : 0) != 0;
  elapsed_before_ = log_.total_wall_seconds;
}

Checkpoint Trainer::checkpoint() const {
  Checkpoint ck;
  ck.ordo_version = version();
  ck.step = step_;
  ck.config = to_settings(cfg_);
  for (const Parameter* p : params_) ck.params.emplace_back(p->name, p->value.clone());
  for (auto& [name, value] : optimizer_->state()) {
    // Never write a state a resumed run could not continue from.
    ORDO_CHECK(all_finite(value), "numerics: optimizer state ", name, " is non-finite at step ", step_,
               "; not checkpointing it (the last good checkpoint is kept); lower --lr or set --clip");
    ck.optimizer.emplace_back(name, value.clone());
  }
  ck.scalars["optimizer_steps"] = static_cast<double>(optimizer_->steps());
  ck.scalars["elapsed_seconds"] = log_.total_wall_seconds;
  // Every random draw of training is keyed by (draws_seed(), step): that pair is the RNG state.
  ck.rng.push_back(CounterRng::State{cfg_.draws_seed(), 0, static_cast<uint64_t>(step_), 4});
  ck.log = log_;
  return ck;
}

void check_same_settings(const TrainConfig& cfg, const std::map<std::string, std::string>& theirs_all,
                         const std::string& what) {
  const auto mine = to_settings(cfg);
  const auto defaults = to_settings(TrainConfig{});
  for (const auto& [key, value] : mine) {
    auto it = theirs_all.find(key);
    // A setting added after the file was written reads as its default, which is what ordo did
    // before it existed (a new option's default keeps the old behaviour). The one exception:
    // runs from before --micro-batches trained each batch whole.
    auto fallback = defaults.find(key);
    const std::string theirs = it != theirs_all.end() ? it->second
                               : key == "micro-batches" ? "1"
                               : fallback != defaults.end() ? fallback->second
                                                            : "";
    ORDO_CHECK(it != theirs_all.end() || key == "micro-batches" || fallback != defaults.end(), what, ": setting '",
               key, "' missing; it was written by another ordo version");
    ORDO_CHECK(theirs == value, what, ": it was trained with --", key, " ", theirs, ", this run has --", key, " ", value,
               "; resume with the same settings");
  }
}

void Trainer::restore(const Checkpoint& ck) {
  check_same_settings(cfg_, ck.config, "checkpoint");
  ORDO_CHECK(ck.step >= 0 && ck.step <= cfg_.steps, "checkpoint: step ", ck.step, " outside [0, ", cfg_.steps, "]");
  std::vector<std::pair<std::string, Shape>> expected;
  for (const Parameter* p : params_) expected.emplace_back(p->name, p->value.shape());
  check_compatible(ck, expected);
  for (Parameter* p : params_)
    for (const auto& [name, value] : ck.params)
      if (name == p->name) std::memcpy(p->value.data(), value.data(), sizeof(Real) * value.numel());
  auto steps = ck.scalars.find("optimizer_steps");
  ORDO_CHECK(steps != ck.scalars.end(), "checkpoint: scalar 'optimizer_steps' missing");
  // Three records of how far the run got must agree: an edited or damaged file is refused
  // rather than resumed with a jump in its curve.
  const int64_t logged = static_cast<int64_t>(ck.log.step.size());
  ORDO_CHECK(steps->second == static_cast<double>(ck.step) && logged == ck.step, "checkpoint: its step is ", ck.step,
             ", but its log holds ", logged, " steps and its optimizer took ", steps->second,
             "; the file was edited or damaged: resume from another checkpoint, or start over with --force");
  optimizer_->set_state(ck.optimizer, static_cast<int64_t>(steps->second));
  step_ = ck.step;
  log_ = ck.log;
  auto elapsed = ck.scalars.find("elapsed_seconds");
  elapsed_before_ = elapsed == ck.scalars.end() ? 0 : elapsed->second;
  log_.total_wall_seconds = elapsed_before_;
}

}  // namespace ordo
