// layers/linear.h: y = x W + b, W (in, out), b (out).
#pragma once

#include "layers/module.h"

namespace ordo {

class Linear : public Module {
 public:
  // W ~ N(0, init_std^2) from (seed, name), b = 0.
  Linear(std::string name, int64_t in, int64_t out, uint64_t seed, double init_std = 0.02,
         bool with_bias = true);
  Var forward(Tape& t, Var x);  // (..., in) -> (..., out)
  Var forward_gelu(Tape& t, Var x);  // gelu(forward(x)), fused (core/ops.h linear_gelu)
  // residual + forward(x), fused (core/ops.h linear_residual): a residual connection.
  Var forward_residual(Tape& t, Var x, Var residual);
  // rotate_pairs(forward(x), cos, sin), fused (core/ops.h linear_rotate): x (..., L, in),
  // cos and sin (L, out / 2).
  Var forward_rotated(Tape& t, Var x, const Tensor& cos, const Tensor& sin);
  void collect_parameters(std::vector<Parameter*>& out) override;

  int64_t in_features() const { return weight.value.dim(0); }
  int64_t out_features() const { return weight.value.dim(1); }
  Parameter weight, bias;
  bool with_bias;
};

}  // namespace ordo
