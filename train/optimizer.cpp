#include "train/optimizer.h"

#include <algorithm>
#include <cmath>
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

namespace {

class AdamW : public Optimizer {
 public:
  AdamW(const OptimizerConfig& c, std::vector<Parameter*> params) : Optimizer(std::move(params)), cfg_(c) {
    for (Parameter* p : params_) {
      m_.push_back(Tensor::zeros(p->value.shape()));
      v_.push_back(Tensor::zeros(p->value.shape()));
    }
  }

  void step(double lr) override {
    ++steps_;
    const double b1 = cfg_.beta1, b2 = cfg_.beta2;
    const double c1 = 1 - std::pow(b1, static_cast<double>(steps_));
    const double c2 = 1 - std::pow(b2, static_cast<double>(steps_));
    const Real rb1 = static_cast<Real>(b1), rb2 = static_cast<Real>(b2);
    const Real step_size = static_cast<Real>(lr / c1), rc2 = static_cast<Real>(1 / std::sqrt(c2));
    const Real eps = static_cast<Real>(cfg_.eps);
    const Real shrink_decayed = static_cast<Real>(1 - lr * cfg_.weight_decay);
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
      restore(tensors, "m/" + params_[i]->name, m_[i]);
      restore(tensors, "v/" + params_[i]->name, v_[i]);
    }
    steps_ = steps;
  }

  static void restore(const std::vector<std::pair<std::string, Tensor>>& tensors, const std::string& key,
                      Tensor& into) {
    for (const auto& [name, value] : tensors)
      if (name == key) {
        check_same_shape(("optimizer state " + key).c_str(), value.shape(), into.shape());
        std::memcpy(into.data(), value.data(), sizeof(Real) * into.numel());
        return;
      }
    fail("optimizer state: '", key, "' missing from the checkpoint");
  }

 private:
  OptimizerConfig cfg_;
  std::vector<Tensor> m_, v_;
  std::vector<ParamBlock> blocks_ = param_blocks(params_);
};

class Sgd : public Optimizer {
 public:
  Sgd(const OptimizerConfig& c, std::vector<Parameter*> params) : Optimizer(std::move(params)), cfg_(c) {
    for (Parameter* p : params_) u_.push_back(Tensor::zeros(p->value.shape()));
  }

  void step(double lr) override {
    ++steps_;
    const Real mu = static_cast<Real>(cfg_.momentum), rlr = static_cast<Real>(lr);
    parallel_for(static_cast<int64_t>(blocks_.size()), 1024 * 4, [&](int64_t bi) {
      const ParamBlock& blk = blocks_[bi];
      Parameter& p = *params_[blk.param];
      Real* w = p.value.data();
      const Real* g = p.grad.data();
      Real* u = u_[blk.param].data();
      const Real wd = static_cast<Real>(decays(p) ? cfg_.weight_decay : 0);
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
  OptimizerConfig cfg_;
  std::vector<Tensor> u_;
  std::vector<ParamBlock> blocks_ = param_blocks(params_);
};

}  // namespace

std::unique_ptr<Optimizer> make_optimizer(const OptimizerConfig& cfg, std::vector<Parameter*> params) {
  ORDO_CHECK(cfg.beta1 >= 0 && cfg.beta1 < 1 && cfg.beta2 >= 0 && cfg.beta2 < 1,
             "optimizer: betas must be in [0, 1), got ", cfg.beta1, ", ", cfg.beta2);
  ORDO_CHECK(cfg.eps > 0, "optimizer: eps must be positive, got ", cfg.eps);
  ORDO_CHECK(cfg.weight_decay >= 0, "optimizer: weight decay must be >= 0, got ", cfg.weight_decay);
  if (cfg.name == "adamw") return std::make_unique<AdamW>(cfg, std::move(params));
  if (cfg.name == "sgd") return std::make_unique<Sgd>(cfg, std::move(params));
  fail("unknown optimizer '", cfg.name, "'; known: adamw, sgd");
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

double learning_rate(double base_lr, int64_t step, int64_t warmup, int64_t total) {
  if (step < warmup) return base_lr * static_cast<double>(step + 1) / static_cast<double>(warmup);
  const int64_t span = total - 1 - warmup;
  if (span <= 0) return base_lr;
  const double progress = std::min(1.0, static_cast<double>(step - warmup) / static_cast<double>(span));
  return base_lr * 0.5 * (1 + std::cos(M_PI * progress));
}

}  // namespace ordo
