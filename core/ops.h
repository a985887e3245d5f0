// core/ops.h: every differentiable op of ordo.
//
// Each op is a free function `Var op(Tape&, inputs...)`: it computes its output, pushes it
// on the tape with a closure that adds the input gradients, and returns the new Var. The
// forward, the state it saves and the backward live together in one file under core/ops/.
// Shape errors name the op and both shapes. Every op is checked against central finite
// differences (tests/gradcheck/) and gives bit-identical results for any thread count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/tape.h"
#include "core/tensor.h"

namespace ordo {

// ---- elementwise, with NumPy broadcasting (core/ops/elementwise.cpp) -------------------
// Shapes are aligned on their last axes; a dimension of 1 (or a missing leading one)
// stretches. The gradient of a broadcast input is summed over the stretched axes.
Var add(Tape& t, Var a, Var b);
Var sub(Tape& t, Var a, Var b);
Var mul(Tape& t, Var a, Var b);
Var div(Tape& t, Var a, Var b);
Var scale(Tape& t, Var a, Real s);  // s * a
Shape broadcast_shape(const char* op, const Shape& a, const Shape& b);

// ---- matrix products (core/ops/matmul.cpp) ---------------------------------------------
// 2-D: (M, K) x (K, N) -> (M, N). Batched: (..., M, K) x (..., K, N) with equal leading
// dims, or a 2-D b shared by the whole batch. trans_a / trans_b transpose the last two
// axes of a / b (by strides, no copy).
Var matmul(Tape& t, Var a, Var b, bool trans_a = false, bool trans_b = false);
// y = x w + b: x (..., K), w (K, N), b (N) -> (..., N). One op, so the bias costs neither
// an extra activation nor an extra pass over the output.
Var linear(Tape& t, Var x, Var w, Var b);
// y = gelu(x w + b) (the tanh form, as gelu()): the GELU is applied to each row block of the
// product while it is still in cache. Equals gelu(linear(x, w, b)) bit for bit.
Var linear_gelu(Tape& t, Var x, Var w, Var b);
// y = residual + (x w + b), residual of the output's shape (a residual connection): the
// addition is done on each row block of the product while it is still in cache. Equals
// add(residual, linear(x, w, b)) bit for bit, values and gradients.
Var linear_residual(Tape& t, Var x, Var w, Var b, Var residual);
// y = rotate_pairs(x w + b, cos, sin): x (..., L, K), cos and sin (L, N / 2). The rotation
// is done on each row block of the product while it is still in cache (rope's q and k
// projections). Equals rotate_pairs(linear(x, w, b), cos, sin) bit for bit.
Var linear_rotate(Tape& t, Var x, Var w, Var b, const Tensor& cos, const Tensor& sin);

// ---- reductions (core/ops/reduce.cpp) --------------------------------------------------
Var sum(Tape& t, Var a);        // all elements -> scalar
Var mean(Tape& t, Var a);       // all elements -> scalar
Var sum_last(Tape& t, Var a);   // (..., n) -> (...)
Var mean_last(Tape& t, Var a);  // (..., n) -> (...)
// (..., n) -> (..., n): out[..., j] = sum_{t >= j} a[..., t], each row summed from its end.
Var suffix_sum_last(Tape& t, Var a);
// a (T, ...) as consecutive runs of segments[s] rows: row r of the output is the sum of a's
// rows from the start of r's run to r (a cumulative sum that restarts at every run).
Var running_sum(Tape& t, Var a, const std::vector<int64_t>& segments);

// ---- unary (core/ops/unary.cpp) --------------------------------------------------------
Var exp(Tape& t, Var a);
Var log(Tape& t, Var a);
Var log1p(Tape& t, Var a);  // ln(1 + a), accurate where a is small
Var tanh(Tape& t, Var a);
Var sigmoid(Tape& t, Var a);  // 1 / (1 + e^-a)
Var log_sigmoid(Tape& t, Var a);  // ln sigmoid(a), without overflow for any a
Var softplus(Tape& t, Var a);     // ln(1 + e^a), without overflow for any a
Var relu(Tape& t, Var a);
// min(max(a, lo), hi); the gradient passes where lo <= a <= hi, bounds included (PyTorch's).
Var clamp(Tape& t, Var a, Real lo, Real hi);
// GELU, tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
Var gelu(Tape& t, Var a);

// ---- softmax family (core/ops/softmax.cpp) ---------------------------------------------
// Softmax over the last axis of (x + mask). `mask` is a constant additive mask that
// broadcasts to x (entries 0 or -inf); a row whose entries are all -inf yields zeros,
// never NaN. Saves its output, not its input.
Var softmax(Tape& t, Var x, const std::optional<Tensor>& mask = std::nullopt);
Var log_softmax(Tape& t, Var x);

// ---- loss (core/ops/cross_entropy.cpp) -------------------------------------------------
// logits (N, C), targets (N) in [0, C), score (N) of 0/1 weights: the mean of
// -log softmax(logits)[target] over the scored rows (0 when no row is scored). Unscored
// rows contribute nothing to the loss or the gradient; their targets are not read.
Var cross_entropy(Tape& t, Var logits, const TensorI32& targets, const Tensor& score);

// ---- normalisation (core/ops/layernorm.cpp) --------------------------------------------
// Over the last axis: (x - mean) / sqrt(var + eps) * gamma + beta, gamma/beta of shape (d).
Var layernorm(Tape& t, Var x, Var gamma, Var beta, Real eps = 1e-5);

// ---- lookup (core/ops/embedding.cpp, core/ops/gather.cpp) ------------------------------
// table (V, d), ids (...) -> (..., d). The backward scatter-adds into the table rows.
// An id outside [0, V) is an error naming the id and V.
Var embedding(Tape& t, Var table, const TensorI32& ids);
// out[r, k] = x[r, idx[r, k]]: x (..., n), idx (..., m) with the same leading dims, every
// index in [0, n) -> (..., m). The backward adds dout[r, k] into dx[r, idx[r, k]], row by
// row in k order (core/ops/gather.cpp).
Var gather_last(Tape& t, Var x, const TensorI32& idx);

// ---- shape (core/ops/shape.cpp) --------------------------------------------------------
Var reshape(Tape& t, Var a, const Shape& shape);           // same element count, no copy
Var permute(Tape& t, Var a, const std::vector<int>& axes);  // out.dim(i) = a.dim(axes[i])
Var transpose(Tape& t, Var a, int axis0, int axis1);
Var concat(Tape& t, const std::vector<Var>& parts, int axis);
Var slice(Tape& t, Var a, int axis, int64_t start, int64_t end);  // [start, end) on axis

// ---- packing (core/ops/pack.cpp) ------------------------------------------------------
// x (B, L, ...) holds left-aligned sequences, sequence b real at rows t < lengths[b].
// pack_rows keeps the real rows, sequence after sequence: (T, ...), T = sum of the lengths,
// sequence b from row sum_{c < b} lengths[c] on. unpack_rows is the inverse: (T, ...) ->
// (B, L, ...) with zeros at the padding. Each is the other's backward.
Var pack_rows(Tape& t, Var x, const std::vector<int32_t>& lengths);
Var unpack_rows(Tape& t, Var x, const std::vector<int32_t>& lengths, int64_t L);

// ---- regularisation (core/ops/dropout.cpp) ---------------------------------------------
// Zeroes each element with probability p and scales survivors by 1/(1-p). The mask is a
// pure function of (seed, stream, element index): the same for any thread count.
Var dropout(Tape& t, Var a, Real p, uint64_t seed, uint64_t stream);

}  // namespace ordo

namespace ordo {

// ---- positional ops (core/ops/positional.cpp) ------------------------------------------
// Rotates interleaved pairs (2i, 2i+1) of the last axis of x (..., L, D) by per-position
// angles: out = (x0 cos - x1 sin, x0 sin + x1 cos), with cos/sin of shape (L, D/2) (or
// (B, L, D/2) when x is (B, ..., L, D) and angles differ per sequence: not needed yet).
// The backward rotates by the opposite angle.
Var rotate_pairs(Tape& t, Var x, const Tensor& cos, const Tensor& sin);

// Polar coordinates (PoPE): magnitudes m (..., L, D), the cos and sin (L, D) of an angle
// a per position and component, and an optional learned phase p (D) added to every angle,
// give (..., L, 2D) with the pair (2c, 2c+1) = (m_c cos(a_c + p_c), m_c sin(a_c + p_c)): the
// dot product of two such rows is sum_c m_c m'_c cos(a_c - a'_c + p_c - p'_c). The backward
// turns each pair's gradient back onto the magnitude and across it onto the phase.
Var polar(Tape& t, Var m, const Tensor& cos, const Tensor& sin, std::optional<Var> phase = std::nullopt);
// FIRE's MLP (docs/spec.md §2.10): a 1 -> K -> H MLP with ReLU on every entry of the grid x
// (R, C), heads first:
//   y[h, r, c] = b2[h] + sum_k w2[k, h] relu(w1[0, k] x[r, c] + b1[k])        y (H, R, C)
// with w1 (1, K), b1 (K), w2 (K, H), b2 (H) in Linear's layouts. lower_triangle: only the
// entries c <= r are computed (the keys a causal query sees); the others are 0 and take no
// gradient. The hidden layer is recomputed in the backward, never stored; the same values
// as linear, relu, linear and a permute, in another order of summation.
Var scalar_mlp(Tape& t, Var x, Var w1, Var b1, Var w2, Var b2, bool lower_triangle = false);
// FIRE's normalised distance: x[e] = sign[e] num[a[e]] / den[b[e]] for every entry e of the
// grids a, b and sign (one shape; num and den vectors, every index in range), in one pass
// where gathers, a product and a quotient made four grid-sized tensors. The grids are kept
// for the backward as they are (shared, not copied): not to be written until it has run.
// With lower_triangle (grids (R, C)) only the entries c <= r are computed and read (those a
// causal scalar_mlp takes); the others are 0 and take no gradient.
Var lookup_ratio(Tape& t, Var num, Var den, const TensorI32& a, const TensorI32& b, const Tensor& sign,
                 bool lower_triangle = false);

// Expands a relative (Toeplitz) bias rel (H, Lq + Lk - 1) into (H, Lq, Lk) with
// out[h, t, u] = rel[h, (u - t) + Lq - 1]. The backward sums each diagonal.
Var expand_relative(Tape& t, Var rel, int64_t Lq, int64_t Lk);

// Relative keys chosen per pair (Transformer-XL): q (B, H, Lq, d), rel (N, H, d) with one row
// per relative distance, idx (Lq, Lk) the row of each (query, key) pair, every entry in
// [0, N): out[b, h, t, u] = q[b, h, t, :] . rel[idx[t, u], h, :], shape (B, H, Lq, Lk). The
// backward scatters into the rows of rel that idx names.
Var relative_logits(Tape& t, Var q, Var rel, const TensorI32& idx);

}  // namespace ordo

namespace ordo {

// ---- fused attention (core/ops/fused_attention.cpp) ------------------------------------------
// Which keys a query sees (docs/spec.md §4): key u of a sequence with key_length real keys
// is visible to query t when
//   u < key_length,   u <= t if causal,   |t - u| < window if window > 0
// (a sliding window: a causal query sees itself and the window - 1 keys before it). The
// visible keys of a query are one range [key_begin, key_end). Built from a bool, the causal
// flag alone (no window).
struct AttentionMask {
  AttentionMask(bool causal_ = false, int64_t window_ = 0) : causal(causal_), window(window_) {}
  bool causal;
  int64_t window;  // 0: every key (within the causal limit)
  int64_t key_begin(int64_t t) const { return window > 0 ? std::max<int64_t>(0, t - window + 1) : 0; }
  // Never below key_begin(t): an empty range is [key_begin, key_begin).
  int64_t key_end(int64_t t, int64_t key_length) const {
    int64_t end = key_length;
    if (causal) end = std::min<int64_t>(end, t + 1);
    if (window > 0) end = std::min<int64_t>(end, t + window);
    return std::max<int64_t>(end, key_begin(t));
  }
  bool visible(int64_t t, int64_t u, int64_t key_length) const {
    return u >= key_begin(t) && u < key_end(t, key_length);
  }
};

// softmax(q k^T * scale + bias + mask) v for q, k (B, L, H, d_h) and v (B, L, H, d_v) (the
// projections' layout, heads inner; the output is v's shape; d_v = d_h but for PoPE, whose
// queries and keys are 2 d_h wide), computed tile by tile with an online softmax: no
// (B, H, L, L) tensor is ever stored. The backward recomputes
// the scores of each tile from q, k and the saved row log-sum-exps.
//   bias: none, relative (H, 2L - 1) with entry [h, (u - t) + L - 1], or full (H, L, L);
//         its gradient is accumulated when it needs one (t5's learned table).
//   key_lengths (B) and mask: the keys each query sees (AttentionMask, above): key padding,
//   causal and a sliding window; a window of W costs O(L W) instead of O(L^2).
// A query row with every key masked outputs zeros. Matches the reference kernel
// (attention_reference, below) and the unfused composition (matmul, scale, add, softmax,
// matmul) within 1e-5 in values and gradients.
struct FusedAttentionBias {
  std::optional<Var> values;
  bool relative = false;
};
// Every term on the logits beyond q k^T * scale, in the order they apply:
//   bias:   the bias above;
//   forget: F (B, L, H), or (T, H) on packed rows: the logit of query t and key u in head h
//           gets F[t, h] - F[u, h] (the Forgetting Transformer, Lin et al. 2025: F the
//           running sums of log forget gates; docs/spec.md §2.17);
//   relative_keys: the logit of query t and key u in head h gets
//           scale * queries[t, h] . keys[pos(t) - pos(u) + offset, h] (Transformer-XL's
//           relative keys, Dai et al. 2019; docs/spec.md §2.21), RelativeKeys below;
//   log_length_scale: s (H), Scalable-Softmax (SSMax, Nakanishi 2025; docs/spec.md §2.16):
//           the whole logit row of query t in head h, the terms above included, times
//           s_h log n_t, n_t the number of keys the query sees (AttentionMask).
//   more:   the inputs of a further term, under its unit's name (a term of the fused kernel
//           is one file in core/ops/attention_terms/ and one line in their list.h;
//           docs/guides/add-logit-term.md adds one, with its slice of the reference kernel).
//           The unfused composition knows the terms above only, and refuses others.
// Implicit from a bias alone.
//
// queries: q's shape and layout ((B, L, H, d_h), or packed (T, H, d_h)); keys: (N, H, d_h),
// one row per relative distance; positions: pos(t) of row t of every sequence (L values,
// strictly increasing), or empty for pos(t) = t. Every pos(t) - pos(u) + offset of two rows
// must lie in [0, N). The keys' gradient is summed over the pairs that read each row.
struct RelativeKeys {
  Var queries;
  Var keys;
  std::vector<int32_t> positions;
  int64_t offset = 0;
  // pos(t), and the row of `keys` that query row t and key row u read.
  int64_t position(int64_t t) const { return positions.empty() ? t : positions[static_cast<size_t>(t)]; }
  int64_t row(int64_t t, int64_t u) const { return position(t) - position(u) + offset; }
};
struct LogitTerms {
  LogitTerms(FusedAttentionBias bias_ = {}, std::optional<Var> log_length_scale_ = std::nullopt,
             std::optional<Var> forget_ = std::nullopt)
      : bias(std::move(bias_)), log_length_scale(std::move(log_length_scale_)), forget(std::move(forget_)) {}
  FusedAttentionBias bias;
  std::optional<Var> log_length_scale;  // (H)
  std::optional<Var> forget;            // (B, L, H) or packed (T, H)
  std::optional<RelativeKeys> relative_keys;
  std::map<std::string, std::vector<Var>> more;
};
Var fused_attention(Tape& t, Var q, Var k, Var v, const LogitTerms& terms,
                    const std::vector<int32_t>& key_lengths, const AttentionMask& mask, Real scale);
// The same on packed sequences (pack_rows): q, k (T, H, d_h), v and the output (T, H, d_v), sequence
// b at rows [start_b, start_b + lengths[b]) with start_b = sum_{c < b} lengths[c], and has
// lengths[b] queries and keys; no padding row exists. L (>= every length) is the length the
// bias was built for. Each real row's output and gradients are bit-identical to
// fused_attention's on the padded batch with key_lengths = lengths (whose padding rows get a
// zero output gradient, as the output mask gives them).
Var fused_attention_packed(Tape& t, Var q, Var k, Var v, const LogitTerms& terms,
                           const std::vector<int32_t>& lengths, int64_t L, const AttentionMask& mask, Real scale);
// ---- stick-breaking attention (core/ops/stickbreaking_attention.cpp) ---------------------------
// In place of the softmax (Tan et al. 2025; docs/spec.md §2.18): query t gives key j the weight
// A_tj = sigmoid(z_j) prod_{j < l < t} (1 - sigmoid(z_l)), z = scale q_t . k, over the keys
// before it (and itself with attend_current), nearest first; out_t = sum_j A_tj v_j + rem_t v_t,
// rem_t = prod_j (1 - sigmoid(z_j)) the stick's remainder (0 with remainder off), no
// normalisation. mask must be causal (a window and key padding apply as for fused_attention).
// Layouts as fused_attention and fused_attention_packed; O(L) memory, the backward recomputes
// each tile of rows.
struct StickBreakingRule {
  bool attend_current = false;  // the query's own key takes the first share
  bool remainder = true;        // what the stick leaves goes to the query's own value (the authors')
};
Var stickbreaking_attention(Tape& t, Var q, Var k, Var v, const std::vector<int32_t>& key_lengths,
                            const AttentionMask& mask, StickBreakingRule rule, Real scale);
Var stickbreaking_attention_packed(Tape& t, Var q, Var k, Var v, const std::vector<int32_t>& lengths, int64_t L,
                                   const AttentionMask& mask, StickBreakingRule rule, Real scale);
// The reference kernel (core/ops/stickbreaking_reference.cpp): stickbreaking_attention's
// arguments, computed one row at a time with plain loops as the formulas read. What the tests
// hold the fast kernel to; not for training.
Var stickbreaking_attention_reference(Tape& t, Var q, Var k, Var v, const std::vector<int32_t>& key_lengths,
                                      const AttentionMask& mask, StickBreakingRule rule, Real scale);

// ---- CoPE attention (core/ops/cope_attention.cpp) ----------------------------------------------
// The softmax attention of CoPE (Golovneva et al. 2024; docs/spec.md §2.12): for query t and
// its visible keys j (mask, key_lengths; mask must be causal), with z_tj = scale q_t . k_j,
//   p_tj = min(sum_{l = j..t, l visible} sigmoid(z_tl), P - 1)
//   c_tj = q_t . e[p_tj],  e[p] = (1 - w) e[floor p] + w e[ceil p],  w = p - floor p
//   out_t = sum_j softmax_j(z_tj + c_tj) v_j
// q, k, v (B, L, H, d_h) and e (P, d_h), or packed (T, H, d_h) as fused_attention_packed.
// O(L) memory: nothing of size L^2 is kept, the backward recomputes each tile of rows. A
// query that sees no key outputs zeros.
Var cope_attention(Tape& t, Var q, Var k, Var v, Var e, const std::vector<int32_t>& key_lengths,
                   const AttentionMask& mask, Real scale);
Var cope_attention_packed(Tape& t, Var q, Var k, Var v, Var e, const std::vector<int32_t>& lengths, int64_t L,
                          const AttentionMask& mask, Real scale);
// CoPE's logit term c (above) from q (B, H, L, d_h) heads outer, the logits z (B, H, L, L),
// e (P, d_h) and the gates' mask (1 where key j counts for query t: broadcast to z's shape),
// composed from tape ops (core/ops/cope_reference.cpp): the unfused path's term
// (layers/posenc/cope.cpp) and the reference below.
Var cope_logit_term(Tape& t, Var q, Var scores, Var e, const Tensor& gate_mask);
// The reference (core/ops/cope_reference.cpp): cope_attention's arguments, composed from
// tape ops as the formulas read (the logits, the term above, softmax, the values), so its
// gradients are the tape's. What the tests hold the kernel to; not for training.
Var cope_attention_reference(Tape& t, Var q, Var k, Var v, Var e, const std::vector<int32_t>& key_lengths,
                             const AttentionMask& mask, Real scale);

// ---- PaTH attention (core/ops/path_attention.cpp) ----------------------------------------------
// softmax over the logits z_tj = scale q_t^T H_t H_{t-1} ... H_{j+1} k_j of the visible keys
// j <= t, H_l = I - beta_l w_l w_l^T (Yang et al. 2025; docs/spec.md §2.20), times v: q, k, v,
// w (B, L, H, d_h) and beta (B, L, H), or packed (T, H, d_h) and (T, H) as
// fused_attention_packed. mask must be causal (a window and key padding apply as for
// fused_attention); padding query rows output zeros. O(L) memory: the backward recomputes
// each tile's chains. path_attention_weights: the weights (B, H, L, L) of the padded form, for
// attention maps (no gradient).
Var path_attention(Tape& t, Var q, Var k, Var v, Var w, Var beta, const std::vector<int32_t>& key_lengths,
                   const AttentionMask& mask, Real scale);
Var path_attention_packed(Tape& t, Var q, Var k, Var v, Var w, Var beta, const std::vector<int32_t>& lengths,
                          int64_t L, const AttentionMask& mask, Real scale);
Tensor path_attention_weights(const Tensor& q, const Tensor& k, const Tensor& w, const Tensor& beta,
                              const std::vector<int32_t>& key_lengths, const AttentionMask& mask, Real scale);
// The reference kernel (core/ops/path_reference.cpp): path_attention's arguments, computed one
// row at a time with plain loops as the formulas read. What the tests hold the fast kernel
// to; not for training.
Var path_attention_reference(Tape& t, Var q, Var k, Var v, Var w, Var beta, const std::vector<int32_t>& key_lengths,
                             const AttentionMask& mask, Real scale);

// PaTH's reflection vectors (core/ops/path_reflections.cpp; docs/spec.md §2.20) from the
// low-rank projection u (B, L, d): a causal depthwise convolution with taps conv (S, d) (row
// s weighs the input s positions back; zeros before the start), SiLU, then each head's d /
// heads channels divided by sqrt(their sum of squares + eps): w (B, L, heads, d / heads).
// path_reflections_reference (core/ops/path_reference.cpp): the same as a composition of tape
// ops, what the tests hold it to.
Var path_reflections(Tape& t, Var u, Var conv, int64_t heads, Real eps);
Var path_reflections_reference(Tape& t, Var u, Var conv, int64_t heads, Real eps);

// The reference kernel (core/ops/attention_reference.cpp): fused_attention's arguments,
// inputs and masks, computed with plain loops as the formulas read (every score of a row
// kept, P stored for the backward). What the tests hold the fast kernel to; not for
// training.
Var attention_reference(Tape& t, Var q, Var k, Var v, const LogitTerms& terms,
                        const std::vector<int32_t>& key_lengths, const AttentionMask& mask, Real scale);

}  // namespace ordo
