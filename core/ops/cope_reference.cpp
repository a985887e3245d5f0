// core/ops/cope_reference.cpp: CoPE's logit term composed from tape ops, and the reference of
// cope_attention (Golovneva et al. 2024, arXiv 2405.18719; docs/spec.md §2.12), the formulas
// as they read, each step an op whose gradient the tape knows. The kernel
// (core/ops/cope_attention.cpp) is held to it by the tests; the unfused path of the CoPE
// encoding (layers/posenc/cope.cpp) adds the term to its logits.
//
//   g_tl = sigmoid(z_tl) where key l counts for query t (gate_mask), else 0
//   p_tj = min(sum_{l >= j} g_tl, P - 1)     a suffix sum along the row, from its end
//   c_tj = q_t . e[floor p] + w (q_t . e[ceil p] - q_t . e[floor p]),  w = p - floor p
// Interpolating the products q . e[n] rather than the rows of e is the same term, and costs
// one (rows, P) product, as the authors compute it.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/ops.h"

namespace ordo {

Var cope_logit_term(Tape& t, Var q, Var scores, Var e, const Tensor& gate_mask) {
  const Shape sq = t.shape(q), ss = t.shape(scores), se = t.shape(e);  // copies: the tape grows below
  ORDO_CHECK(sq.rank() == 4, "cope_logit_term: q must be (B, H, L, d_h), got ", sq);
  const int64_t B = sq[0], H = sq[1], L = sq[2], d = sq[3], rows = B * H * L;
  ORDO_CHECK(ss == (Shape{B, H, L, L}), "cope_logit_term: the logits must be (", B, ", ", H, ", ", L, ", ", L,
             ") for q ", sq, ", got ", ss);
  ORDO_CHECK(se.rank() == 2 && se[1] == d && se[0] >= 1, "cope_logit_term: e must be (P, ", d, ") with P >= 1, got ",
             se);
  const int64_t P = se[0];
  Var gates = reshape(t, mul(t, sigmoid(t, scores), t.input(gate_mask)), Shape{rows, L});
  Var p = suffix_sum_last(t, gates);  // (rows, L)
  Var last = t.input(Tensor::from(Shape{1, 1}, {static_cast<Real>(P - 1)}));
  Var clamped = sub(t, last, relu(t, sub(t, last, p)));  // min(p, P - 1)

  const Tensor& pv = t.value(clamped);
  TensorI32 lo = TensorI32::empty(Shape{rows, L}), hi = TensorI32::empty(Shape{rows, L});
  Tensor floor = Tensor::empty(Shape{rows, L});
  for (int64_t i = 0; i < rows * L; ++i) {
    const Real f = std::floor(std::max(pv[i], Real(0)));
    floor[i] = f;
    lo[i] = static_cast<int32_t>(f);
    hi[i] = static_cast<int32_t>(std::min<Real>(std::ceil(pv[i]), static_cast<Real>(P - 1)));
  }
  // q . e[n] for every integer position n: (rows, P), then the two neighbours of p.
  Var at_integers = matmul(t, reshape(t, q, Shape{rows, d}), e, false, true);
  Var below = gather_last(t, at_integers, lo), above = gather_last(t, at_integers, hi);
  Var w = sub(t, clamped, t.input(floor));  // p - floor p, carries p's gradient
  return reshape(t, add(t, below, mul(t, w, sub(t, above, below))), Shape{B, H, L, L});
}

Var cope_attention_reference(Tape& t, Var q, Var k, Var v, Var e, const std::vector<int32_t>& key_lengths,
                             const AttentionMask& mask, Real scale) {
  const Shape s = t.shape(q);
  ORDO_CHECK(s.rank() == 4 && t.shape(k) == s && t.shape(v) == s,
             "cope_attention_reference: q, k, v must be (B, L, H, d_h) alike, got ", s, ", ", t.shape(k), ", ",
             t.shape(v));
  ORDO_CHECK(mask.causal, "cope_attention_reference: CoPE counts the keys up to the query: it needs a causal mask");
  const int64_t B = s[0], L = s[1];
  ORDO_CHECK(static_cast<int64_t>(key_lengths.size()) == B, "cope_attention_reference: ", key_lengths.size(),
             " key lengths for a batch of ", B);
  // A query that sees no key takes a uniform softmax over every key, zeroed afterwards by
  // `seen`: its output and gradients are 0, as the kernel gives them.
  Tensor visible = Tensor::zeros(Shape{B, 1, L, L}), additive = Tensor::zeros(Shape{B, 1, L, L});
  Tensor seen = Tensor::zeros(Shape{B, 1, L, 1});
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 0; i < L; ++i) {
      const bool any = mask.key_end(i, key_lengths[b]) > mask.key_begin(i);
      seen[b * L + i] = any ? 1 : 0;
      for (int64_t j = 0; j < L; ++j) {
        const bool sees = mask.visible(i, j, key_lengths[b]);
        visible[(b * L + i) * L + j] = sees ? 1 : 0;
        if (any && !sees) additive[(b * L + i) * L + j] = -std::numeric_limits<Real>::infinity();
      }
    }
  const std::vector<int> heads_outer{0, 2, 1, 3};  // (B, L, H, d_h) <-> (B, H, L, d_h)
  Var qh = permute(t, q, heads_outer), kh = permute(t, k, heads_outer), vh = permute(t, v, heads_outer);
  Var z = ordo::scale(t, matmul(t, qh, kh, false, true), scale);  // (B, H, L, L)
  Var logits = add(t, z, cope_logit_term(t, qh, z, e, visible));
  Var out = mul(t, matmul(t, softmax(t, logits, additive), vh), t.input(seen));  // (B, H, L, d_h)
  return permute(t, out, heads_outer);
}

}  // namespace ordo
