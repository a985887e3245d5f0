// core/gradcheck.h: compares a tape's gradients with central finite differences.
//
// The function under test maps input Vars to an output Var of any shape. The checker
// contracts the output with a fixed random tensor R (loss = sum(out * R)), so the
// backward pass is seeded with R, and compares d loss / d input for every element of
// every input with (loss(x + eps) - loss(x - eps)) / (2 eps). Run it in the float64 build
// (ordo_numeric_f64), where eps = 1e-6 gives ~1e-9 accuracy.
//
// check_gradients takes the backward of f through both ways the tape delivers a gradient
// (Tape::add_grad): added to an input's existing gradient, and stored as its first one into
// a new buffer, which starts as NaN in the float64 build, so an element the backward never
// writes fails the check ("input 0 (first gradient stored) element 5: analytic nan ...").
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/tape.h"

namespace ordo {

struct GradCheckOptions {
  double eps = 1e-6;
  double atol = 1e-6;  // pass when |analytic - numeric| <= atol + rtol * |numeric|
  double rtol = 1e-5;
  uint64_t seed = 1234;
};

struct GradCheckResult {
  bool ok = true;
  double max_abs_error = 0;   // over every element of every input
  std::string worst;          // "input 1 element 7: analytic 0.3 numeric 0.31"
  int64_t checked = 0;        // elements compared
};

using GradCheckFn = std::function<Var(Tape&, const std::vector<Var>&)>;

// `inputs` are perturbed in place during the check and restored afterwards.
GradCheckResult check_gradients(const GradCheckFn& f, std::vector<Tensor> inputs,
                                const GradCheckOptions& options = {});

// The same for a model: perturbs every element of every parameter; `loss` builds a
// scalar from the parameters' current values (use tape.param inside).
GradCheckResult check_parameter_gradients(const std::function<Var(Tape&)>& loss,
                                          const std::vector<Parameter*>& params,
                                          const GradCheckOptions& options = {});

}  // namespace ordo
