#include "layers/attention.h"

#include <algorithm>
#include <cmath>
#include <variant>

#include "core/ops.h"

namespace ordo {
namespace {

// Rows of a per-position table (L, n) for the packed rows of `pos`: (T, n), row r the table's
// row of that row's position.
Tensor pack_table(const Tensor& table, const Positions& pos) {
  const int64_t n = table.dim(1);
  int64_t T = 0;
  for (int32_t len : pos.lengths) T += len;
  Tensor out = Tensor::empty(Shape{T, n});
  Real* dst = out.data();
  for (int32_t len : pos.lengths) {
    std::copy(table.data(), table.data() + int64_t(len) * n, dst);
    dst += int64_t(len) * n;
  }
  return out;
}

// The row of the relative keys each (query, key) pair reads (RelativeKeys), (L, L).
TensorI32 relative_key_rows(const RelativeKeys& r, int64_t L) {
  TensorI32 rows = TensorI32::empty(Shape{L, L});
  for (int64_t i = 0; i < L; ++i)
    for (int64_t j = 0; j < L; ++j) rows[i * L + j] = static_cast<int32_t>(r.row(i, j));
  return rows;
}

// SSMax's log n_t for every query row (n_t the keys it sees, counted on real keys; 0 for a
// query that sees none), in the rows' layout: (T) packed, else (B, L).
Tensor log_key_counts(const AttentionInputs& in) {
  const Positions& pos = *in.positions;
  const int64_t B = pos.batch, L = pos.length;
  int64_t T = 0;
  for (int32_t len : pos.lengths) T += len;
  Tensor logn = Tensor::zeros(in.packed ? Shape{T} : Shape{B, L});
  int64_t r = 0;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t row = 0; row < (in.packed ? pos.lengths[b] : L); ++row, ++r) {
      const int64_t n = in.visible.key_end(row, pos.lengths[b]) - in.visible.key_begin(row);
      if (n > 0) logn[r] = static_cast<Real>(std::log(static_cast<double>(n)));
    }
  return logn;
}

}  // namespace

MultiHeadAttention::MultiHeadAttention(std::string n, int64_t d, int64_t h, uint64_t seed, double out_std,
                                       bool log_length)
    : Module(std::move(n)),
      w_q(child("w_q"), d, d, seed),
      w_k(child("w_k"), d, d, seed),
      w_v(child("w_v"), d, d, seed),
      w_o(child("w_o"), d, d, seed, out_std),
      d_model_(d),
      n_heads_(h),
      inv_sqrt_dh_(h > 0 && d % h == 0 ? static_cast<Real>(1.0 / std::sqrt(double(d / h))) : Real(0)) {
  ORDO_CHECK(h > 0 && d % h == 0, "attention '", name(), "': d_model ", d,
             " is not divisible by n_heads ", h, " (choose n_heads among the divisors of d_model)");
  if (log_length) log_length_scale = std::make_unique<Parameter>(child("ssmax_s"), Tensor::full(Shape{h}, Real(1)));
}

Var MultiHeadAttention::split_heads(Tape& t, Var x, const Shape& rows) {
  std::vector<int64_t> dims = rows.dims();  // (..., H, d_h): no copy
  dims.push_back(n_heads_);
  dims.push_back(d_model_ / n_heads_);
  return reshape(t, x, Shape(dims));
}

Var MultiHeadAttention::forward(Tape& t, Var x, const AttentionInputs& in, Var* maps) {
  return w_o.forward(t, merged_heads(t, x, in, maps));
}

Var MultiHeadAttention::forward_residual(Tape& t, Var x, Var residual, const AttentionInputs& in, Var* maps) {
  return w_o.forward_residual(t, merged_heads(t, x, in, maps), residual);
}

Var MultiHeadAttention::merged_heads(Tape& t, Var x, const AttentionInputs& in, Var* maps) {
  const Shape s = t.shape(x);  // a copy: the tape grows below
  const Positions& pos = *in.positions;
  if (in.packed) {
    ORDO_CHECK(s.rank() == 2 && s[1] == d_model_, "attention '", name(), "': expected packed x (T, ",
               d_model_, "), got ", s);
    ORDO_CHECK(in.fused && !maps, "attention '", name(), "': packed rows need the fused op and no maps");
  } else {
    ORDO_CHECK(s.rank() == 3 && s[2] == d_model_, "attention '", name(), "': expected x (B, L, ",
               d_model_, "), got ", s);
  }
  const Shape rows = in.packed ? Shape{s[0]} : Shape{s[0], s[1]};
  // Project. q, k, v in this order: their backwards then add into x's gradient in the same
  // order, with or without the fused rotation.
  auto tables = in.fused_rotation ? in.encoding->rotation_tables(pos, n_heads_) : std::nullopt;
  if (tables && in.packed) tables = std::make_pair(pack_table(tables->first, pos), pack_table(tables->second, pos));
  Heads h;
  if (tables) {  // a pair rotation (rope): done inside the q and k projections, on rows in cache
    h.q = split_heads(t, w_q.forward_rotated(t, x, tables->first, tables->second), rows);
    h.k = split_heads(t, w_k.forward_rotated(t, x, tables->first, tables->second), rows);
    h.v = split_heads(t, w_v.forward(t, x), rows);
  } else {  // rotate
    h.q = split_heads(t, w_q.forward(t, x), rows);
    h.k = split_heads(t, w_k.forward(t, x), rows);
    h.v = split_heads(t, w_v.forward(t, x), rows);
    if (in.packed) {  // rotate() takes the padded layout (B, L, H, d_h)
      auto [qr, kr] = in.encoding->rotate(t, unpack_rows(t, h.q, pos.lengths, pos.length),
                                          unpack_rows(t, h.k, pos.lengths, pos.length), pos);
      h.q = pack_rows(t, qr, pos.lengths);
      h.k = pack_rows(t, kr, pos.lengths);
    } else {
      std::tie(h.q, h.k) = in.encoding->rotate(t, h.q, h.k, pos);
    }
  }
  // Get the form.
  const AttentionForm form = in.encoding->form(t, LayerInput{x, h.q, &pos, in.layer});
  // Run it. The rotate hook may widen q and k (PoPE: 2 d_h); v and the heads stay d_h wide.
  Var heads = std::visit([&](const auto& f) { return attend(t, f, h, in, maps); }, form);  // (rows..., H, d_h)
  return reshape(t, heads, s);
}

Var MultiHeadAttention::attend(Tape& t, const SoftmaxForm& form, Heads h, const AttentionInputs& in, Var* maps) {
  const Positions& pos = *in.positions;
  LogitTerms terms;
  if (in.bias) terms.bias = FusedAttentionBias{in.bias->values, in.bias->relative};
  if (log_length_scale) terms.log_length_scale = t.param(*log_length_scale);
  if (form.relative_keys) {  // Transformer-XL: q + u, and q + v's keys
    h.q = form.relative_keys->content_queries;
    terms.relative_keys = form.relative_keys->keys;
  }
  if (form.log_forget_gates) {  // (rows..., H)
    // F: the running sums of the log gates along each sequence (its padding rows included,
    // after the real ones, where they change no real row).
    const Shape g = t.shape(*form.log_forget_gates);
    std::vector<int64_t> runs;
    if (in.packed) {
      for (int32_t len : pos.lengths) runs.push_back(len);
      terms.forget = running_sum(t, *form.log_forget_gates, runs);  // (T, H)
    } else {
      runs.assign(static_cast<size_t>(g[0]), g[1]);
      terms.forget = reshape(t, running_sum(t, reshape(t, *form.log_forget_gates, Shape{g[0] * g[1], n_heads_}), runs),
                             Shape{g[0], g[1], n_heads_});  // (B, L, H)
    }
  }
  const bool kernel = in.packed || (in.fused && !maps);
  if (kernel && form.contextual_table) {  // CoPE's own kernel: its term and nothing else
    ORDO_CHECK(!in.bias && !terms.log_length_scale && !terms.forget && !terms.relative_keys, "attention '", name(),
               "': CoPE's kernel takes no other logit term and no SSMax (EncodingInfo::needs_logits sends the "
               "model down the unfused path with SSMax)");
    if (in.packed)
      return cope_attention_packed(t, h.q, h.k, h.v, *form.contextual_table, pos.lengths, pos.length, in.visible,
                                   inv_sqrt_dh_);
    return cope_attention(t, h.q, h.k, h.v, *form.contextual_table, pos.lengths, in.visible, inv_sqrt_dh_);
  }
  ORDO_CHECK(!kernel || !form.contextual, "attention '", name(),
             "': a contextual term needs the logits formed (EncodingInfo::needs_logits sends the model "
             "down the unfused path)");
  if (in.packed) return fused_attention_packed(t, h.q, h.k, h.v, terms, pos.lengths, pos.length, in.visible, inv_sqrt_dh_);
  if (kernel) return fused_attention(t, h.q, h.k, h.v, terms, pos.lengths, in.visible, inv_sqrt_dh_);
  return unfused_softmax(t, h, in, form, terms, maps);
}

Var MultiHeadAttention::attend(Tape& t, const StickBreakingForm& form, Heads h, const AttentionInputs& in,
                               Var* maps) {
  const Positions& pos = *in.positions;
  // There is no softmax to scale: the model's settings refuse SSMax with it
  // (EncodingInfo::has_softmax), and the encoding gives no bias.
  ORDO_CHECK(!log_length_scale && !in.bias, "attention '", name(),
             "': stick-breaking weights take no log-length scale and no bias");
  if (in.packed)
    return stickbreaking_attention_packed(t, h.q, h.k, h.v, pos.lengths, pos.length, in.visible, form.rule,
                                          inv_sqrt_dh_);
  if (in.fused && !maps)
    return stickbreaking_attention(t, h.q, h.k, h.v, pos.lengths, in.visible, form.rule, inv_sqrt_dh_);
  return unfused_stickbreaking(t, h, in, form.rule, maps);
}

Var MultiHeadAttention::attend(Tape& t, const PathForm& form, Heads h, const AttentionInputs& in, Var* maps) {
  const Positions& pos = *in.positions;
  ORDO_CHECK(!in.bias, "attention '", name(), "': PaTH's products take no bias");
  // SSMax on PaTH's softmax: its logit q_t^T P k_u / sqrt(d_h) has no additive term, so
  // scaling the query row by s_h log n_t scales the whole logit (Scalable-Softmax, SSMax).
  if (log_length_scale) {  // q (rows..., H, d_h) times log n (rows..., 1, 1) times s (H, 1)
    std::vector<int64_t> dims = t.shape(h.q).dims();
    dims[dims.size() - 2] = dims.back() = 1;
    Var s = reshape(t, t.param(*log_length_scale), Shape{n_heads_, 1});
    Var logn = t.input(log_key_counts(in).reshaped(Shape(dims)));
    h.q = mul(t, h.q, mul(t, logn, s));
  }
  if (in.packed)
    return path_attention_packed(t, h.q, h.k, h.v, form.w, form.beta, pos.lengths, pos.length, in.visible,
                                 inv_sqrt_dh_);
  // One kernel, fused or not; the maps without gradient.
  if (maps)
    *maps = t.input(path_attention_weights(t.value(h.q), t.value(h.k), t.value(form.w), t.value(form.beta),
                                           pos.lengths, in.visible, inv_sqrt_dh_));
  return path_attention(t, h.q, h.k, h.v, form.w, form.beta, pos.lengths, in.visible, inv_sqrt_dh_);
}

namespace {
const std::vector<int> kHeadsOuter{0, 2, 1, 3};  // (B, L, H, d_h) <-> (B, H, L, d_h)
}  // namespace

MultiHeadAttention::Logits MultiHeadAttention::heads_outer(Tape& t, const Heads& h) {
  Logits out;
  out.q = permute(t, h.q, kHeadsOuter);
  out.k = permute(t, h.k, kHeadsOuter);
  out.v = permute(t, h.v, kHeadsOuter);
  out.scores = scale(t, matmul(t, out.q, out.k, false, true), inv_sqrt_dh_);  // (B, H, L, L)
  return out;
}

Var MultiHeadAttention::unfused_softmax(Tape& t, Heads h, const AttentionInputs& in, const SoftmaxForm& form,
                                        const LogitTerms& terms, Var* maps) {
  const int64_t L = t.shape(h.q)[1];
  ORDO_CHECK(terms.more.empty(), "attention '", name(), "': the unfused composition has no logit term '",
             terms.more.empty() ? "" : terms.more.begin()->first, "' (only the fused kernel's list has it)");
  auto [q, k, v, scores] = heads_outer(t, h);  // scores gets the terms below
  if (form.contextual) scores = add(t, scores, form.contextual(t, q, k, scores));
  if (terms.relative_keys) {  // queries_t . keys[row(t, u)], over sqrt(d_h) as q . k
    const RelativeKeys& r = *terms.relative_keys;
    Var qr = permute(t, r.queries, kHeadsOuter);
    scores = add(t, scores, scale(t, relative_logits(t, qr, r.keys, relative_key_rows(r, L)), inv_sqrt_dh_));
  }
  if (in.bias) {  // (H, L, L), broadcast over the batch
    Var full = in.bias->relative ? expand_relative(t, in.bias->values, L, L) : in.bias->values;
    scores = add(t, scores, full);
  }
  if (terms.forget) {  // F_t - F_u: F (B, L, H) as (B, H, L, 1) minus (B, H, 1, L)
    const int64_t B = in.positions->batch;
    Var F = permute(t, *terms.forget, {0, 2, 1});  // (B, H, L)
    scores = add(t, scores, sub(t, reshape(t, F, Shape{B, n_heads_, L, 1}), reshape(t, F, Shape{B, n_heads_, 1, L})));
  }
  if (terms.log_length_scale) {  // SSMax: row t of head h times s_h log n_t, n_t the keys it sees
    Var logn = t.input(log_key_counts(in).reshaped(Shape{in.positions->batch, 1, L, 1}));
    Var s = reshape(t, *terms.log_length_scale, Shape{n_heads_, 1, 1});
    scores = mul(t, scores, mul(t, logn, s));  // (B, H, L, L) * (B, H, L, 1)
  }
  Var probs = softmax(t, scores, in.mask);  // (B, H, L, L)
  if (maps) *maps = probs;
  return permute(t, matmul(t, probs, v), kHeadsOuter);  // (B, H, L, d_h) -> (B, L, H, d_h)
}

Var MultiHeadAttention::unfused_stickbreaking(Tape& t, Heads h, const AttentionInputs& in, StickBreakingRule rule,
                                              Var* maps) {
  const Positions& pos = *in.positions;
  const int64_t L = t.shape(h.q)[1];
  const auto [q, k, v, scores] = heads_outer(t, h);
  // log A[t, j] = log sigmoid(z) + sum_{l > j, l visible} log sigmoid(-z[t, l]), by a product
  // with the constant U[l, j] = [l > j]; then A at the visible keys, 0 elsewhere.
  Tensor visible = Tensor::zeros(Shape{pos.batch, 1, L, L}), later = Tensor::zeros(Shape{L, L});
  for (int64_t b = 0; b < pos.batch; ++b)
    for (int64_t row = 0; row < L; ++row)
      for (int64_t u = 0; u < L; ++u)
        if (in.visible.visible(row, u, pos.lengths[b]) && (rule.attend_current || u < row))
          visible[(b * L + row) * L + u] = 1;
  for (int64_t l = 0; l < L; ++l)
    for (int64_t j = 0; j < l; ++j) later[l * L + j] = 1;
  Var vis = t.input(visible);
  Var log_left = mul(t, log_sigmoid(t, scale(t, scores, -1)), vis);  // log(1 - sigmoid(z)) at the visible keys
  Var rest = matmul(t, log_left, t.input(later));
  Var weights = mul(t, exp(t, add(t, log_sigmoid(t, scores), rest)), vis);  // (B, H, L, L)
  if (rule.remainder) {  // rem_t = prod_l (1 - sigmoid(z[t, l])) on the diagonal: out_t += rem_t v_t
    Tensor eye = Tensor::zeros(Shape{L, L});
    for (int64_t l = 0; l < L; ++l) eye[l * L + l] = 1;
    Var rem = exp(t, reshape(t, sum_last(t, log_left), Shape{pos.batch, n_heads_, L, 1}));
    weights = add(t, weights, mul(t, rem, t.input(std::move(eye))));
  }
  if (maps) *maps = weights;
  return permute(t, matmul(t, weights, v), kHeadsOuter);  // (B, H, L, d_h) -> (B, L, H, d_h)
}

void MultiHeadAttention::collect_parameters(std::vector<Parameter*>& out) {
  w_q.collect_parameters(out);
  w_k.collect_parameters(out);
  w_v.collect_parameters(out);
  w_o.collect_parameters(out);
  if (log_length_scale) out.push_back(log_length_scale.get());
}

}  // namespace ordo
