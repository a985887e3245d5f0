// train/memory.cpp: see train/memory.h.
#include "train/memory.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "core/error.h"
#include "core/tape.h"
#include "data/eval.h"
#include "layers/model.h"
#include "train/metrics.h"
#include "train/optimizer.h"
#include "train/settings.h"

namespace ordo {
namespace {

// What one model of `layers` layers holds at rest, and at the peak of a training step and of
// an evaluation forward pass on one sequence of each probe length.
struct Probe {
  int64_t resident = 0;             // parameters, gradients, optimizer state
  std::array<int64_t, 3> train{};   // a training step's peak above `resident`
  std::array<int64_t, 3> eval{};    // an evaluation batch's peak above it
};

int64_t in_use() { return pool_stats().bytes_in_use; }

Probe probe(const TrainConfig& cfg, const Task& task, int64_t layers, const std::array<int64_t, 3>& lengths) {
  Probe p;
  ModelConfig m = cfg.model;
  m.n_layers = layers;
  if (!m.layer_encodings.empty()) {
    // A probe of `layers` blocks from the distinct per-layer encodings, a contextual one
    // (which with SSMax sends the whole model down the unfused path, O(L^2) per layer)
    // first, so that the estimate covers the costliest form the model takes.
    std::vector<std::string> distinct;
    for (const std::string& e : m.layer_encodings)
      if (std::find(distinct.begin(), distinct.end(), e) == distinct.end()) distinct.push_back(e);
    EncodingConfig ec = m.posenc;
    ec.d_model = m.d_model, ec.n_heads = m.n_heads, ec.n_layers = layers, ec.causal = m.causal;
    std::stable_partition(distinct.begin(), distinct.end(),
                          [](const std::string& e) { return encoding_info(e).needs_logits; });
    std::vector<std::string> probe_blocks;
    for (int64_t l = 0; l < layers; ++l) probe_blocks.push_back(distinct[static_cast<size_t>(l) % distinct.size()]);
    m.layer_encodings = LayerEncodings(std::move(probe_blocks));
  }
  EncoderModel model(m);
  std::unique_ptr<Optimizer> optimizer = make_optimizer(cfg.optimizer, model.parameters());
  Tape tape;
  auto train_step = [&](const Batch& batch) {
    ForwardOptions fo;
    fo.training = true;
    fo.dropout_seed = cfg.seed;
    ForwardResult r = model.forward(tape, batch.tokens, batch.lengths, fo);
    Var loss = task_loss(tape, r.logits, batch);
    optimizer->zero_grad();
    tape.backward(loss);
    optimizer->step(0.0);  // allocates the optimizer's state; the probe model is thrown away
    tape.clear();
  };
  auto eval_step = [&](const Batch& batch) {
    NoGradGuard guard(tape);
    ForwardResult r = model.forward(tape, batch.tokens, batch.lengths);
    (void)r;
    tape.clear();
  };
  for (size_t i = 0; i < lengths.size(); ++i) {
    const Batch batch = collate({task.example(cfg.seed, 0, lengths[i])}, task.head());
    // Each pass once unmeasured: what is built once and kept (an encoding's tables for a
    // length, the optimizer's state) is not a step's.
    train_step(batch);
    eval_step(batch);
    int64_t before = in_use();
    reset_pool_peak();
    train_step(batch);
    p.train[i] = pool_stats().peak_bytes_in_use - before;
    before = in_use();
    reset_pool_peak();
    eval_step(batch);
    p.eval[i] = pool_stats().peak_bytes_in_use - before;
  }
  // Parameters, gradients and optimizer state, counted rather than measured.
  for (const Parameter* param : model.parameters())
    p.resident += static_cast<int64_t>(sizeof(Real)) * (param->value.numel() + param->grad.numel());
  for (const auto& [name, t] : optimizer->state()) p.resident += static_cast<int64_t>(sizeof(Real)) * t.numel();
  return p;
}

// The quadratic through (x[i], y[i]), at x.
double quadratic_at(const std::array<int64_t, 3>& x, const std::array<int64_t, 3>& y, double at) {
  double sum = 0;
  for (int i = 0; i < 3; ++i) {
    double term = static_cast<double>(y[i]);
    for (int j = 0; j < 3; ++j)
      if (j != i) term *= (at - static_cast<double>(x[j])) / static_cast<double>(x[i] - x[j]);
    sum += term;
  }
  return sum;
}

struct Measured {
  std::array<int64_t, 3> lengths{};
  Probe one, two;  // 1 and 2 layers
};

// Bytes at `layers` layers for one sequence of `length`: linear in the layers.
double per_sequence(const Measured& m, const std::array<int64_t, 3> Probe::*curve, int64_t layers, int64_t length) {
  const double a = quadratic_at(m.lengths, m.one.*curve, static_cast<double>(length));
  const double b = quadratic_at(m.lengths, m.two.*curve, static_cast<double>(length));
  return std::max(0.0, a + static_cast<double>(layers - 1) * (b - a));
}

const Measured& measured(const TrainConfig& cfg, const Task& task) {
  static std::mutex mu;
  static std::map<std::string, Measured> cache;
  std::map<std::string, std::string> key_settings = to_settings(cfg);
  for (const char* k : {"seed", "steps", "layers", "batch", "micro-batches", "eval-lens", "eval-lens-final",
                        "eval-sequences", "eval-batch", "eval-every"}) key_settings.erase(k);
  std::string key;
  for (const auto& [k, v] : key_settings) key += k + "=" + v + ";";
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  Measured m;
  // Multiples of the attention's 64-row tiles, so that no buffer rounded up to a tile looks
  // constant in the length.
  int64_t shortest = (std::max<int64_t>(task.min_valid_len(), 64) + 63) / 64 * 64;
  m.lengths = {shortest, 2 * shortest, 3 * shortest};
  if (3 * shortest > task.max_valid_len()) {  // a task with a longest length (`recall`): probed inside it
    const int64_t top = task.max_valid_len(), step = std::max<int64_t>(1, (top - task.min_valid_len()) / 2);
    m.lengths = {top - 2 * step, top - step, top};
  }
  m.one = probe(cfg, task, 1, m.lengths);
  m.two = probe(cfg, task, 2, m.lengths);
  return cache.emplace(key, m).first->second;
}

// Sequences per evaluation batch at `length` tokens (data/eval.cpp's rule).
int64_t eval_rows(int64_t length, int64_t eval_batch) {
  return std::clamp<int64_t>(kEvalBatchTokens / std::max<int64_t>(length, 1), 1, eval_batch);
}

int64_t read_number(const std::string& path) {
  std::ifstream f(path);
  std::string text;
  if (!(f >> text) || text == "max") return -1;
  try {
    return std::stoll(text);
  } catch (...) {
    return -1;
  }
}

}  // namespace

MemoryNeed estimate_memory(const TrainConfig& cfg, const Task& task) {
  const Measured& m = measured(cfg, task);
  const int64_t layers = cfg.model.n_layers;
  MemoryNeed need;
  need.model = static_cast<int64_t>(
      std::max(0.0, static_cast<double>(m.one.resident) +
                        static_cast<double>(layers - 1) * static_cast<double>(m.two.resident - m.one.resident)));
  // A step holds one micro-batch's activations at a time (docs/spec.md §5.4). The running
  // sum of the parts' gradients (1 x the parameters, from the tensor pool; a rank above 0 of
  // a data-parallel run also its parts') is left out: small beside the activations at the
  // lengths where memory runs out.
  need.train_step = static_cast<int64_t>(static_cast<double>(cfg.batch_size / std::max<int64_t>(1, cfg.micro_batches)) *
                                         per_sequence(m, &Probe::train, layers, task.max_len()));
  // The training-range set (at most max_len tokens per sequence), then each evaluation length.
  // `len` is a task length (the probes are fitted in it); rows and bytes count its tokens.
  // The --eval-lens-final sets exist one at a time, after training: only the largest counts.
  struct Set {
    int64_t len, count;
    bool held;  // for the whole run
  };
  std::vector<Set> sets = {{task.max_len(), cfg.eval_train_sequences, true}};
  const std::vector<int64_t> lens = cfg.eval_lens.empty() ? default_extrapolation_lengths(task) : cfg.eval_lens;
  for (int64_t len : lens) sets.push_back({len, cfg.eval_sequences, true});
  for (int64_t len : cfg.eval_lens_final)
    if (std::find(lens.begin(), lens.end(), len) == lens.end()) sets.push_back({len, cfg.eval_sequences, false});
  constexpr int64_t kBytesPerToken = 12;  // token id, target, score mask
  int64_t largest_held = 0, largest_final = 0;
  for (const auto& [len, count, held] : sets) {
    const int64_t bytes = kBytesPerToken * count * task.tokens(len);
    if (held) need.eval_sets += bytes;
    (held ? largest_held : largest_final) = std::max(held ? largest_held : largest_final, bytes);
    const int64_t step = static_cast<int64_t>(static_cast<double>(eval_rows(task.tokens(len), cfg.eval_batch)) *
                                              per_sequence(m, &Probe::eval, layers, len));
    if (step > need.eval_step) {
      need.eval_step = step;
      need.eval_length = len;
    }
  }
  // A set's examples and its batches exist together while it is built (a held set's batches
  // are counted above); a final-only set is built after the others, beside them.
  need.eval_sets += std::max(largest_held, 2 * largest_final);
  return need;
}

int64_t available_memory() {
  if (const char* forced = std::getenv("ORDO_MEMORY_AVAILABLE")) {
    try {
      return std::stoll(forced);
    } catch (...) {
      fail("ORDO_MEMORY_AVAILABLE must be a byte count, got '", forced, "'");
    }
  }
  int64_t available = -1;
  std::ifstream meminfo("/proc/meminfo");
  std::string name;
  int64_t kib = 0;
  std::string unit;
  while (meminfo >> name >> kib) {
    std::getline(meminfo, unit);
    if (name == "MemAvailable:") available = kib * 1024;
  }
  // cgroup v2, then v1: the limit minus what the group already uses.
  for (const auto& [limit_file, usage_file] :
       {std::pair<const char*, const char*>{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
        {"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"}}) {
    const int64_t limit = read_number(limit_file), usage = read_number(usage_file);
    if (limit > 0 && usage >= 0 && limit < (int64_t{1} << 60)) {
      const int64_t left = std::max<int64_t>(0, limit - usage);
      available = available < 0 ? left : std::min(available, left);
      break;
    }
  }
  return available;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  int u = 0;
  while (bytes >= 1000 && u < 5) {
    bytes /= 1000;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : (bytes < 10 ? "%.1f %s" : "%.0f %s"), bytes, units[u]);
  return text;
}

void check_memory(const TrainConfig& cfg, const Task& task) {
  const int64_t available = available_memory();
  if (available < 0) return;
  // The measurement builds the model at 1 and 2 layers: first make sure that those fit. An
  // upper bound of their parameters (the blocks' weights, the embeddings and a position
  // table of posenc.max_len rows; 4 copies: value, gradient, 2 moments), not a measurement.
  const ModelConfig& m = cfg.model;
  const double d = static_cast<double>(m.d_model), ff = static_cast<double>(m.d_ff);
  const double probe_params =
      2 * (4 * d * d + 2 * d * ff + 8 * d + 2 * ff) +
      d * static_cast<double>(m.vocab_size + m.num_classes + m.posenc.max_len + 64);
  const double probe_bytes = 4.0 * static_cast<double>(sizeof(Real)) * probe_params;
  if (probe_bytes > static_cast<double>(available))
    fail("these settings need more than ", format_bytes(probe_bytes), " of memory for the model of 2 layers alone (--d-model ",
         m.d_model, ", --d-ff ", m.d_ff, ", ", m.posenc.max_len, " positions; value, gradient and 2 optimizer moments "
         "per parameter), more than the ", format_bytes(static_cast<double>(available)),
         " available. Lower --d-model, --d-ff, --max-len or --pe-max-len");
  const MemoryNeed need = estimate_memory(cfg, task);
  if (need.total() <= available) return;
  std::ostringstream why;
  why << "these settings need about " << format_bytes(static_cast<double>(need.total())) << " of memory, more than the "
      << format_bytes(static_cast<double>(available)) << " available: model, gradients and optimizer state "
      << format_bytes(static_cast<double>(need.model)) << " (--layers " << cfg.model.n_layers << ", --d-model "
      << cfg.model.d_model << "); evaluation sets " << format_bytes(static_cast<double>(need.eval_sets))
      << "; one training step " << format_bytes(static_cast<double>(need.train_step)) << " (--batch " << cfg.batch_size
      << " x length " << task.max_len() << " in --micro-batches " << cfg.micro_batches
      << "); one evaluation batch " << format_bytes(static_cast<double>(need.eval_step)) << " (length "
      << need.eval_length << "). Lower --batch, --max-len, --eval-lens, --layers or --d-model, or raise --micro-batches";
  fail(why.str());
}

}  // namespace ordo
