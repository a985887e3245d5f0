// core/fastmath.h: exp, exp2 and tanh that the compiler can vectorise.
//
// glibc's expf/tanhf are scalar calls; in softmax and GELU they dominated a training step
// (perf: 25% of the time in __expf/__tanhf/__expm1f). exp and tanh are the Cephes
// single-precision approximations (range reduction + minimax polynomial, <= 2 ulp on their
// domain), exp2 a shifter-rounded Chebyshev fit (<= 1.3 ulp), all written branch-free so GCC
// emits AVX2 code for loops over them. exp(-inf) and the softmax's exp2(-inf) are exactly 0
// (masked entries rely on it) and NaN propagates. The float64 reference build keeps libm.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace ordo {

// The finite range of float e^x (beyond it: 0 and +inf).
constexpr float kExpHi = 88.3762626647949f, kExpLo = -87.3365478515625f;

// e^x for x already clamped to [kExpLo, kExpHi]: range reduction x = n ln 2 + r, then a
// minimax polynomial for e^r, scaled by 2^n.
inline float exp_clamped(float xc) {
  const float n = std::floor(1.44269504088896341f * xc + 0.5f);
  float r = xc - n * 0.693359375f;
  r = r + n * 2.12194440e-4f;
  const float z = r * r;
  float y = 1.9875691500e-4f;
  y = y * r + 1.3981999507e-3f;
  y = y * r + 8.3334519073e-3f;
  y = y * r + 4.1665795894e-2f;
  y = y * r + 1.6666665459e-1f;
  y = y * r + 5.0000001201e-1f;
  y = y * z + r + 1.0f;
  const int32_t e = (static_cast<int32_t>(n) + 127) << 23;
  return y * std::bit_cast<float>(e);
}

inline float fast_exp(float x) {
  const float xc = x > kExpHi ? kExpHi : (x < kExpLo ? kExpLo : x);
  float result = exp_clamped(xc);
  result = x < kExpLo ? 0.0f : result;                                        // underflow, -inf
  result = x > kExpHi ? std::bit_cast<float>(int32_t{0x7f800000}) : result;  // overflow: +inf
  return x != x ? x : result;                                                // NaN
}

// 2^x for x already in [-125, 125]: x = n + f with n = round(x) taken from a float add (the
// 1.5 * 2^23 shifter leaves n in the low mantissa bits), f in [-0.5, 0.5] exactly, 2^f a
// degree-6 Chebyshev fit (mpmath chebyfit, error 2e-9; <= 7.9e-8 relative in float), and
// 2^n added to its exponent field as an integer: 12 operations, no range reduction by ln 2
// and no float-to-int conversion (exp_clamped takes 16). NaN propagates.
inline float exp2_clamped(float xc) {
  const float shifter = 12582912.0f;   // 1.5 * 2^23
  const float t = xc + shifter;        // round to nearest: n in the low mantissa bits of t
  const float f = xc - (t - shifter);  // in [-0.5, 0.5]
  float p = 1.5461444699e-4f;
  p = p * f + 1.3400428178e-3f;
  p = p * f + 9.6180566785e-3f;
  p = p * f + 5.5503272267e-2f;
  p = p * f + 2.4022650922e-1f;
  p = p * f + 6.9314720670e-1f;
  p = p * f + 1.0f;
  // bits(t) << 23 is n << 23 (the shifter's own bits shift out): 2^n times p.
  return std::bit_cast<float>(std::bit_cast<int32_t>(p) + (std::bit_cast<int32_t>(t) << 23));
}

// 2^x for x <= 0, for a softmax computed in base 2 (the attention folds log2(e) into its
// score scale). x < -125 (-inf included) gives exactly 0; NaN propagates.
inline float fast_exp2_nonpositive(float x) {
  const float r = exp2_clamped(x < -125.0f ? -125.0f : x);
  return x < -125.0f ? 0.0f : r;
}

// log2(x) for normal x > 0: x = 2^e m with m in [sqrt(1/2), sqrt(2)) (e from the bits of x
// minus those of sqrt(1/2)), log2(m) = t q(t) with t = m - 1 and q a degree-8 Chebyshev fit
// of log2(1 + t) / t (mpmath chebyfit; <= 2.1e-8 absolute). 14 operations, vectorisable
// (glibc's log2f is a call). NaN propagates; 0, inf and denormals are not handled.
inline float fast_log2(float x) {
  const int32_t bits = std::bit_cast<int32_t>(x);
  const int32_t e = (bits - 0x3F3504F3) >> 23;  // 0x3F3504F3: sqrt(1/2)
  const float t = std::bit_cast<float>(bits - (e << 23)) - 1.0f;
  float q = 1.2310968467e-1f;
  q = q * t - 2.0586188051e-1f;
  q = q * t + 2.1607822552e-1f;
  q = q * t - 2.3916988140e-1f;
  q = q * t + 2.8790326092e-1f;
  q = q * t - 3.6069326814e-1f;
  q = q * t + 4.8091075346e-1f;
  q = q * t - 7.2134746825e-1f;
  q = q * t + 1.4426950036e+0f;
  const float r = static_cast<float>(e) + t * q;
  return x != x ? x : r;
}

// ln(1 + x) for finite x >= 0 with relative accuracy, vectorisable: w = 1 + x rounded, then
// ln(w) x / (w - 1) (Goldberg's correction: the rounding of 1 + x cancels), or x itself where
// w rounds to 1. Near w = 1 fast_log2 is t q(t) with t = w - 1 exact, accurate relative to
// its result, so tiny x keep their few ulp where ln(1 + x) rounded naively loses them all.
inline float fast_log1p_nonnegative(float x) {
  const float w = 1.0f + x;
  const float d = w - 1.0f;
  const float r = 0.693147180559945309f * fast_log2(w) * (x / (d == 0.0f ? 1.0f : d));
  return d == 0.0f ? x : r;
}

inline float fast_tanh(float x) {
  const float ax = x < 0 ? -x : x;
  // |x| < 0.625: odd polynomial.
  const float z = x * x;
  float p = -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  const float small = p * z * x + x;
  // otherwise 1 - 2 / (exp(2|x|) + 1), with the sign of x.
  const float big_abs = 1.0f - 2.0f / (fast_exp(2.0f * (ax > 44.0f ? 44.0f : ax)) + 1.0f);
  const float big = x < 0 ? -big_abs : big_abs;
  const float result = ax < 0.625f ? small : big;
  return x != x ? x : result;
}

inline double fast_exp(double x) { return std::exp(x); }
inline double fast_exp2_nonpositive(double x) { return std::exp2(x); }
inline double fast_log2(double x) { return std::log2(x); }
inline double fast_log1p_nonnegative(double x) { return std::log1p(x); }
inline double fast_tanh(double x) { return std::tanh(x); }

}  // namespace ordo

namespace ordo {

// e = e^-|x| and r = 1 / (1 + e): sigmoid(x) = r and sigmoid(-x) = e r for x >= 0 (swapped for
// x < 0). No exponential overflows, and 1 - sigmoid is never formed by a subtraction. Branch-
// free with fast_exp, so the loops over it vectorise (libm's exp per element was 37 ms of
// PoPE's 126 ms default step, through log_sigmoid). The sigmoid op (core/ops/unary.cpp) and
// PaTH's reflections (core/ops/path_reflections.cpp) take it.
template <class T>
struct SigmoidPair {
  T e, r;
  explicit SigmoidPair(T x) : e(fast_exp(-std::fabs(x))), r(T(1) / (T(1) + e)) {}
  T sigmoid(T x) const { return x >= 0 ? r : e * r; }
};

// Sum of f(j) for j in [0, n) with 8 interleaved partial sums (lane j % 8), added in a
// fixed order at the end: vectorisable without -ffast-math, and the same bits on every
// thread count (the association depends only on n).
template <class Real, class F>
inline Real lane_sum(int64_t n, F&& f) {
  Real acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t j = 0;
  for (; j + 8 <= n; j += 8)
    for (int l = 0; l < 8; ++l) acc[l] += f(j + l);
  for (int l = 0; j < n; ++j, ++l) acc[l] += f(j);
  return ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
}

// GELU, tanh form: y = 0.5 x (1 + tanh u), u = c (x + k x^3), c = sqrt(2 / pi), k = 0.044715,
// computed as y = x s with s = sigmoid(2u) = 1 / (1 + e^(-2u)) (the same function:
// 0.5 (1 + tanh u) = sigmoid(2u)): one exp and one division. Its derivative:
//   dy/dx = s + x s (1 - s) 2 c (1 + 3 k x^2)
// gelu_with_slope gives both from the one exp, so the backward is a multiplication. Shared by
// the gelu op (core/ops/unary.cpp) and the fused linear_gelu (core/ops/matmul.cpp), which are
// equal bit for bit because they run this same code.
//
// Speed: the loop over one element is a ~50-instruction dependency chain (polynomial, then
// division, then slope), and one long chain per vector keeps too few vectors in flight: it
// ran at ~27 cycles per 8 floats. Each block of 64 elements is done in two loops instead,
// the exps first (into a stack buffer), then s, y and the slope: 2 loops of short chains,
// y and slope together in the time y alone took (0.57 ms for 1M floats on 2 threads).
// The exp is taken in base 2 (log2(e) folded into the constants, exp2_clamped) with its
// argument clamped to [-125, 125] (no overflow, NaN kept): beyond it gelu is 0 or x to float
// precision either way.
template <class T>
inline T gelu_exp(T x) {  // e^(-2u) = 2^(-2 log2(e) c (x + k x^3))
  if constexpr (sizeof(T) == sizeof(float)) {
    constexpr float a1 = -2.0f * 1.44269504088896340736f * 0.79788456080286535588f, a3 = a1 * 0.044715f;
    const float a = x * (a1 + a3 * x * x);
    return exp2_clamped(a > 125.0f ? 125.0f : (a < -125.0f ? -125.0f : a));
  } else {
    const T c = static_cast<T>(0.79788456080286535588), k = static_cast<T>(0.044715);
    return fast_exp(-2 * c * (x + k * x * x * x));
  }
}

// y[i] = gelu(u[i]) and slope[i] = gelu'(u[i]) for i in [0, n). slope may be u itself (the
// slope then replaces the input, as linear_gelu keeps it); y must not overlap u.
template <class T>
inline void gelu_with_slope(const T* u, T* __restrict y, T* slope, int64_t n) {
  const T c = static_cast<T>(0.79788456080286535588), k = static_cast<T>(0.044715);
  constexpr int64_t kBlock = 64;
  for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
    const int64_t m = n - i0 < kBlock ? n - i0 : kBlock;
    const T* ub = u + i0;
    T e[kBlock];
#pragma omp simd
    for (int64_t j = 0; j < m; ++j) e[j] = gelu_exp(ub[j]);
    T* yb = y + i0;
    T* sb = slope + i0;
#pragma omp simd
    for (int64_t j = 0; j < m; ++j) {
      const T x = ub[j];
      const T s = 1 / (1 + e[j]);
      yb[j] = x * s;
      sb[j] = s + x * s * (1 - s) * (2 * c * (1 + 3 * k * x * x));
    }
  }
}

// y[i] = gelu(u[i]) alone, for forwards that no backward will follow (evaluation): the same
// exp and s as gelu_with_slope, so y is bit-identical to its y; y may be u itself (in place).
template <class T>
inline void gelu_values(const T* u, T* y, int64_t n) {
  constexpr int64_t kBlock = 64;
  for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
    const int64_t m = n - i0 < kBlock ? n - i0 : kBlock;
    T e[kBlock];
#pragma omp simd
    for (int64_t j = 0; j < m; ++j) e[j] = gelu_exp(u[i0 + j]);
#pragma omp simd
    for (int64_t j = 0; j < m; ++j) y[i0 + j] = u[i0 + j] * (1 / (1 + e[j]));
  }
}

}  // namespace ordo
