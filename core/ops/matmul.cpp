// core/ops/matmul.cpp: matrix products and their gradients.
//
//   C = op(A) op(B)
//   dA = dC op(B)^T      (stored transposed when trans_a: dA^T = op(B) dC^T)
//   dB = op(A)^T dC      (stored transposed when trans_b: dB^T = dC^T op(A))
//
//   linear: Y = X W + b (X as rows x K)
//   dX = dY W^T,   dW = X^T dY,   db = sum over rows of dY
// Gradient products go through gemm() with accumulate = into.accumulate (Tape::add_grad):
// beta = 1 adds to a gradient, beta = 0 stores an input's first one.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "core/fastmath.h"
#include "core/gemm.h"
#include "core/ops.h"
#include "core/ops/rotate_rows.h"
#include "core/parallel.h"

namespace ordo {
namespace {

struct MatmulPlan {
  int64_t batch, M, N, K;
  bool b_shared;  // b is one 2-D matrix used by every batch entry
};

MatmulPlan plan(const Shape& a, const Shape& b, bool ta, bool tb) {
  ORDO_CHECK(a.rank() >= 2 && b.rank() >= 2, "matmul: operands need rank >= 2, got ", a, " and ", b);
  const int64_t M = ta ? a[-1] : a[-2], Ka = ta ? a[-2] : a[-1];
  const int64_t Kb = tb ? b[-1] : b[-2], N = tb ? b[-2] : b[-1];
  ORDO_CHECK(Ka == Kb, "matmul: inner dimensions differ: ", a, (ta ? "^T" : ""), " x ", b,
             (tb ? "^T" : ""));
  int64_t batch = 1;
  for (int i = 0; i < a.rank() - 2; ++i) batch *= a[i];
  if (b.rank() == 2) return {batch, M, N, Ka, true};
  ORDO_CHECK(a.rank() == b.rank(), "matmul: batched operands need equal rank: ", a, " x ", b);
  for (int i = 0; i < a.rank() - 2; ++i)
    ORDO_CHECK(a[i] == b[i], "matmul: batch dimensions differ: ", a, " x ", b);
  return {batch, M, N, Ka, false};
}

// C[batch] (+)= alpha op(A) op(B) on plain buffers.
void product(const MatmulPlan& p, const Real* a, bool ta, const Real* b, bool tb, Real* c,
             bool accumulate, int64_t M, int64_t N, int64_t K) {
  GemmArgs g;
  g.M = M, g.N = N, g.K = K, g.trans_a = ta, g.trans_b = tb, g.accumulate = accumulate;
  g.batch = p.batch;
  g.stride_a = M * K, g.stride_b = p.b_shared ? 0 : K * N, g.stride_c = M * N;
  gemm(g, a, b, c);
}

}  // namespace

Var matmul(Tape& t, Var a, Var b, bool ta, bool tb) {
  const Tensor& A = t.value(a);
  const Tensor& B = t.value(b);
  MatmulPlan p = plan(A.shape(), B.shape(), ta, tb);
  // A batched A times one shared B, A not transposed: a single (batch*M, K) x (K, N).
  if (p.b_shared && p.batch > 1 && !ta) {
    p.M *= p.batch;
    p.batch = 1;
  }
  ORDO_CHECK(!(p.b_shared && p.batch > 1), "matmul: a transposed batched A with a shared 2-D B "
                                           "is not supported: ", A.shape(), "^T x ", B.shape());
  std::vector<int64_t> out_dims = A.shape().dims();
  out_dims[out_dims.size() - 2] = ta ? A.shape()[-1] : A.shape()[-2];
  out_dims[out_dims.size() - 1] = p.N;
  Tensor C = Tensor::empty(Shape(out_dims));
  product(p, A.data(), ta, B.data(), tb, C.data(), false, p.M, p.N, p.K);

  return t.push("matmul", std::move(C), [a, b, ta, tb, p](Tape& t, const Tensor& dC) {
    const Real* Ad = t.value(a).data();
    const Real* Bd = t.value(b).data();
    if (t.needs_grad(a)) t.add_grad(a, [&](auto into, Real* dA) {
      if (!ta) product(p, dC.data(), false, Bd, !tb, dA, into.accumulate, p.M, p.K, p.N);  // dC op(B)^T
      else product(p, Bd, tb, dC.data(), true, dA, into.accumulate, p.K, p.M, p.N);        // op(B) dC^T
    });
    // Per-entry B gradients; a shared B (only with batch == 1 here) is a plain 2-D case.
    if (t.needs_grad(b)) t.add_grad(b, [&](auto into, Real* dB) {
      if (!tb) product(p, Ad, !ta, dC.data(), false, dB, into.accumulate, p.K, p.N, p.M);  // op(A)^T dC
      else product(p, dC.data(), true, Ad, ta, dB, into.accumulate, p.N, p.K, p.M);        // dC^T op(A)
    });
  }, {a, b});
}

namespace {

// out[j] = sum over the rows r of g[r * N + j0 + j], j < w <= kSumCols: four interleaved row
// lanes (rows r = lane mod 4; four independent add chains instead of one latency-bound
// chain), added (0 + 1) + (2 + 3) at the end: a fixed association.
constexpr int64_t kSumCols = 16;
void column_sums(const Real* g, int64_t rows, int64_t N, int64_t j0, int64_t w, Real* out) {
  constexpr int64_t kRowLanes = 4;
  Real acc[kRowLanes][kSumCols] = {};
  int64_t r = 0;
  if (w == kSumCols) {
    for (; r + kRowLanes <= rows; r += kRowLanes)
      for (int64_t lane = 0; lane < kRowLanes; ++lane) {
        const Real* row = g + (r + lane) * N + j0;
#pragma omp simd
        for (int64_t j = 0; j < kSumCols; ++j) acc[lane][j] += row[j];
      }
  }
  for (; r < rows; ++r) {
    const Real* row = g + r * N + j0;
    for (int64_t j = 0; j < w; ++j) acc[r % kRowLanes][j] += row[j];
  }
  for (int64_t j = 0; j < w; ++j) out[j] = (acc[0][j] + acc[1][j]) + (acc[2][j] + acc[3][j]);
}

// y = x w + b, or gelu(x w + b) with the GELU applied to each row block of the product as
// soon as the GEMM has written it (core/gemm.h epilogue: the rows are still in cache; a
// separate pass read the 4 MB pre-activation of a tiny step back from memory). The epilogue
// also replaces the pre-activation u by the slope gelu'(u) (from the same exp), which is all
// the backward needs: there du = dy gelu'(u) is formed row block by row block in the dX
// product's prologue, right before the product reads it (a separate pass that recomputed
// gelu'(u) took 1.07 ms of a tiny step per layer; the prologue 0.1 ms).
//
// linear_residual: y = r + (x w + b), the residual added to each row block of the product in
// its epilogue, as the GELU is, instead of an add op over a separate output. Its backward
// passes dy on to r as it is, as add does.
//
// linear_rotate: y = R(theta) (x w + b), rope's rotation of the q or k projection, rotating
// each row block in place in the epilogue; the backward forms du = R(theta)^T dy per row
// block in the dX product's prologue, as linear_gelu forms its du. Both save an activation
// and a pass over it (peak RSS of a tiny training step 79 -> 71 MB, base 506 -> 443 MB).

// What is applied to the product x w + b.
struct Post {
  enum Kind { kNone, kGelu, kResidual, kRotate } kind = kNone;
  std::optional<Var> residual;  // kResidual
  Tensor cos, sin;              // kRotate: (L, N / 2)
};

const char* name_of(Post::Kind kind) {
  switch (kind) {
    case Post::kGelu: return "linear_gelu";
    case Post::kResidual: return "linear_residual";
    case Post::kRotate: return "linear_rotate";
    default: return "linear";
  }
}

Var linear_op(Tape& t, Var x, Var w, Var b, const Post& post) {
  const Tensor& X = t.value(x);
  const Tensor& W = t.value(w);
  const Tensor& Bv = t.value(b);
  const bool with_gelu = post.kind == Post::kGelu;
  const std::optional<Var> residual = post.residual;
  const char* name = name_of(post.kind);
  ORDO_CHECK(W.rank() == 2 && X.rank() >= 1 && X.shape()[-1] == W.dim(0),
             name, ": x (..., K) needs a weight (K, N), got x ", X.shape(), " and weight ", W.shape());
  ORDO_CHECK(Bv.rank() == 1 && Bv.dim(0) == W.dim(1), name, ": the bias must be (N) = (", W.dim(1),
             "), got ", Bv.shape());
  const int64_t K = W.dim(0), N = W.dim(1), rows = X.numel() / std::max<int64_t>(K, 1);
  std::vector<int64_t> out_dims = X.shape().dims();
  out_dims.back() = N;
  const Tensor* R = residual ? &t.value(*residual) : nullptr;
  if (R)
    ORDO_CHECK(R->shape() == Shape(out_dims), name, ": the residual must have the output's shape ",
               Shape(out_dims), " (x ", X.shape(), ", weight ", W.shape(), "), got ", R->shape());
  // Rotation: output row r is position r mod L (x is (..., L, K)), pairs (2i, 2i+1).
  const bool rotated = post.kind == Post::kRotate;
  const int64_t L = rotated && X.rank() >= 2 ? X.dim(-2) : 1, half = N / 2;
  if (rotated) {
    ORDO_CHECK(X.rank() >= 2 && N % 2 == 0, name, ": needs x (..., L, K) and an even N to rotate pairs, got x ",
               X.shape(), " and weight ", W.shape());
    ORDO_CHECK(post.cos.shape() == Shape({L, half}) && post.sin.shape() == Shape({L, half}), name,
               ": cos and sin must be (L, N / 2) = (", L, ", ", half, ") for x ", X.shape(), " and weight ",
               W.shape(), ", got ", post.cos.shape(), " and ", post.sin.shape());
  }
  Tensor Y = Tensor::empty(Shape(out_dims));
  // With the GELU: the product u = x w + b, which the epilogue turns into gelu'(u) in place.
  // A forward no backward follows (evaluation, or no input needing a gradient) keeps no
  // slope: the product goes into y and the epilogue applies the GELU there in place.
  const bool recorded = t.grad_enabled() && (t.needs_grad(x) || t.needs_grad(w) || t.needs_grad(b));
  Tensor S = with_gelu && recorded ? Tensor::empty(Shape(out_dims)) : Tensor();
  GemmArgs g;
  g.M = rows, g.N = N, g.K = K, g.bias = Bv.data();  // the bias is fused into the product
  const std::function<void(int64_t, int64_t)> gelu_rows = [&](int64_t r0, int64_t r1) {
    if (S.defined()) gelu_with_slope(S.data() + r0 * N, Y.data() + r0 * N, S.data() + r0 * N, (r1 - r0) * N);
    else gelu_values(Y.data() + r0 * N, Y.data() + r0 * N, (r1 - r0) * N);
  };
  const std::function<void(int64_t, int64_t)> add_residual = [&](int64_t r0, int64_t r1) {
    const Real* __restrict r = R->data();
    Real* __restrict y = Y.data();
#pragma omp simd
    for (int64_t i = r0 * N; i < r1 * N; ++i) y[i] = r[i] + y[i];
  };
  const std::function<void(int64_t, int64_t)> rotate_rows = [&](int64_t r0, int64_t r1) {
    const Real *c = post.cos.data(), *s = post.sin.data();
    for (int64_t r = r0; r < r1; ++r) {
      Real* y = Y.data() + r * N;
      rotate_row(y, y, c + r % L * half, s + r % L * half, half);
    }
  };
  if (with_gelu) g.epilogue = &gelu_rows;
  if (R) g.epilogue = &add_residual;
  if (rotated) g.epilogue = &rotate_rows;
  gemm(g, X.data(), W.data(), S.defined() ? S.data() : Y.data());
  const MatmulPlan p{1, rows, N, K, true};

  auto backward = [x, w, b, p, S, with_gelu, residual, rotated, L, cos = post.cos, sin = post.sin](
                      Tape& t, const Tensor& dY) {
    ORDO_CHECK(S.defined() == with_gelu, name_of(with_gelu ? Post::kGelu : Post::kNone),
               ": backward of a forward that kept no GELU slope");
    // With the GELU (the rotation), the products below take du = dy gelu'(u) (R^T dy) in
    // place of dy.
    const bool with_du = with_gelu || rotated;
    Tensor dU = with_du ? Tensor::empty(dY.shape()) : Tensor();
    const std::function<void(int64_t, int64_t)> form_du = [&](int64_t r0, int64_t r1) {
      const Real* dy = dY.data();
      Real* du = dU.data();
      if (rotated) {
        const int64_t half = p.N / 2;
        for (int64_t r = r0; r < r1; ++r)
          rotate_row_back(dy + r * p.N, du + r * p.N, cos.data() + r % L * half, sin.data() + r % L * half, half, Tape::Store{});
        return;
      }
      const Real* s = S.data();
#pragma omp simd
      for (int64_t i = r0 * p.N; i < r1 * p.N; ++i) du[i] = dy[i] * s[i];
    };
    const Tensor& G = with_du ? dU : dY;
    const int64_t rows = p.M, N = p.N;
    // db = the column sums of G. With dX, each row block of G is summed by the dX product's
    // epilogue, right after that product has read the block (it is still in the thread's
    // cache), into one partial row per block; the partial rows are then added in block order.
    // Blocks depend on the shape only (core/gemm.h), so the association is fixed. A separate
    // pass over G (the way without dX) cost 5-10% of a tiny step.
    const bool want_b = t.needs_grad(b);
    const bool fused_db = want_b && t.needs_grad(x) && p.K > 0;  // gemm skips an empty dX
    constexpr int64_t kMinRowBlock = 32;  // gemm's row blocks start at multiples of >= 32 rows
    const int64_t slots = rows / kMinRowBlock + 1;
    Tensor partial = fused_db ? Tensor::empty(Shape{slots, N}) : Tensor();
    std::vector<uint8_t> written(fused_db ? slots : 0, 0);
    const std::function<void(int64_t, int64_t)> block_sums = [&](int64_t r0, int64_t r1) {
      const int64_t slot = r0 / kMinRowBlock;
      for (int64_t j0 = 0; j0 < N; j0 += kSumCols)
        column_sums(G.data() + r0 * N, r1 - r0, N, j0, std::min(kSumCols, N - j0), partial.data() + slot * N + j0);
      written[slot] = 1;
    };
    if (t.needs_grad(x)) {
      t.add_grad(x, [&](auto into, Real* dX) {
        GemmArgs g;  // dX (+)= G W^T
        g.M = rows, g.N = p.K, g.K = N, g.trans_b = true, g.accumulate = into.accumulate;
        if (fused_db) g.epilogue = &block_sums;
        if (with_du) g.prologue = &form_du;
        gemm(g, G.data(), t.value(w).data(), dX);
      });
    } else if (with_du) {  // no dX product to carry it: du in a pass of its own
      constexpr int64_t kRowsPerBlock = 32;
      parallel_for((rows + kRowsPerBlock - 1) / kRowsPerBlock, kRowsPerBlock * N, [&](int64_t blk) {
        form_du(blk * kRowsPerBlock, std::min(rows, (blk + 1) * kRowsPerBlock));
      });
    }
    if (t.needs_grad(w)) t.add_grad(w, [&](auto into, Real* dW) {
      product(p, t.value(x).data(), true, G.data(), false, dW, into.accumulate, p.K, p.N, p.M);  // X^T G
    });
    if (want_b) t.add_grad(b, [&](auto into, Real* db) {
      if (fused_db) {
        parallel_for((N + kSumCols - 1) / kSumCols, slots * kSumCols, [&](int64_t blk) {
          for (int64_t j = blk * kSumCols; j < std::min(N, (blk + 1) * kSumCols); ++j) {
            Real sum = 0;
            for (int64_t slot = 0; slot < slots; ++slot)
              if (written[slot]) sum += partial.data()[slot * N + j];
            into(db[j], sum);
          }
        });
      } else {
        parallel_for((N + kSumCols - 1) / kSumCols, rows * kSumCols, [&](int64_t blk) {
          const int64_t j0 = blk * kSumCols, width = std::min(kSumCols, N - j0);
          Real sums[kSumCols];
          column_sums(G.data(), rows, N, j0, width, sums);
          for (int64_t j = 0; j < width; ++j) into(db[j0 + j], sums[j]);
        });
      }
    });
    // Last: the products above read dY, and r may be x itself (then dx already holds x's part).
    if (residual && t.needs_grad(*residual)) t.add_grad(*residual, dY);
  };
  if (residual) return t.push(name, std::move(Y), std::move(backward), {x, w, b, *residual});
  return t.push(name, std::move(Y), std::move(backward), {x, w, b});
}

}  // namespace

Var linear(Tape& t, Var x, Var w, Var b) { return linear_op(t, x, w, b, Post{}); }
Var linear_gelu(Tape& t, Var x, Var w, Var b) { return linear_op(t, x, w, b, Post{Post::kGelu, {}, {}, {}}); }
Var linear_residual(Tape& t, Var x, Var w, Var b, Var residual) {
  return linear_op(t, x, w, b, Post{Post::kResidual, residual, {}, {}});
}
Var linear_rotate(Tape& t, Var x, Var w, Var b, const Tensor& cos, const Tensor& sin) {
  return linear_op(t, x, w, b, Post{Post::kRotate, std::nullopt, cos, sin});
}


}  // namespace ordo
