#include "layers/linear.h"

#include "core/ops.h"
#include "layers/init.h"

namespace ordo {

Linear::Linear(std::string n, int64_t in, int64_t out, uint64_t seed, double init_std, bool bias_on)
    : Module(std::move(n)),
      weight(child("weight"), normal_init(Shape{in, out}, init_std, seed, child("weight"))),
      bias(child("bias"), Tensor::zeros(Shape{out})),
      with_bias(bias_on) {
  ORDO_CHECK(in > 0 && out > 0, "Linear '", name(), "': sizes must be positive, got ", in, " -> ", out);
}

Var Linear::forward(Tape& t, Var x) {
  if (with_bias) return linear(t, x, t.param(weight), t.param(bias));  // x W + b, one op
  return matmul(t, x, t.param(weight));                                 // (..., in) x (in, out)
}

Var Linear::forward_residual(Tape& t, Var x, Var residual) {
  if (with_bias) return linear_residual(t, x, t.param(weight), t.param(bias), residual);
  return add(t, residual, matmul(t, x, t.param(weight)));
}

Var Linear::forward_rotated(Tape& t, Var x, const Tensor& cos, const Tensor& sin) {
  if (with_bias) return linear_rotate(t, x, t.param(weight), t.param(bias), cos, sin);
  return rotate_pairs(t, matmul(t, x, t.param(weight)), cos, sin);
}

Var Linear::forward_gelu(Tape& t, Var x) {
  if (with_bias) return linear_gelu(t, x, t.param(weight), t.param(bias));
  return gelu(t, matmul(t, x, t.param(weight)));
}

void Linear::collect_parameters(std::vector<Parameter*>& out) {
  out.push_back(&weight);
  if (with_bias) out.push_back(&bias);
}

}  // namespace ordo
