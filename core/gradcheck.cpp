// core/gradcheck.cpp
#include "core/gradcheck.h"

#include <cmath>
#include <sstream>

#include "core/ops.h"
#include "core/rng.h"

namespace ordo {
namespace {

void compare(GradCheckResult& r, const GradCheckOptions& o, size_t input, int64_t element,
             double analytic, double numeric) {
  double err = std::fabs(analytic - numeric);
  ++r.checked;
  bool bad = !(err <= o.atol + o.rtol * std::fabs(numeric));  // NaN fails
  if (bad || err > r.max_abs_error || std::isnan(err)) {
    if (!std::isnan(err)) r.max_abs_error = std::max(r.max_abs_error, err);
    if (bad && r.ok) {
      std::ostringstream os;
      os << "input " << input << " element " << element << ": analytic " << analytic
         << " numeric " << numeric;
      r.worst = os.str();
      r.ok = false;
    }
  }
}

}  // namespace

GradCheckResult check_gradients(const GradCheckFn& f, std::vector<Tensor> inputs,
                                const GradCheckOptions& o) {
  std::vector<Parameter> params;
  params.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) params.emplace_back("input" + std::to_string(i), inputs[i]);

  // The output's shape fixes the random contraction tensor.
  Tensor R;
  auto loss = [&](Tape& t) {
    std::vector<Var> vars;
    for (auto& p : params) vars.push_back(t.param(p));
    Var out = f(t, vars);
    if (!R.defined()) {
      R = Tensor::empty(t.shape(out));
      CounterRng rng(o.seed, 0);
      for (int64_t i = 0; i < R.numel(); ++i) R[i] = static_cast<Real>(rng.uniform() * 2 - 1);
    }
    return sum(t, mul(t, out, t.input(R)));
  };
  std::vector<Parameter*> ptrs;
  for (auto& p : params) ptrs.push_back(&p);
  return check_parameter_gradients(loss, ptrs, o);
}

GradCheckResult check_parameter_gradients(const std::function<Var(Tape&)>& loss,
                                          const std::vector<Parameter*>& params,
                                          const GradCheckOptions& o) {
  GradCheckResult r;
  for (Parameter* p : params) p->zero_grad();
  {
    Tape t;
    t.backward(loss(t));
  }
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
      compare(r, o, i, e, static_cast<double>(params[i]->grad[e]), (up - down) / step);
    }
  }
  return r;
}

}  // namespace ordo
