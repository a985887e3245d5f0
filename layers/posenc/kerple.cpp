// layers/posenc/kerple.cpp: kernelized relative positional biases (KERPLE, Chi et al. 2022).
//
// Two conditionally positive definite kernels of the distance d = |t - u|, shifted into
// attention-logit biases, with two learned parameters per head (docs/spec.md §2.9):
//   kerple_log:    bias[h, t, u] = -r1_h log(1 + r2_h d)
//   kerple_power:  bias[h, t, u] = -r1_h d^r2_h,   0 < r2_h <= 2
// The power form with r2 = 1 is an ALiBi bias of slope r1; the log form decays slower than
// any power. The paper's models are causal (keys u <= t only, d = t - u); with a
// bidirectional mask ordo uses the same kernel of |t - u| on both sides, which is what a
// kernel of the distance means and keeps the bias symmetric.
//
// Constraints and init follow the authors' code (GPT-NeoX, ParallelKerpleLog/Power): r1, r2
// start uniform (the exponent-like parameter in [0, 2), the other in [0, 1)) and are
// projected after every update onto r >= 0.01 (and r2 <= 2 for the power form): bounded
// Parameters (core/tape.h), clamped by the trainer. They are rank-1 tensors (H), so AdamW
// does not decay them, as GPT-NeoX leaves its "bias_*" parameters undecayed.
//
// The bias depends on u - t only: it is returned in relative form (H, Lq + Lk - 1), which the
// fused attention expands on the fly, with its gradient to r1 and r2 through the tape ops.
#include <cmath>
#include <string_view>
#include <vector>

#include "core/ops.h"
#include "core/rng.h"
#include "layers/posenc/encoding.h"
#include "layers/posenc/table_cache.h"

namespace ordo {
namespace {

constexpr double kMinParameter = 0.01;  // the authors' eps

enum class Kernel { Log, Power };

// U(0, scale) per head, a function of (seed, name), projected into [lower, upper].
Parameter uniform_parameter(std::string_view name, int64_t heads, double scale, uint64_t seed, double upper) {
  Tensor v = Tensor::empty(Shape{heads});
  CounterRng rng(seed, hash64(name));
  for (int64_t h = 0; h < heads; ++h) v[h] = static_cast<Real>(rng.uniform() * scale);
  Parameter p(std::string(name), v);
  p.lower = static_cast<Real>(kMinParameter);
  p.upper = static_cast<Real>(upper);
  p.project();
  return p;
}

class KerpleEncoding final : public PositionalEncoding {
 public:
  KerpleEncoding(const EncodingConfig& cfg, Kernel kernel)
      : kernel_(kernel),
        heads_(cfg.n_heads),
        // log: r1 ~ U(0, 2), r2 ~ U(0, 1); power: r1 ~ U(0, 1), r2 ~ U(0, 2) with r2 <= 2.
        r1_(uniform_parameter("posenc.kerple_r1", cfg.n_heads, kernel == Kernel::Log ? 2.0 : 1.0, cfg.seed,
                              std::numeric_limits<double>::infinity())),
        r2_(uniform_parameter("posenc.kerple_r2", cfg.n_heads, kernel == Kernel::Log ? 1.0 : 2.0, cfg.seed,
                              kernel == Kernel::Log ? std::numeric_limits<double>::infinity() : 2.0)) {
    ORDO_CHECK(cfg.n_heads > 0, name(), ": n_heads must be positive, got ", cfg.n_heads);
  }
  std::string name() const override { return kernel_ == Kernel::Log ? "kerple_log" : "kerple_power"; }

  // (H, 2L - 1): entry [h, j] is the bias at distance d = |j - (L - 1)|.
  std::optional<AttentionBias> bias(Tape& t, const Positions& pos) override {
    ORDO_CHECK(pos.length > 0, name(), ": Positions.length must be positive, got ", pos.length);
    const Shape per_head{heads_, 1};
    Var r1 = reshape(t, t.param(r1_), per_head), r2 = reshape(t, t.param(r2_), per_head);
    // Relative (H, 2L - 1) for contiguous positions; with randomized positions the distances
    // of every (query, key) pair, (H, L^2), returned as the full (H, L, L).
    const Distances d = pos.contiguous() ? distances_.get(pos.length, [&] { return make_distances(relative_distances(pos.length)); })
                                         : make_distances(pair_distances(pos));
    Var kernel;  // (H, 2L - 1), >= 0
    if (kernel_ == Kernel::Log) {
      kernel = mul(t, r1, log1p(t, mul(t, r2, t.input(d.distance))));
    } else {
      // d^r2 = exp(r2 log d) for d >= 1, and 0 at d = 0 (log d taken as 0 there, then masked,
      // so the gradient to r2 is 0 rather than 0 * -inf).
      Var power = mul(t, exp(t, mul(t, r2, t.input(d.log_distance))), t.input(d.nonzero));
      kernel = mul(t, r1, power);
    }
    Var bias = scale(t, kernel, Real(-1));
    if (pos.contiguous()) return AttentionBias{bias, true};
    return AttentionBias{reshape(t, bias, Shape{heads_, pos.length, pos.length}), false};
  }

  std::vector<Parameter*> parameters() override { return {&r1_, &r2_}; }

 private:
  struct Distances {
    Tensor distance;      // (1, 2L - 1): d
    Tensor log_distance;  // (1, 2L - 1): log d, 0 at d = 0
    Tensor nonzero;       // (1, 2L - 1): 1 where d > 0
  };

  // |u - t| of the relative layout: entry j = (u - t) + L - 1.
  static std::vector<double> relative_distances(int64_t L) {
    std::vector<double> out;
    for (int64_t j = 0; j < 2 * L - 1; ++j) out.push_back(std::fabs(static_cast<double>(j - (L - 1))));
    return out;
  }
  // |pos.at(u) - pos.at(t)| of every (query t, key u), row-major.
  static std::vector<double> pair_distances(const Positions& pos) {
    std::vector<double> out;
    for (int64_t q = 0; q < pos.length; ++q)
      for (int64_t k = 0; k < pos.length; ++k) out.push_back(std::fabs(static_cast<double>(pos.at(k) - pos.at(q))));
    return out;
  }

  static Distances make_distances(const std::vector<double>& distances) {
    const int64_t W = static_cast<int64_t>(distances.size());
    Distances d{Tensor::empty(Shape{1, W}), Tensor::empty(Shape{1, W}), Tensor::empty(Shape{1, W})};
    for (int64_t j = 0; j < W; ++j) {
      const double dist = distances[static_cast<size_t>(j)];
      d.distance[j] = static_cast<Real>(dist);
      d.log_distance[j] = static_cast<Real>(dist > 0 ? std::log(dist) : 0.0);
      d.nonzero[j] = dist > 0 ? Real(1) : Real(0);
    }
    return d;
  }

  Kernel kernel_;
  int64_t heads_;
  Parameter r1_, r2_;  // (H)
  TableCache<int64_t, Distances> distances_;  // by length
};

}  // namespace

EncodingInfo encoding_info_kerple_log() {
  return {
      .name = "kerple_log",
      .summary = "bias: -r1_h log(1 + r2_h |t - u|), r1, r2 > 0 learned per head",
      .options = {},  // none
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<KerpleEncoding>(c, Kernel::Log);
      },
      .in_default_study = false,
      .random_offset = RandomOffset::invariant,  // positions enter only as differences
  };
}

EncodingInfo encoding_info_kerple_power() {
  return {
      .name = "kerple_power",
      .summary = "bias: -r1_h |t - u|^r2_h, r1 > 0 and 0 < r2 <= 2 learned per head",
      .options = {},  // none
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<KerpleEncoding>(c, Kernel::Power);
      },
      .in_default_study = false,
      .random_offset = RandomOffset::invariant,  // positions enter only as differences
  };
}

}  // namespace ordo
