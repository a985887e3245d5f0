// train/optimizer.cpp: what every optimizer shares: parameter blocks, state restore,
// global-norm clipping and the learning-rate schedule (see train/optimizer.h).
#include "train/optimizer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/fastmath.h"
#include "core/parallel.h"

namespace ordo {

void Optimizer::zero_grad() {
  for (Parameter* p : params_) p->zero_grad();
}

std::vector<ParamBlock> param_blocks(const std::vector<Parameter*>& params) {
  constexpr int64_t kBlock = 1024;
  std::vector<ParamBlock> blocks;
  for (size_t i = 0; i < params.size(); ++i)
    for (int64_t e = 0, n = params[i]->value.numel(); e < n; e += kBlock)
      blocks.push_back(ParamBlock{i, e, std::min(n, e + kBlock)});
  return blocks;
}


std::unique_ptr<Optimizer> make_optimizer(const OptimizerConfig& cfg, std::vector<Parameter*> params) {
  ORDO_CHECK(cfg.weight_decay >= 0, "optimizer: weight decay must be >= 0, got ", cfg.weight_decay);
  return optimizer_info(cfg.name).make(cfg, std::move(params));
}

void restore_state(const std::vector<std::pair<std::string, Tensor>>& tensors, const std::string& key, Tensor& into) {
  for (const auto& [name, value] : tensors)
    if (name == key) {
      check_same_shape(("optimizer state " + key).c_str(), value.shape(), into.shape());
      std::memcpy(into.data(), value.data(), sizeof(Real) * into.numel());
      return;
    }
  fail("optimizer state: '", key, "' missing from the checkpoint");
}

double clip_grad_norm(const std::vector<Parameter*>& params, double max_norm) {
  const std::vector<ParamBlock> blocks = param_blocks(params);
  const int64_t n = static_cast<int64_t>(blocks.size());
  std::vector<double> sums(blocks.size());
  parallel_for(n, 1024 * 2, [&](int64_t bi) {
    const ParamBlock& b = blocks[bi];
    const Real* g = params[b.param]->grad.data() + b.begin;
    sums[bi] = lane_sum<double>(b.end - b.begin, [&](int64_t e) { return static_cast<double>(g[e]) * g[e]; });
  });
  double total = 0;
  for (double s : sums) total += s;
  const double norm = std::sqrt(total);
  if (max_norm > 0 && std::isfinite(norm) && norm > max_norm) {
    const Real factor = static_cast<Real>(max_norm / norm);
    parallel_for(n, 1024, [&](int64_t bi) {
      const ParamBlock& b = blocks[bi];
      Real* g = params[b.param]->grad.data();
      for (int64_t e = b.begin; e < b.end; ++e) g[e] *= factor;
    });
  }
  return norm;
}

Schedule parse_schedule(const std::string& name) {
  if (name == "cosine") return Schedule::cosine;
  if (name == "linear") return Schedule::linear;
  fail("--schedule: unknown '", name, "'; accepted: cosine, linear");
}

double learning_rate(double base_lr, int64_t step, int64_t warmup, int64_t total, Schedule schedule) {
  if (step < warmup) return base_lr * static_cast<double>(step + 1) / static_cast<double>(warmup);
  if (schedule == Schedule::linear)  // lr (S - s) / (S - w): lr at step w, lr / (S - w) at the last step
    return base_lr * static_cast<double>(std::max<int64_t>(total - step, 0)) /
           static_cast<double>(std::max<int64_t>(total - warmup, 1));
  const int64_t span = total - 1 - warmup;
  if (span <= 0) return base_lr;
  const double progress = std::min(1.0, static_cast<double>(step - warmup) / static_cast<double>(span));
  return base_lr * 0.5 * (1 + std::cos(M_PI * progress));
}

}  // namespace ordo
