// core/ops/unary.cpp: elementwise functions of one tensor.
//
//   exp:  y = e^x                        dx += dy * y
//   log:  y = ln x                       dx += dy / x
//   log1p: y = ln(1 + x)                 dx += dy / (1 + x)   (exact for small x, unlike log(1 + x))
//   tanh: y = tanh x                     dx += dy * (1 - y^2)
//   sigmoid: y = 1 / (1 + e^-x)          dx += dy * y (1 - y)
//   log_sigmoid: y = ln sigmoid(x) = min(x, 0) - ln(1 + e^-|x|)      dx += dy * (1 - sigmoid(x))
//   softplus: y = ln(1 + e^x) = max(x, 0) + ln(1 + e^-|x|)             dx += dy * sigmoid(x)
//         (= -log_sigmoid(-x) to the bit, in one pass instead of three)
//   relu: y = max(x, 0)                  dx += dy * [x > 0]
//   clamp: y = min(max(x, lo), hi)       dx += dy * [lo <= x <= hi]   (PyTorch's clamp: the
//         gradient passes at the bounds themselves, so a value initialised on a bound can leave it)
//   gelu: y = 0.5 x (1 + tanh u),  u = c (x + k x^3),  c = sqrt(2 / pi),  k = 0.044715
//         computed as y = x sigmoid(2u) with its slope dy/dx from the same exp
//         (core/fastmath.h gelu_with_slope); the slope is kept:  dx += dy * slope
//
// The ops that differentiate through their output (exp, tanh, sigmoid) keep the output tensor (which
// the tape holds anyway); the others read the input from the tape.
#include <algorithm>
#include <cmath>

#include "core/fastmath.h"
#include "core/ops.h"
#include "core/parallel.h"

namespace ordo {
namespace {


// body(i0, i1) over [0, n) in fixed chunks, spread over threads.
template <class Body>
void chunked(int64_t n, Body&& body) {
  const int64_t nc = (n + kElementChunk - 1) / kElementChunk;
  parallel_for(nc, kElementChunk * 4, [&](int64_t c) { body(c * kElementChunk, std::min(n, (c + 1) * kElementChunk)); });
}

// y = f(x) elementwise.
template <class F>
Tensor map(const Tensor& X, F f) {
  Tensor Y = Tensor::empty(X.shape());
  const Real* x = X.data();
  Real* y = Y.data();
  chunked(X.numel(), [&](int64_t i0, int64_t i1) {
#pragma omp simd
    for (int64_t i = i0; i < i1; ++i) y[i] = f(x[i]);
  });
  return Y;
}

// dx += g(dy, s) elementwise into x's gradient (Tape::add_grad), s the saved tensor (input
// or output).
template <class G>
void accumulate(Tape& t, Var x, const Tensor& dY, const Tensor& S, G g) {
  const Real* dy = dY.data();
  const Real* s = S.data();
  t.add_grad(x, [&](auto into, Real* dx) {
    chunked(dY.numel(), [&](int64_t i0, int64_t i1) {
#pragma omp simd
      for (int64_t i = i0; i < i1; ++i) into(dx[i], g(dy[i], s[i]));
    });
  });
}

}  // namespace

Var exp(Tape& t, Var a) {
  Tensor y = map(t.value(a), [](Real x) { return fast_exp(x); });
  return t.push("exp", y, [a, y](Tape& t, const Tensor& dy) {
    if (t.needs_grad(a)) accumulate(t, a, dy, y, [](Real d, Real e) { return d * e; });
  }, {a});
}

Var log(Tape& t, Var a) {
  Tensor y = map(t.value(a), [](Real x) { return std::log(x); });
  return t.push("log", std::move(y), [a](Tape& t, const Tensor& dy) {
    if (t.needs_grad(a)) accumulate(t, a, dy, t.value(a), [](Real d, Real x) { return d / x; });
  }, {a});
}

Var log1p(Tape& t, Var a) {
  Tensor y = map(t.value(a), [](Real x) { return std::log1p(x); });
  return t.push("log1p", std::move(y), [a](Tape& t, const Tensor& dy) {
    if (t.needs_grad(a)) accumulate(t, a, dy, t.value(a), [](Real d, Real x) { return d / (1 + x); });
  }, {a});
}

Var tanh(Tape& t, Var a) {
  Tensor y = map(t.value(a), [](Real x) { return fast_tanh(x); });
  return t.push("tanh", y, [a, y](Tape& t, const Tensor& dy) {
    if (t.needs_grad(a))
      accumulate(t, a, dy, y, [](Real d, Real th) { return d * (1 - th * th); });
  }, {a});
}

Var sigmoid(Tape& t, Var a) {
  Tensor y = map(t.value(a), [](Real x) {
    const SigmoidPair s(x);
    return x >= 0 ? s.r : s.e * s.r;
  });
  return t.push("sigmoid", y, [a, y](Tape& t, const Tensor& dy) {
    if (t.needs_grad(a)) accumulate(t, a, dy, y, [](Real d, Real s) { return d * s * (1 - s); });
  }, {a});
}

Var log_sigmoid(Tape& t, Var a) {
  // min(x, 0) - log1p(e^-|x|): no overflow, and no log of a rounded-to-1 sigmoid for x >> 0.
  Tensor y = map(t.value(a), [](Real x) {
    return std::min(x, Real(0)) - fast_log1p_nonnegative(fast_exp(-std::fabs(x)));
  });
  return t.push("log_sigmoid", std::move(y), [a](Tape& t, const Tensor& dy) {
    if (t.needs_grad(a))
      accumulate(t, a, dy, t.value(a), [](Real d, Real x) {  // 1 - sigmoid(x) = sigmoid(-x)
        const SigmoidPair s(x);
        return d * (x >= 0 ? s.e * s.r : s.r);
      });
  }, {a});
}

Var softplus(Tape& t, Var a) {
  Tensor y = map(t.value(a), [](Real x) {
    return std::max(x, Real(0)) + fast_log1p_nonnegative(fast_exp(-std::fabs(x)));
  });
  return t.push("softplus", std::move(y), [a](Tape& t, const Tensor& dy) {
    if (t.needs_grad(a))
      accumulate(t, a, dy, t.value(a), [](Real d, Real x) {  // sigmoid(x)
        const SigmoidPair s(x);
        return d * (x >= 0 ? s.r : s.e * s.r);
      });
  }, {a});
}

Var relu(Tape& t, Var a) {
  Tensor y = map(t.value(a), [](Real x) { return x > 0 ? x : Real(0); });
  return t.push("relu", std::move(y), [a](Tape& t, const Tensor& dy) {
    if (t.needs_grad(a))
      accumulate(t, a, dy, t.value(a), [](Real d, Real x) { return x > 0 ? d : Real(0); });
  }, {a});
}

Var clamp(Tape& t, Var a, Real lo, Real hi) {
  ORDO_CHECK(lo <= hi, "clamp: the lower bound ", lo, " is above the upper bound ", hi);
  Tensor y = map(t.value(a), [lo, hi](Real x) { return std::min(std::max(x, lo), hi); });
  return t.push("clamp", std::move(y), [a, lo, hi](Tape& t, const Tensor& dy) {
    if (t.needs_grad(a))
      accumulate(t, a, dy, t.value(a), [lo, hi](Real d, Real x) { return x >= lo && x <= hi ? d : Real(0); });
  }, {a});
}

Var gelu(Tape& t, Var a) {
  const Tensor& X = t.value(a);
  Tensor y = Tensor::empty(X.shape()), slope = Tensor::empty(X.shape());
  chunked(X.numel(), [&](int64_t i0, int64_t i1) {
    gelu_with_slope(X.data() + i0, y.data() + i0, slope.data() + i0, i1 - i0);
  });
  return t.push("gelu", std::move(y), [a, slope](Tape& t, const Tensor& dy) {
    if (t.needs_grad(a)) accumulate(t, a, dy, slope, [](Real d, Real s) { return d * s; });
  }, {a});
}

}  // namespace ordo
