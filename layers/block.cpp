#include "layers/block.h"

#include "core/ops.h"
#include "core/rng.h"

namespace ordo {

EncoderBlock::EncoderBlock(std::string n, int64_t d, int64_t h, int64_t d_ff, bool post, uint64_t seed,
                           double out_std, bool log_length_scale)
    : Module(std::move(n)),
      ln1(child("ln1"), d),
      ln2(child("ln2"), d),
      attn(child("attn"), d, h, seed, out_std, log_length_scale),
      ffn(child("ffn"), d, d_ff, seed, out_std),
      post_ln(post) {}

Var EncoderBlock::drop(Tape& t, Var x, const BlockContext& ctx, const char* site) {
  if (!ctx.training || ctx.dropout <= 0) return x;
  const uint64_t stream = hash64(child(site)) ^ mix64(ctx.step + 1);
  return dropout(t, x, static_cast<Real>(ctx.dropout), ctx.dropout_seed, stream);
}

Var EncoderBlock::zero_padding(Tape& t, Var x, const BlockContext& ctx) {
  return ctx.output_mask ? mul(t, x, *ctx.output_mask) : x;
}

Var EncoderBlock::forward(Tape& t, Var x, const AttentionInputs& in, const BlockContext& ctx, Var* maps) {
  // x (B, L, d)
  Var h, y;
  if ((!ctx.training || ctx.dropout <= 0) && ctx.fused_epilogues) {
    // No dropout between a sub-layer and its residual connection: the addition is fused
    // into the sub-layer's last product (the same bits as the add below).
    if (!post_ln) {
      h = zero_padding(t, attn.forward_residual(t, ln1.forward(t, x), x, in, maps), ctx);
      y = ffn.forward_residual(t, ln2.forward(t, h), h);
    } else {
      h = zero_padding(t, ln1.forward(t, attn.forward_residual(t, x, x, in, maps)), ctx);
      y = ln2.forward(t, ffn.forward_residual(t, h, h));
    }
    return zero_padding(t, y, ctx);
  }
  if (!post_ln) {
    h = add(t, x, drop(t, attn.forward(t, ln1.forward(t, x), in, maps), ctx, "attn_drop"));
    h = zero_padding(t, h, ctx);
    y = add(t, h, drop(t, ffn.forward(t, ln2.forward(t, h), ctx.fused_epilogues), ctx, "ffn_drop"));
  } else {
    h = ln1.forward(t, add(t, x, drop(t, attn.forward(t, x, in, maps), ctx, "attn_drop")));
    h = zero_padding(t, h, ctx);
    y = ln2.forward(t, add(t, h, drop(t, ffn.forward(t, h, ctx.fused_epilogues), ctx, "ffn_drop")));
  }
  return zero_padding(t, y, ctx);
}

void EncoderBlock::collect_parameters(std::vector<Parameter*>& out) {
  ln1.collect_parameters(out);
  attn.collect_parameters(out);
  ln2.collect_parameters(out);
  ffn.collect_parameters(out);
}

}  // namespace ordo
