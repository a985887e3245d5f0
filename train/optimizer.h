// train/optimizer.h: the optimizer interface, its registry, clipping and the schedule
// (docs/spec.md §5).
//
// Each optimizer is one file in train/optimizers/ (adamw.cpp, sgd.cpp) that declares its
// options (OptimizerInfo), plus one line in train/optimizers/registry.cpp. Updates are
// elementwise loops over parameter blocks: the same bits for any thread count.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/options.h"
#include "core/tape.h"

namespace ordo {

// The values of every registered optimizer's options (OptimizerInfo::options), at their
// defaults.
Options optimizer_options();

struct OptimizerConfig {
  std::string name = "adamw";
  double weight_decay = 0.01;              // decoupled, on parameters of rank >= 2 (decays())
  Options options = optimizer_options();   // each optimizer reads its own, by name
};

// Weight decay applies to every parameter of rank >= 2 (matrices, embedding and encoding
// tables), never to biases and LayerNorm gains.
inline bool decays(const Parameter& p) { return p.value.rank() >= 2; }

class Optimizer {
 public:
  explicit Optimizer(std::vector<Parameter*> params) : params_(std::move(params)) {}
  virtual ~Optimizer() = default;
  // One update with learning rate lr from the parameters' current gradients.
  virtual void step(double lr) = 0;
  // The moments, by "<kind>/<parameter name>", and the scalar state (step count).
  virtual std::vector<std::pair<std::string, Tensor>> state() const = 0;
  virtual void set_state(const std::vector<std::pair<std::string, Tensor>>& tensors, int64_t steps) = 0;
  int64_t steps() const { return steps_; }
  void zero_grad();
  const std::vector<Parameter*>& params() const { return params_; }

 protected:
  std::vector<Parameter*> params_;
  int64_t steps_ = 0;
};

// The parameters cut into blocks of at most 1024 elements: the work items of the loops over
// every parameter element (updates, clipping, adding gradients), so each such loop is one
// OpenMP region per step instead of one per parameter (a tiny model has 30 parameters, and
// 30 fork/joins took ~1% of its step). The blocks depend on the shapes only.
struct ParamBlock {
  size_t param;
  int64_t begin, end;
};
std::vector<ParamBlock> param_blocks(const std::vector<Parameter*>& params);

// Copies the tensor stored under `key` into `into` (set_state's helper); a missing key or
// another shape is an error naming it.
void restore_state(const std::vector<std::pair<std::string, Tensor>>& tensors, const std::string& key, Tensor& into);

using OptimizerFactory = std::unique_ptr<Optimizer> (*)(const OptimizerConfig&, std::vector<Parameter*>);

// What an optimizer's file declares about it (see train/optimizers/registry.cpp).
struct OptimizerInfo {
  std::string name;
  std::string summary;                // one line for --help
  std::vector<OptionSpec> options;    // its own options: flags, --help, logs, checkpoints
  OptimizerFactory make;
  // Checks what the chosen optimizer needs of its options together (ranges of single values
  // are OptionSpec::accepts), naming the --flag; chosen optimizer only. May be null.
  void (*check)(const Options&) = nullptr;
};

const std::vector<OptimizerInfo>& optimizers();
// The registry entry of `name`; an unknown name is an error listing the known ones.
const OptimizerInfo& optimizer_info(const std::string& name);
std::string optimizer_names();  // "adamw, sgd"

// Builds the optimizer `cfg.name` over `params`; an unknown name lists the known ones.
std::unique_ptr<Optimizer> make_optimizer(const OptimizerConfig& cfg, std::vector<Parameter*> params);

// Global-norm clipping: the L2 norm of all gradients together (in double: each block's sum
// over 8 lanes, then the blocks in order, so the same bits on any thread count); when it
// exceeds max_norm (> 0) every gradient is scaled by max_norm / norm. Returns the norm
// before clipping.
double clip_grad_norm(const std::vector<Parameter*>& params, double max_norm);

// The decay after warmup (docs/spec.md §5.2, --schedule): cosine to exactly 0 at the last step
// (ordo's default), or linear to 0 at step `total` (Hugging Face's "linear", Huang et al.'s).
enum class Schedule { cosine, linear };
Schedule parse_schedule(const std::string& name);  // "cosine", "linear"; else an error naming both

// Linear warmup over `warmup` steps, then the decay (docs/spec.md §5.2). `step` counts from 0;
// total is the number of steps of the run.
double learning_rate(double base_lr, int64_t step, int64_t warmup, int64_t total,
                     Schedule schedule = Schedule::cosine);

}  // namespace ordo
