// layers/attention.h: multi-head self-attention with the positional hooks.
//
//   q, k, v = x W_q + b_q, x W_k + b_k, x W_v + b_v       (B, L, d) -> (B, L, H, d_h)
//   q, k    = encoding.rotate(q, k)                        (hook b; may widen them: PoPE, 2 d_h)
//   form    = encoding.form(x, q)                          (hook d: one of a closed set)
//   heads   = the form's kernel on q, k, v:
//     SoftmaxForm:   softmax(q k^T / sqrt(d_h) + bias      (hook c)
//                      + contextual(q, k, q k^T / sqrt(d_h))   (CoPE: its own kernel, cope_attention)
//                      + F_t - F_u, F the running sums of the log forget gates  (FoX)
//                      + q'_t . r[t - u] / sqrt(d_h)       (relative keys: Transformer-XL,
//                                                           q' the queries that take q's place)
//                      ) * s_h log n_t                     (SSMax, with log_length_scale)
//                      + mask) v                           (padding, causal, window)
//     StickBreakingForm: stick-breaking weights of q k^T / sqrt(d_h), masked, times v
//     PathForm:      softmax(q_t^T H_t ... H_{u+1} k_u / sqrt(d_h) * s_h log n_t + mask) v
//   out     = concat_h(heads) W_o + b_o
// Each form has one row (attend) that names its packed, padded and unfused entry points. The
// layer never names an encoding: it runs whatever form it is given.
#pragma once

#include <memory>
#include <optional>

#include "core/ops.h"
#include "layers/linear.h"
#include "layers/posenc/encoding.h"

namespace ordo {

// What every attention layer of one forward pass shares.
struct AttentionInputs {
  const Positions* positions = nullptr;
  PositionalEncoding* encoding = nullptr;
  std::optional<AttentionBias> bias;  // from encoding->bias(), computed once
  Tensor mask;                        // additive, (B, 1, 1 or L, L): see layers/masks.h (unfused)
  AttentionMask visible;              // the keys each query sees: causal, window (core/ops.h)
  // The fused op (core/ops.h fused_attention) stores no (B, H, L, L) tensor; the unfused
  // composition is kept for analysis (it can return the maps) and as the test reference.
  bool fused = true;
  // x is packed (core/ops.h pack_rows): (T, d), the real rows of positions->lengths, no
  // padding. Needs the fused op and no maps; the model packs when it can (layers/model.cpp).
  bool packed = false;
  // A pair rotation (rope) inside the q and k projections (linear_rotate); false: the
  // encoding's rotate hook after plain projections.
  bool fused_rotation = true;
  int64_t layer = 0;  // the block's index, for an encoding's per-layer parameters
};

class MultiHeadAttention : public Module {
 public:
  // out_std: init std of W_o (docs/spec.md §1: may be scaled by 1/sqrt(2 n_layers)).
  // log_length_scale: Scalable-Softmax (docs/spec.md §2.16), a learned s (H), init 1, that
  // multiplies query t's logits by s_h log n_t.
  MultiHeadAttention(std::string name, int64_t d_model, int64_t n_heads, uint64_t seed,
                     double out_std, bool log_length_scale = false);
  // x (B, L, d) -> (B, L, d), or packed (T, d) -> (T, d). When `maps` is given it receives
  // the attention probabilities (B, H, L, L) of this call (this takes the unfused path).
  Var forward(Tape& t, Var x, const AttentionInputs& in, Var* maps = nullptr);
  // residual + forward(x), the addition fused into the output projection (a residual
  // connection).
  Var forward_residual(Tape& t, Var x, Var residual, const AttentionInputs& in, Var* maps = nullptr);
  void collect_parameters(std::vector<Parameter*>& out) override;

  int64_t heads() const { return n_heads_; }
  Linear w_q, w_k, w_v, w_o;
  std::unique_ptr<Parameter> log_length_scale;  // SSMax's s (H), "<name>.ssmax_s"; null when off

 private:
  Var split_heads(Tape& t, Var x, const Shape& rows);  // (rows..., d) -> (rows..., H, d_h)
  // The heads of x (B, L, d) or packed (T, d) merged back to x's shape: forward before the
  // output projection.
  Var merged_heads(Tape& t, Var x, const AttentionInputs& in, Var* maps);
  // One call's heads, (rows..., H, d_h) (q and k may be wider: PoPE).
  struct Heads {
    Var q, k, v;
  };
  // Each form's row: packed rows, the padded batch by the fused kernel, or the unfused
  // composition (maps, analysis, the test reference). Returns (rows..., H, d_h).
  Var attend(Tape& t, const SoftmaxForm& form, Heads h, const AttentionInputs& in, Var* maps);
  Var attend(Tape& t, const StickBreakingForm& form, Heads h, const AttentionInputs& in, Var* maps);
  Var attend(Tape& t, const PathForm& form, Heads h, const AttentionInputs& in, Var* maps);
  // The unfused forms' start: q, k, v as (B, H, L, d_h) and the logits q k^T / sqrt(d_h)
  // (B, H, L, L).
  struct Logits {
    Var q, k, v, scores;
  };
  Logits heads_outer(Tape& t, const Heads& h);
  // The unfused forms by separate ops on (B, H, L, d_h) permutes of q, k, v: the logits
  // q k^T / sqrt(d_h) with the terms, then softmax(logits + mask), or the stick-breaking
  // weights; return (B, L, H, d_h) and fill *maps when given.
  Var unfused_softmax(Tape& t, Heads h, const AttentionInputs& in, const SoftmaxForm& form, const LogitTerms& terms,
                      Var* maps);
  Var unfused_stickbreaking(Tape& t, Heads h, const AttentionInputs& in, StickBreakingRule rule, Var* maps);
  int64_t d_model_, n_heads_;
  Real inv_sqrt_dh_;
};

}  // namespace ordo
