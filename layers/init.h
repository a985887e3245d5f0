// layers/init.h: deterministic parameter initialisation.
//
// A parameter's initial values are a pure function of (seed, its hierarchical name), so
// building the model in another order, or adding a module, leaves every other
// parameter's initial values unchanged.
#pragma once

#include <string_view>

#include "core/rng.h"
#include "core/tensor.h"

namespace ordo {

// N(0, std^2) values for the parameter called `name`.
inline Tensor normal_init(const Shape& shape, double std, uint64_t seed, std::string_view name) {
  Tensor t = Tensor::empty(shape);
  CounterRng rng(seed, hash64(name));
  for (int64_t i = 0; i < t.numel(); ++i) t[i] = static_cast<Real>(rng.normal() * std);
  return t;
}

// N(0, std^2) values truncated to two standard deviations (a draw outside is drawn again),
// for the parameter called `name`: Haiku's hk.initializers.TruncatedNormal, the default of
// its hk.Linear with std = 1 / sqrt(fan_in), which does not rescale for the truncation.
inline Tensor truncated_normal_init(const Shape& shape, double std, uint64_t seed, std::string_view name) {
  Tensor t = Tensor::empty(shape);
  CounterRng rng(seed, hash64(name));
  for (int64_t i = 0; i < t.numel(); ++i) {
    double z = rng.normal();
    while (z < -2.0 || z > 2.0) z = rng.normal();
    t[i] = static_cast<Real>(z * std);
  }
  return t;
}

// U(-bound, bound) values for the parameter called `name`. PyTorch's nn.Linear default is
// this with bound = 1 / sqrt(fan_in), for the weight (kaiming_uniform with a = sqrt 5) and
// the bias alike.
inline Tensor uniform_init(const Shape& shape, double bound, uint64_t seed, std::string_view name) {
  Tensor t = Tensor::empty(shape);
  CounterRng rng(seed, hash64(name));
  for (int64_t i = 0; i < t.numel(); ++i) t[i] = static_cast<Real>((2.0 * rng.uniform() - 1.0) * bound);
  return t;
}

}  // namespace ordo
