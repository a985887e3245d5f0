// core/ops/matmul.cpp: matrix products and their gradients.
//
//   C = op(A) op(B)
//   dA = dC op(B)^T      (stored transposed when trans_a: dA^T = op(B) dC^T)
//   dB = op(A)^T dC      (stored transposed when trans_b: dB^T = dC^T op(A))
// Every product goes through gemm() with accumulate = true, so gradients add up.
#include "core/gemm.h"
#include "core/ops.h"

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
    if (t.needs_grad(a)) {
      Real* dA = t.grad(a).data();
      if (!ta) product(p, dC.data(), false, Bd, !tb, dA, true, p.M, p.K, p.N);  // dC op(B)^T
      else product(p, Bd, tb, dC.data(), true, dA, true, p.K, p.M, p.N);        // op(B) dC^T
    }
    if (t.needs_grad(b)) {
      Real* dB = t.grad(b).data();
      // Per-entry B gradients; a shared B (only with batch == 1 here) is a plain 2-D case.
      if (!tb) product(p, Ad, !ta, dC.data(), false, dB, true, p.K, p.N, p.M);  // op(A)^T dC
      else product(p, dC.data(), true, Ad, ta, dB, true, p.N, p.K, p.M);        // dC^T op(A)
    }
  }, {a, b});
}

}  // namespace ordo
