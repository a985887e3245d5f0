// core/ops/shape.cpp: reshape, permute, transpose, concat and slice.
//
//   reshape:   a view of the same storage;           da += dout (same element order)
//   permute:   out.dim(i) = a.dim(axes[i]);          da += permute(dout, axes^-1)
//   concat:    parts side by side along `axis`;      dpart += its block of dout
//   slice:     [start, end) along `axis`;            da[.., start:end, ..] += dout
//
// Every output element (and every gradient element) is written by one loop iteration.
#include <algorithm>
#include <array>
#include <sstream>
#include <string>

#include "core/ops.h"
#include "core/parallel.h"

namespace ordo {
namespace {


int normalize_axis(const char* op, int axis, const Shape& s) {
  const int a = axis < 0 ? axis + s.rank() : axis;
  ORDO_CHECK(a >= 0 && a < s.rank(), op, ": axis ", axis, " out of range for shape ", s);
  return a;
}

std::string axes_str(const std::vector<int>& axes) {
  std::ostringstream os;
  os << "(";
  for (size_t i = 0; i < axes.size(); ++i) os << (i ? ", " : "") << axes[i];
  return os.str() + ")";
}


// dst = permute(src), each element delivered through `into` (Tape::Store: dst =, Tape::Add:
// dst +=); dst is contiguous in the permuted order. Axes of size 1 are dropped and axes that
// stay neighbours in src are merged, so e.g. (B, L, H, dh) -> (B, H, L, dh) copies rows of
// dh contiguous values.
template <class Into>
void permute_kernel(const Real* src, const Shape& src_shape, const std::vector<int>& axes,
                    Real* dst, Into into) {
  const int R = src_shape.rank();
  std::array<int64_t, Shape::kMaxRank> src_stride{}, dim{}, stride{};
  int64_t running = 1;
  for (int i = R - 1; i >= 0; --i) src_stride[i] = running, running *= src_shape[i];
  const int64_t n = running;
  if (n == 0) return;
  int rank = 0;  // merged dst axes, each with its stride in src
  for (int i = 0; i < R; ++i) {
    const int64_t d = src_shape[axes[i]], s = src_stride[axes[i]];
    if (d == 1) continue;
    if (rank > 0 && stride[rank - 1] == s * d) {
      dim[rank - 1] *= d, stride[rank - 1] = s;
      continue;
    }
    dim[rank] = d, stride[rank] = s, ++rank;
  }
  if (rank == 0) rank = 1, dim[0] = 1, stride[0] = 1;
  const int64_t inner = dim[rank - 1], s_in = stride[rank - 1];
  const int64_t rows = n / inner, nc = (inner + kElementChunk - 1) / kElementChunk;
  parallel_for(rows * nc, std::min(inner, kElementChunk), [&](int64_t item) {
    const int64_t row = item / nc, j0 = (item % nc) * kElementChunk, j1 = std::min(inner, j0 + kElementChunk);
    int64_t off = 0;
    for (int64_t i = rank - 2, r = row; i >= 0; --i) off += (r % dim[i]) * stride[i], r /= dim[i];
    const Real* s = src + off;
    Real* d = dst + row * inner;
    if (s_in == 1 && !into.accumulate) {
      std::copy(s + j0, s + j1, d + j0);  // a memcpy
    } else if (s_in == 1) {
#pragma omp simd
      for (int64_t j = j0; j < j1; ++j) into(d[j], s[j]);
    } else {
      for (int64_t j = j0; j < j1; ++j) into(d[j], s[j * s_in]);
    }
  });
}

Var permute_op(Tape& t, const char* op, Var a, std::vector<int> axes) {
  const Tensor& A = t.value(a);
  const Shape& s = A.shape();
  const int R = s.rank();
  ORDO_CHECK(static_cast<int>(axes.size()) == R, op, ": axes ", axes_str(axes),
             " do not match the rank of shape ", s);
  std::vector<bool> seen(R, false);
  std::vector<int64_t> out_dims(R);
  for (int i = 0; i < R; ++i) {
    const int ax = axes[i] < 0 ? axes[i] + R : axes[i];
    ORDO_CHECK(ax >= 0 && ax < R && !seen[ax], op, ": axes ", axes_str(axes),
               " are not a permutation of the axes of shape ", s);
    seen[ax] = true, axes[i] = ax, out_dims[i] = s[ax];
  }
  Tensor out = Tensor::empty(Shape(out_dims));
  permute_kernel(A.data(), s, axes, out.data(), Tape::Store{});
  std::vector<int> inverse(R);
  for (int i = 0; i < R; ++i) inverse[axes[i]] = i;
  return t.push(op, std::move(out), [a, inverse](Tape& t, const Tensor& dout) {
    if (!t.needs_grad(a)) return;
    t.add_grad(a, [&](auto into, Real* da) { permute_kernel(dout.data(), dout.shape(), inverse, da, into); });
  }, {a});
}

// (outer, dim, after) around `axis`.
struct AxisSplit {
  int64_t outer = 1, dim = 1, after = 1;
};
AxisSplit split_at(const Shape& s, int axis) {
  AxisSplit sp;
  for (int i = 0; i < axis; ++i) sp.outer *= s[i];
  sp.dim = s[axis];
  for (int i = axis + 1; i < s.rank(); ++i) sp.after *= s[i];
  return sp;
}

}  // namespace

Var reshape(Tape& t, Var a, const Shape& shape) {
  const Tensor& A = t.value(a);
  ORDO_CHECK(shape.numel() == A.numel(), "reshape: cannot view ", A.shape(), " (", A.numel(),
             " values) as ", shape, " (", shape.numel(), " values)");
  Tensor out = A.reshaped(shape);  // shares storage
  return t.push("reshape", std::move(out), [a](Tape& t, const Tensor& dout) {
    // The gradient is the same numbers in a's shape: shared, not copied, when a has none yet
    // (dout is the reshape node's own gradient, released after this closure).
    if (t.needs_grad(a)) t.add_grad(a, dout.reshaped(t.shape(a)));
  }, {a});
}

Var permute(Tape& t, Var a, const std::vector<int>& axes) { return permute_op(t, "permute", a, axes); }

Var transpose(Tape& t, Var a, int axis0, int axis1) {
  const Shape& s = t.shape(a);
  const int a0 = normalize_axis("transpose", axis0, s), a1 = normalize_axis("transpose", axis1, s);
  std::vector<int> axes(s.rank());
  for (int i = 0; i < s.rank(); ++i) axes[i] = i;
  std::swap(axes[a0], axes[a1]);
  return permute_op(t, "transpose", a, axes);
}

Var concat(Tape& t, const std::vector<Var>& parts, int axis) {
  ORDO_CHECK(!parts.empty(), "concat: no parts to concatenate");
  const Shape& first = t.shape(parts[0]);
  const int ax = normalize_axis("concat", axis, first);
  std::vector<int64_t> out_dims = first.dims();
  out_dims[ax] = 0;
  std::vector<int64_t> widths;  // per part: dim(axis) * after, its row width
  for (Var p : parts) {
    const Shape& s = t.shape(p);
    bool ok = s.rank() == first.rank();
    for (int i = 0; ok && i < s.rank(); ++i) ok = i == ax || s[i] == first[i];
    ORDO_CHECK(ok, "concat: shapes differ outside axis ", axis, ": ", first, " vs ", s);
    out_dims[ax] += s[ax];
    widths.push_back(split_at(s, ax).dim * split_at(s, ax).after);
  }
  const Shape out_shape(out_dims);
  const AxisSplit o = split_at(out_shape, ax);
  const int64_t W = o.dim * o.after;  // output row width
  Tensor out = Tensor::empty(out_shape);  // (outer, W)
  {
    Real* y = out.data();
    int64_t offset = 0;
    for (size_t k = 0; k < parts.size(); ++k) {
      const Real* x = t.value(parts[k]).data();  // (outer, widths[k])
      const int64_t w = widths[k];
      parallel_for(o.outer, w, [&](int64_t r) { std::copy(x + r * w, x + (r + 1) * w, y + r * W + offset); });
      offset += w;
    }
  }
  return t.push("concat", std::move(out), [parts, widths, W, outer = o.outer](Tape& t, const Tensor& dout) {
    int64_t offset = 0;
    for (size_t k = 0; k < parts.size(); ++k) {
      const int64_t w = widths[k];
      if (t.needs_grad(parts[k])) t.add_grad(parts[k], [&](auto into, Real* dx) {  // (outer, w)
        const Real* dy = dout.data();  // (outer, W)
        parallel_for(outer, w, [&](int64_t r) {
          Real* dst = dx + r * w;
          const Real* src = dy + r * W + offset;
#pragma omp simd
          for (int64_t j = 0; j < w; ++j) into(dst[j], src[j]);
        });
      });
      offset += w;
    }
  }, parts);
}

Var slice(Tape& t, Var a, int axis, int64_t start, int64_t end) {
  const Tensor& A = t.value(a);
  const int ax = normalize_axis("slice", axis, A.shape());
  const AxisSplit s = split_at(A.shape(), ax);
  ORDO_CHECK(0 <= start && start <= end && end <= s.dim, "slice: range [", start, ", ", end,
             ") out of bounds for axis ", axis, " of shape ", A.shape());
  std::vector<int64_t> dims = A.shape().dims();
  dims[ax] = end - start;
  Tensor out = Tensor::empty(Shape(dims));
  const int64_t w = (end - start) * s.after, W = s.dim * s.after, first = start * s.after;
  {
    const Real* x = A.data();  // (outer, W)
    Real* y = out.data();      // (outer, w)
    parallel_for(s.outer, w, [&](int64_t r) { std::copy(x + r * W + first, x + r * W + first + w, y + r * w); });
  }
  return t.push("slice", std::move(out), [a, w, W, first, outer = s.outer](Tape& t, const Tensor& dout) {
    if (!t.needs_grad(a)) return;
    // Only the sliced window gets a gradient: a summed (zeroed) buffer keeps the rest at 0.
    t.add_grad(a, Tape::summed, [&](auto into, Real* dx) {  // (outer, W)
      const Real* dy = dout.data();  // (outer, w)
      parallel_for(outer, w, [&](int64_t r) {
        Real* dst = dx + r * W + first;
        const Real* src = dy + r * w;
#pragma omp simd
        for (int64_t j = 0; j < w; ++j) into(dst[j], src[j]);
      });
    });
  }, {a});
}

}  // namespace ordo
