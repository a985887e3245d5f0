// train/optimizers/adamw.cpp: AdamW (Loshchilov & Hutter 2019), decoupled weight decay as
// in PyTorch (docs/spec.md §5.1):
//   p <- p (1 - lr wd)                    only for parameters of rank >= 2
//   m <- b1 m + (1 - b1) g ;  v <- b2 v + (1 - b2) g^2
//   p <- p - lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
// Updates are elementwise loops over parameter blocks: the same bits for any thread count.
#include <cmath>

#include "core/parallel.h"
#include "train/optimizer.h"

namespace ordo {
namespace {

bool in_unit_interval(double v) { return v >= 0 && v < 1; }  // [0, 1)

class AdamW : public Optimizer {
 public:
  AdamW(const OptimizerConfig& c, std::vector<Parameter*> params)
      : Optimizer(std::move(params)), beta1_(c.options.real("beta1")), beta2_(c.options.real("beta2")),
        eps_(c.options.real("eps")), weight_decay_(c.weight_decay) {
    for (Parameter* p : params_) {
      m_.push_back(Tensor::zeros(p->value.shape()));
      v_.push_back(Tensor::zeros(p->value.shape()));
    }
  }

  void step(double lr) override {
    ++steps_;
    const double b1 = beta1_, b2 = beta2_;
    const double c1 = 1 - std::pow(b1, static_cast<double>(steps_));
    const double c2 = 1 - std::pow(b2, static_cast<double>(steps_));
    const Real rb1 = static_cast<Real>(b1), rb2 = static_cast<Real>(b2);
    const Real step_size = static_cast<Real>(lr / c1), rc2 = static_cast<Real>(1 / std::sqrt(c2));
    const Real eps = static_cast<Real>(eps_);
    const Real shrink_decayed = static_cast<Real>(1 - lr * weight_decay_);
    parallel_for(static_cast<int64_t>(blocks_.size()), 1024 * 8, [&](int64_t bi) {
      const ParamBlock& blk = blocks_[bi];
      Parameter& p = *params_[blk.param];
      Real* __restrict w = p.value.data();
      const Real* __restrict g = p.grad.data();
      Real* __restrict m = m_[blk.param].data();
      Real* __restrict v = v_[blk.param].data();
      const Real shrink = decays(p) ? shrink_decayed : Real(1);
#pragma omp simd
      for (int64_t e = blk.begin; e < blk.end; ++e) {
        m[e] = rb1 * m[e] + (1 - rb1) * g[e];
        v[e] = rb2 * v[e] + (1 - rb2) * g[e] * g[e];
        w[e] = w[e] * shrink - step_size * m[e] / (std::sqrt(v[e]) * rc2 + eps);
      }
    });
  }

  std::vector<std::pair<std::string, Tensor>> state() const override {
    std::vector<std::pair<std::string, Tensor>> s;
    for (size_t i = 0; i < params_.size(); ++i) {
      s.emplace_back("m/" + params_[i]->name, m_[i]);
      s.emplace_back("v/" + params_[i]->name, v_[i]);
    }
    return s;
  }

  void set_state(const std::vector<std::pair<std::string, Tensor>>& tensors, int64_t steps) override {
    for (size_t i = 0; i < params_.size(); ++i) {
      restore_state(tensors, "m/" + params_[i]->name, m_[i]);
      restore_state(tensors, "v/" + params_[i]->name, v_[i]);
    }
    steps_ = steps;
  }

 private:
  double beta1_, beta2_, eps_, weight_decay_;
  std::vector<Tensor> m_, v_;
  std::vector<ParamBlock> blocks_ = param_blocks(params_);
};

}  // namespace

OptimizerInfo optimizer_info_adamw() {
  return {
      .name = "adamw",
      .summary = "Adam with decoupled weight decay",
      .options = {{"beta1", OptionType::Real, "0.9", "first-moment decay", "in [0, 1)", in_unit_interval},
                  {"beta2", OptionType::Real, "0.999", "second-moment decay", "in [0, 1)", in_unit_interval},
                  {"eps", OptionType::Real, "1e-8", "added to sqrt(v)", "positive", [](double v) { return v > 0; }}},
      .make = [](const OptimizerConfig& c, std::vector<Parameter*> params) -> std::unique_ptr<Optimizer> {
        return std::make_unique<AdamW>(c, std::move(params));
      },
  };
}

}  // namespace ordo
