// train/optimizer.h: AdamW and SGD with momentum (docs/spec.md §5).
//
// AdamW (Loshchilov & Hutter), decoupled weight decay as in PyTorch:
//   p <- p (1 - lr wd)                    only for parameters of rank >= 2
//   m <- b1 m + (1 - b1) g ;  v <- b2 v + (1 - b2) g^2
//   p <- p - lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
// SGD: u <- momentum u + g ; p <- p - lr (u + wd p for rank >= 2).
// Updates are elementwise loops: the same bits for any thread count.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/tape.h"

namespace ordo {

struct OptimizerConfig {
  std::string name = "adamw";  // adamw | sgd
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  double weight_decay = 0.01;
  double momentum = 0.9;       // sgd
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

// Unknown name: an error listing "adamw, sgd".
std::unique_ptr<Optimizer> make_optimizer(const OptimizerConfig& cfg, std::vector<Parameter*> params);

// Global-norm clipping: the L2 norm of all gradients together (in double: each block's sum
// over 8 lanes, then the blocks in order, so the same bits on any thread count); when it
// exceeds max_norm (> 0) every gradient is scaled by max_norm / norm. Returns the norm
// before clipping.
double clip_grad_norm(const std::vector<Parameter*>& params, double max_norm);

// Linear warmup over `warmup` steps, then cosine decay to 0 at the last step (docs/spec.md §5).
// `step` counts from 0; total is the number of steps of the run.
double learning_rate(double base_lr, int64_t step, int64_t warmup, int64_t total);

}  // namespace ordo
