// layers/block.h: one Transformer encoder block.
//
//   pre-LN (default): h = x + Drop(MHA(LN1(x)));  y = h + Drop(FFN(LN2(h)))
//   post-LN         : h = LN1(x + Drop(MHA(x)));  y = LN2(h + Drop(FFN(h)))
// Padded positions are zeroed after each sub-layer (docs/spec.md §4, output mask). x is
// (B, L, d), or the packed real rows (T, d) (layers/model.cpp), which have no padding to zero.
#pragma once

#include <optional>

#include "layers/attention.h"
#include "layers/feedforward.h"
#include "layers/layernorm.h"

namespace ordo {

// Per-call settings shared by every block of one forward pass.
struct BlockContext {
  // (B, L, 1), 1 = real position; none when the batch has no padding (every length is L:
  // the multiplications by 1 would change no bit, and cost 2% of a tiny training step) or
  // the rows are packed.
  std::optional<Var> output_mask;
  double dropout = 0;         // probability; applied only when training
  bool training = false;
  uint64_t dropout_seed = 0;  // with the step, makes every dropout mask reproducible
  uint64_t step = 0;
  bool fused_epilogues = true;  // false: linear, gelu and add as separate ops (ModelConfig)
};

class EncoderBlock : public Module {
 public:
  EncoderBlock(std::string name, int64_t d_model, int64_t n_heads, int64_t d_ff, bool post_ln,
               uint64_t seed, double out_std, bool log_length_scale = false);
  Var forward(Tape& t, Var x, const AttentionInputs& in, const BlockContext& ctx, Var* maps = nullptr);
  void collect_parameters(std::vector<Parameter*>& out) override;

  LayerNorm ln1, ln2;
  MultiHeadAttention attn;
  FeedForward ffn;
  bool post_ln;

 private:
  Var drop(Tape& t, Var x, const BlockContext& ctx, const char* site);
  static Var zero_padding(Tape& t, Var x, const BlockContext& ctx);
};

}  // namespace ordo
