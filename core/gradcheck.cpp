// core/gradcheck.cpp
#include "core/gradcheck.h"

#include <cmath>
#include <sstream>

#include "core/ops.h"
#include "core/rng.h"

namespace ordo {
namespace {

void compare(GradCheckResult& r, const GradCheckOptions& o, const char* how, size_t input,
             int64_t element, double analytic, double numeric) {
  double err = std::fabs(analytic - numeric);
  ++r.checked;
  bool bad = !(err <= o.atol + o.rtol * std::fabs(numeric));  // NaN fails
  if (bad || err > r.max_abs_error || std::isnan(err)) {
    if (!std::isnan(err)) r.max_abs_error = std::max(r.max_abs_error, err);
    if (bad && r.ok) {
      std::ostringstream os;
      os << "input " << input << how << " element " << element << ": analytic " << analytic
         << " numeric " << numeric;
      r.worst = os.str();
      r.ok = false;
    }
  }
}

using Loss = std::function<Var(Tape&)>;

// d loss / d p for every parameter p, by one backward pass.
std::vector<Tensor> tape_gradients(const Loss& loss, const std::vector<Parameter*>& params) {
  for (Parameter* p : params) p->zero_grad();
  {
    Tape t;
    t.backward(loss(t));
  }
  std::vector<Tensor> grads;
  for (Parameter* p : params) grads.push_back(p->grad.clone());
  return grads;
}

// One set of tape gradients to compare, and how they were delivered (for the message).
struct Analytic {
  const char* how;
  std::vector<Tensor> grads;
};

// Compares every set with central differences of `loss`, element by element; `checked`
// counts the elements once.
GradCheckResult compare_with_differences(const Loss& loss, const std::vector<Parameter*>& params,
                                         const std::vector<Analytic>& sets, const GradCheckOptions& o) {
  GradCheckResult r;
  auto value_at = [&]() {
    Tape t;
    NoGradGuard guard(t);
    return static_cast<double>(t.value(loss(t)).item());
  };
  for (size_t i = 0; i < params.size(); ++i) {
    Tensor& x = params[i]->value;
    for (int64_t e = 0; e < x.numel(); ++e) {
      const Real saved = x[e];
      const Real hi = static_cast<Real>(saved + o.eps), lo = static_cast<Real>(saved - o.eps);
      x[e] = hi;
      double up = value_at();
      x[e] = lo;
      double down = value_at();
      x[e] = saved;
      const double step = static_cast<double>(hi) - static_cast<double>(lo);  // exact spacing
      for (const Analytic& set : sets)
        compare(r, o, set.how, i, e, static_cast<double>(set.grads[i][e]), (up - down) / step);
    }
  }
  r.checked /= std::max<int64_t>(1, static_cast<int64_t>(sets.size()));
  return r;
}

}  // namespace

GradCheckResult check_gradients(const GradCheckFn& f, std::vector<Tensor> inputs,
                                const GradCheckOptions& o) {
  std::vector<Parameter> params;
  params.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) params.emplace_back("input" + std::to_string(i), inputs[i]);
  std::vector<Parameter*> ptrs;
  for (auto& p : params) ptrs.push_back(&p);

  // Each input enters f twice over: as a parameter, whose gradient the tape always adds to
  // (Tape::Add), and as the output of scale(x, 1), whose first gradient f's backward writes
  // into a new buffer (Tape::Store; NaN until written in the float64 build, so an element
  // the backward skips shows). Both sets of gradients must match the differences.
  Tensor R;  // the output's shape fixes the random contraction tensor
  auto loss_of = [&](bool through_op) {
    return [&, through_op](Tape& t) {
      std::vector<Var> vars;
      for (auto& p : params) vars.push_back(through_op ? scale(t, t.param(p), Real(1)) : t.param(p));
      Var out = f(t, vars);
      if (!R.defined()) {
        R = Tensor::empty(t.shape(out));
        CounterRng rng(o.seed, 0);
        for (int64_t i = 0; i < R.numel(); ++i) R[i] = static_cast<Real>(rng.uniform() * 2 - 1);
      }
      return sum(t, mul(t, out, t.input(R)));
    };
  };
  const std::vector<Analytic> sets = {{"", tape_gradients(loss_of(false), ptrs)},
                                      {" (first gradient stored)", tape_gradients(loss_of(true), ptrs)}};
  return compare_with_differences(loss_of(false), ptrs, sets, o);
}

GradCheckResult check_parameter_gradients(const Loss& loss, const std::vector<Parameter*>& params,
                                          const GradCheckOptions& o) {
  const std::vector<Tensor> grads = tape_gradients(loss, params);
  return compare_with_differences(loss, params, {{"", grads}}, o);
}

}  // namespace ordo
