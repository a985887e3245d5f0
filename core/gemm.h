// core/gemm.h: the one matrix-multiply entry point of ordo.
//
//   C = alpha * op(A) op(B) + bias + (accumulate ? C : 0)      op(X) = X or X^T
//
// bias (optional, unbatched calls only) is a row of N values added to every row of C, fused
// into the product (a linear layer's forward writes its output once).
//
// All buffers are row-major and contiguous; a transpose is expressed by strides, never by
// a copy. Batched: `batch` independent products with the given element strides between
// consecutive A, B and C matrices (a stride of 0 broadcasts one matrix to the whole batch).
//
// float32 runs on oneDNN matmul primitives, created once per shape and cached. The work
// is split into blocks chosen from the shape alone (never from the thread count), each
// block is one single-threaded oneDNN call inside an OpenMP loop, and long reductions are
// cut into fixed chunks summed in a fixed order. So the result is bit-identical for any
// OMP_NUM_THREADS. The float64 reference build uses plain loops.
#pragma once

#include <cstdint>
#include <functional>

#include "core/tensor.h"

namespace ordo {

struct GemmArgs {
  int64_t M = 0, N = 0, K = 0;
  bool trans_a = false, trans_b = false;
  Real alpha = 1;
  bool accumulate = false;
  int64_t batch = 1;
  int64_t stride_a = 0, stride_b = 0, stride_c = 0;  // elements between batch entries
  const Real* bias = nullptr;                         // (N), batch == 1 only
  // Work on finished rows of C (batch == 1 only): called as (*epilogue)(r0, r1) once for each
  // row block [r0, r1) of C, right after the block is computed and on the thread that
  // computed it, so the rows are still in its cache (a linear layer's GELU). The blocks
  // cover [0, M) once; they depend on the shape, never on the thread count. Products cut
  // over K instead of rows (long weight gradients) and the float64 build call it once, for
  // [0, M), after the whole product.
  const std::function<void(int64_t, int64_t)>* epilogue = nullptr;
  // Work that produces rows of A (batch == 1, A not transposed): called as (*prologue)(r0, r1)
  // for each row block of C right before its product, on the thread that computes it, so the
  // product reads rows [r0, r1) of A while they are still in cache (linear_gelu's backward
  // forms du = dy gelu'(u) this way). Same blocks as the epilogue; products cut over K and
  // the float64 build call it once, for [0, M), before the product.
  const std::function<void(int64_t, int64_t)>* prologue = nullptr;
};

void gemm(const GemmArgs& args, const Real* a, const Real* b, Real* c);

// The same product as a triple loop in double precision: the test reference.
void gemm_reference(const GemmArgs& args, const Real* a, const Real* b, Real* c);

// oneDNN's own multithreaded sgemm on (n, n) x (n, n), timed `repeats` times after one
// warm-up; returns the best GFLOP/s. The machine's peak for `ordo bench`. Its buffers are
// mapped for the call and unmapped after it, so a process's memory is the same after it.
double measure_sgemm_peak(int64_t n, int repeats);

}  // namespace ordo
