#include "layers/layernorm.h"

#include "core/ops.h"

namespace ordo {

LayerNorm::LayerNorm(std::string n, int64_t dim, double e)
    : Module(std::move(n)),
      gamma(child("gamma"), Tensor::full(Shape{dim}, 1)),
      beta(child("beta"), Tensor::zeros(Shape{dim})),
      eps(e) {}

Var LayerNorm::forward(Tape& t, Var x) {
  return layernorm(t, x, t.param(gamma), t.param(beta), static_cast<Real>(eps));
}

}  // namespace ordo
