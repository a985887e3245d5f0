// layers/layernorm.h: LayerNorm over the last axis, gamma = 1, beta = 0 at init.
#pragma once

#include "layers/module.h"

namespace ordo {

class LayerNorm : public Module {
 public:
  LayerNorm(std::string name, int64_t dim, double eps = 1e-5);
  Var forward(Tape& t, Var x);  // (..., d) -> (..., d)
  void collect_parameters(std::vector<Parameter*>& out) override {
    out.push_back(&gamma);
    out.push_back(&beta);
  }
  Parameter gamma, beta;
  double eps;
};

}  // namespace ordo
