// layers/feedforward.h: Linear(d, d_ff) -> GELU (tanh form) -> Linear(d_ff, d).
#pragma once

#include "layers/linear.h"

namespace ordo {

class FeedForward : public Module {
 public:
  FeedForward(std::string name, int64_t d_model, int64_t d_ff, uint64_t seed, double out_std);
  // (..., d) -> (..., d); fused_gelu: fc1 and the GELU as one op (linear_gelu, the same bits).
  Var forward(Tape& t, Var x, bool fused_gelu = true);
  // residual + forward(x), the addition fused into fc2 (a residual connection).
  Var forward_residual(Tape& t, Var x, Var residual);
  void collect_parameters(std::vector<Parameter*>& out) override {
    fc1.collect_parameters(out);
    fc2.collect_parameters(out);
  }
  Linear fc1, fc2;
};

}  // namespace ordo
