// train/optimizers/sgd.cpp: SGD with momentum and decoupled weight decay (docs/spec.md §5.1):
//   u <- momentum u + g ;  p <- p - lr (u + wd p)   (wd only for parameters of rank >= 2)
#include <cstring>

#include "core/parallel.h"
#include "train/optimizer.h"

namespace ordo {
namespace {

class Sgd : public Optimizer {
 public:
  Sgd(const OptimizerConfig& c, std::vector<Parameter*> params)
      : Optimizer(std::move(params)), momentum_(c.options.real("momentum")), weight_decay_(c.weight_decay) {
    for (Parameter* p : params_) u_.push_back(Tensor::zeros(p->value.shape()));
  }

  void step(double lr) override {
    ++steps_;
    const Real mu = static_cast<Real>(momentum_), rlr = static_cast<Real>(lr);
    parallel_for(static_cast<int64_t>(blocks_.size()), 1024 * 4, [&](int64_t bi) {
      const ParamBlock& blk = blocks_[bi];
      Parameter& p = *params_[blk.param];
      Real* w = p.value.data();
      const Real* g = p.grad.data();
      Real* u = u_[blk.param].data();
      const Real wd = static_cast<Real>(decays(p) ? weight_decay_ : 0);
      for (int64_t e = blk.begin; e < blk.end; ++e) {
        u[e] = mu * u[e] + g[e];
        w[e] -= rlr * (u[e] + wd * w[e]);
      }
    });
  }

  std::vector<std::pair<std::string, Tensor>> state() const override {
    std::vector<std::pair<std::string, Tensor>> s;
    for (size_t i = 0; i < params_.size(); ++i) s.emplace_back("u/" + params_[i]->name, u_[i]);
    return s;
  }

  void set_state(const std::vector<std::pair<std::string, Tensor>>& tensors, int64_t steps) override {
    for (size_t i = 0; i < params_.size(); ++i) {
      const std::string key = "u/" + params_[i]->name;
      bool found = false;
      for (const auto& [name, value] : tensors)
        if (name == key) {
          check_same_shape(("optimizer state " + key).c_str(), value.shape(), u_[i].shape());
          std::memcpy(u_[i].data(), value.data(), sizeof(Real) * value.numel());
          found = true;
        }
      ORDO_CHECK(found, "optimizer state: '", key, "' missing from the checkpoint");
    }
    steps_ = steps;
  }

 private:
  double momentum_, weight_decay_;
  std::vector<Tensor> u_;
  std::vector<ParamBlock> blocks_ = param_blocks(params_);
};

}  // namespace

OptimizerInfo optimizer_info_sgd() {
  return {
      .name = "sgd",
      .summary = "SGD with momentum",
      .options = {{"momentum", OptionType::Real, "0.9", "momentum", "in [0, 1)",
                   [](double v) { return v >= 0 && v < 1; }}},
      .make = [](const OptimizerConfig& c, std::vector<Parameter*> params) -> std::unique_ptr<Optimizer> {
        return std::make_unique<Sgd>(c, std::move(params));
      },
  };
}

}  // namespace ordo
