// core/ops/cross_entropy.cpp: fused log-softmax + negative log-likelihood.
//
//   lse_i  = max_j x_ij + log sum_j exp(x_ij - max_j x_ij)
//   loss   = (1 / n_scored) sum_{i scored} (lse_i - x_{i, target_i})
//   dx_ij  = dloss * score_i / n_scored * (softmax(x_i)_j - [j == target_i])
// n_scored is the sum of the 0/1 scores (the number of scored rows). Unscored rows are
// skipped entirely: their logits and targets are never read (they may hold garbage, even
// NaN), and their gradient is zero. With no scored row the loss is 0 and so is the gradient.
#include <cmath>
#include <vector>

#include "core/ops.h"
#include "core/parallel.h"

namespace ordo {

Var cross_entropy(Tape& t, Var logits, const TensorI32& targets, const Tensor& score) {
  const Tensor& X = t.value(logits);  // (N, C)
  ORDO_CHECK(X.rank() == 2, "cross_entropy: logits must be (N, C), got ", X.shape());
  const int64_t N = X.dim(0), C = X.dim(1);
  ORDO_CHECK(targets.defined() && targets.shape() == Shape({N}), "cross_entropy: targets must be (N) = (",
             N, ") for logits ", X.shape(), ", got ", targets.defined() ? targets.shape().str() : "an undefined tensor");
  ORDO_CHECK(score.defined() && score.shape() == Shape({N}), "cross_entropy: score must be (N) = (", N,
             ") for logits ", X.shape(), ", got ", score.defined() ? score.shape().str() : "an undefined tensor");

  // Validate serially (an exception must not escape a parallel loop) and count scored rows.
  double n_scored = 0;
  for (int64_t i = 0; i < N; ++i) {
    const Real s = score[i];
    ORDO_CHECK(s == 0 || s == 1, "cross_entropy: score of row ", i, " is ", s,
               "; scores are 0 (unscored) or 1 (scored)");
    if (s == 0) continue;
    ORDO_CHECK(targets[i] >= 0 && targets[i] < C, "cross_entropy: row ", i, " has target ",
               targets[i], " outside [0, C) with C = ", C);
    n_scored += 1;
  }

  // The backward reads these after the caller may have reused its buffers: keep copies.
  TensorI32 target_copy = targets.clone();  // (N)
  Tensor score_copy = score.clone();        // (N)
  Tensor lse = Tensor::zeros(Shape{N});     // (N) log-sum-exp of each scored row
  std::vector<double> nll(N, 0.0);          // (N) per-row loss, summed in row order below
  const Real* x = X.data();
  const int32_t* tgt = target_copy.data();
  const Real* sc = score_copy.data();
  Real* lse_d = lse.data();
  parallel_for(N, 4 * C, [&](int64_t i) {
    if (sc[i] == 0) return;
    const Real* xi = x + i * C;
    Real max = xi[0];
    for (int64_t j = 1; j < C; ++j) max = xi[j] > max ? xi[j] : max;
    double total = 0;
    for (int64_t j = 0; j < C; ++j) total += std::exp(static_cast<double>(xi[j] - max));
    const double l = static_cast<double>(max) + std::log(total);
    lse_d[i] = static_cast<Real>(l);
    nll[i] = l - static_cast<double>(xi[tgt[i]]);
  });
  double loss = 0;
  for (int64_t i = 0; i < N; ++i) loss += nll[i];  // fixed order: thread-count independent
  if (n_scored > 0) loss /= n_scored;

  Tensor out = Tensor::scalar(static_cast<Real>(loss));
  return t.push("cross_entropy", std::move(out),
                [logits, target_copy, score_copy, lse, n_scored, N, C](Tape& t, const Tensor& dloss) {
    if (!t.needs_grad(logits) || n_scored == 0) return;
    const Real* x = t.value(logits).data();  // (N, C)
    const int32_t* tgt = target_copy.data();
    const Real* sc = score_copy.data();
    const Real* lse_d = lse.data();
    const Real g = static_cast<Real>(static_cast<double>(dloss.item()) / n_scored);
    // Summed: unscored rows get nothing, and a target's entry gets two terms.
    t.add_grad(logits, Tape::summed, [&](auto, Real* dx) {  // (N, C)
      parallel_for(N, 4 * C, [&](int64_t i) {
        if (sc[i] == 0) return;  // unscored: no gradient, logits never read
        const Real* xi = x + i * C;
        Real* dxi = dx + i * C;
        const Real w = g * sc[i];
        for (int64_t j = 0; j < C; ++j) dxi[j] += w * std::exp(xi[j] - lse_d[i]);
        dxi[tgt[i]] -= w;
      });
    });
  }, {logits});
}

}  // namespace ordo
