// core/ops/softmax.cpp: softmax and log-softmax over the last axis.
//
//   softmax:      z = x + mask,  y_j = exp(z_j - max z) / sum_k exp(z_k - max z)
//                 dx_j = y_j (dy_j - sum_k dy_k y_k)
//   log_softmax:  y_j = z_j - max z - log sum_k exp(z_k - max z)
//                 dx_j = dy_j - exp(y_j) sum_k dy_k
// Both save their output, not their input (the backward needs only y). An entry of z that
// is -inf gets probability exactly 0 (exp(-inf) = 0); a row whose entries are all -inf has
// no distribution: softmax writes zeros there (never NaN) and its gradient is zero.
#include <cmath>
#include <limits>
#include <vector>

#include "core/fastmath.h"
#include "core/ops.h"
#include "core/parallel.h"

namespace ordo {
namespace {


// Product of every dimension but the last: the number of rows the op works on.
int64_t leading_rows(const Shape& s) {
  int64_t n = 1;
  for (int i = 0; i + 1 < s.rank(); ++i) n *= s[i];
  return n;
}

// Where each row of x finds its mask row. The mask broadcasts to x by NumPy rules
// (aligned on the last axes, a dimension of 1 or a missing leading one stretches), and
// never stretches x itself.
struct MaskLayout {
  std::vector<int64_t> row_offset;  // (rows): offset of the mask row used by row r of x
  int64_t col_stride = 1;           // 1, or 0 when the mask's last dimension is 1
};

MaskLayout mask_layout(const Shape& x, const Tensor& mask) {
  const Shape& m = mask.shape();
  const int R = x.rank();
  auto mismatch = [&]() {
    fail("softmax: mask of shape ", m, " does not broadcast to x of shape ", x,
         "; the mask needs rank <= ", R,
         " and each of its dimensions (aligned on the last axis) must equal x's or be 1");
  };
  if (m.rank() > R) mismatch();
  // The mask's dimensions and contiguous strides, aligned on x's axes.
  std::vector<int64_t> mdim(R, 1), mstride(R, 0);
  int64_t stride = 1;
  for (int k = R - 1, j = m.rank() - 1; k >= 0; --k, --j) {
    if (j < 0) break;
    mdim[k] = m[j];
    if (mdim[k] != x[k] && mdim[k] != 1) mismatch();
    mstride[k] = mdim[k] == 1 ? 0 : stride;
    stride *= m[j];
  }
  // A constant additive mask: 0 or -inf in practice; +inf or NaN would poison every row.
  for (int64_t i = 0; i < mask.numel(); ++i)
    ORDO_CHECK(!std::isnan(mask[i]) && mask[i] != std::numeric_limits<Real>::infinity(),
               "softmax: mask element ", i, " is ", mask[i],
               "; mask entries must be finite (usually 0) or -inf");

  MaskLayout layout;
  layout.col_stride = mstride[R - 1];
  const int64_t rows = leading_rows(x);
  layout.row_offset.resize(rows);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t rest = r, offset = 0;
    for (int k = R - 2; k >= 0; --k) {
      offset += (rest % x[k]) * mstride[k];
      rest /= x[k];
    }
    layout.row_offset[r] = offset;
  }
  return layout;
}

// One row: y = softmax(x + mask) over n entries. `m` may be null (no mask).
void softmax_row(const Real* x, const Real* m, int64_t m_stride, Real* y, int64_t n) {
  Real max = kNegInf;
  for (int64_t j = 0; j < n; ++j) {
    const Real z = m ? x[j] + m[j * m_stride] : x[j];
    y[j] = z;
    if (z > max) max = z;
  }
  if (max == kNegInf) {  // fully masked row: no distribution, zeros rather than NaN
    for (int64_t j = 0; j < n; ++j) y[j] = 0;
    return;
  }
  for (int64_t j = 0; j < n; ++j) y[j] = fast_exp(y[j] - max);  // exp(-inf) = 0 exactly
  const Real total = lane_sum<Real>(n, [&](int64_t j) { return y[j]; });
  const Real inv = 1 / total;
  for (int64_t j = 0; j < n; ++j) y[j] *= inv;
}

// The backward scaffolding of softmax and log_softmax: row_grad(y_r, dy_r, dx_r) adds row
// r's gradient into dx (n values each), rows in parallel.
template <class RowGrad>
void add_row_grads(Tape& t, Var x, const Tensor& Y, const Tensor& dY, int64_t n, int64_t rows, RowGrad row_grad) {
  if (!t.needs_grad(x)) return;
  const Real* y = Y.data();
  const Real* dy = dY.data();
  t.add_grad(x, Tape::summed, [&](auto, Real* dx) {  // (..., n)
    parallel_for(rows, 4 * n, [&](int64_t r) { row_grad(y + r * n, dy + r * n, dx + r * n); });
  });
}

}  // namespace

Var softmax(Tape& t, Var x, const std::optional<Tensor>& mask) {
  const Tensor& X = t.value(x);  // (..., n)
  ORDO_CHECK(X.rank() >= 1, "softmax: x must have rank >= 1, got a scalar");
  const int64_t n = X.shape().last(), rows = leading_rows(X.shape());
  MaskLayout layout;
  if (mask) layout = mask_layout(X.shape(), *mask);
  const Real* M = mask ? mask->data() : nullptr;

  Tensor Y = Tensor::empty(X.shape());  // (..., n)
  const Real* xd = X.data();
  Real* yd = Y.data();
  parallel_for(rows, 8 * n, [&](int64_t r) {
    softmax_row(xd + r * n, M ? M + layout.row_offset[r] : nullptr, layout.col_stride,
                yd + r * n, n);
  });

  return t.push("softmax", Y, [x, Y, n, rows](Tape& t, const Tensor& dY) {
    add_row_grads(t, x, Y, dY, n, rows, [n](const Real* yr, const Real* dyr, Real* dxr) {
      const Real dot = lane_sum<Real>(n, [&](int64_t j) { return dyr[j] * yr[j]; });  // sum_k dy_k y_k
      // A fully masked row has y = 0, so its gradient is 0 as well.
      for (int64_t j = 0; j < n; ++j) dxr[j] += yr[j] * (dyr[j] - dot);
    });
  }, {x});
}

Var log_softmax(Tape& t, Var x) {
  const Tensor& X = t.value(x);  // (..., n)
  ORDO_CHECK(X.rank() >= 1, "log_softmax: x must have rank >= 1, got a scalar");
  const int64_t n = X.shape().last(), rows = leading_rows(X.shape());
  Tensor Y = Tensor::empty(X.shape());  // (..., n)
  const Real* xd = X.data();
  Real* yd = Y.data();
  parallel_for(rows, 8 * n, [&](int64_t r) {
    const Real* xr = xd + r * n;
    Real* yr = yd + r * n;
    Real max = kNegInf;
    for (int64_t j = 0; j < n; ++j) max = xr[j] > max ? xr[j] : max;
    if (max == kNegInf) {  // all -inf: every log-probability is -inf (no NaN)
      for (int64_t j = 0; j < n; ++j) yr[j] = kNegInf;
      return;
    }
    double total = 0;
    for (int64_t j = 0; j < n; ++j) total += std::exp(static_cast<double>(xr[j] - max));
    const Real shift = max + static_cast<Real>(std::log(total));
    for (int64_t j = 0; j < n; ++j) yr[j] = xr[j] - shift;
  });

  return t.push("log_softmax", Y, [x, Y, n, rows](Tape& t, const Tensor& dY) {
    add_row_grads(t, x, Y, dY, n, rows, [n](const Real* yr, const Real* dyr, Real* dxr) {
      bool any_finite = false;
      double total = 0;  // sum_k dy_k
      for (int64_t j = 0; j < n; ++j) {
        total += dyr[j];
        any_finite = any_finite || yr[j] != kNegInf;
      }
      if (!any_finite) return;  // an all -inf row has no gradient
      for (int64_t j = 0; j < n; ++j) dxr[j] += dyr[j] - std::exp(yr[j]) * static_cast<Real>(total);
    });
  }, {x});
}

}  // namespace ordo
