// layers/model.h: the encoder model of docs/spec.md §1.
//
//   token ids -> embedding E (V, d) -> (+ absolute encoding) -> n_layers encoder blocks
//   -> final LayerNorm -> head
// Heads: token (a class at every position), pooled (masked mean over real positions),
// cls (a learned token at position 0 whose final state is classified).
#pragma once

#include <memory>
#include <string>

#include "layers/block.h"
#include "layers/embedding.h"
#include "layers/layer_encodings.h"
#include "layers/posenc/encoding.h"

namespace ordo {

enum class HeadType { Token, Pooled, Cls };
const char* head_name(HeadType h);
HeadType parse_head(const std::string& name);  // "token", "pooled", "cls"
// Tokens the head adds before a sequence's own: 1 for the cls token, else 0.
inline int64_t head_tokens(HeadType h) { return h == HeadType::Cls ? 1 : 0; }

struct ModelConfig {
  int64_t vocab_size = 0;   // token ids in [0, vocab_size), 0 = PAD
  int64_t num_classes = 0;
  int64_t d_model = 64, n_heads = 4, n_layers = 2, d_ff = 256;
  HeadType head = HeadType::Pooled;
  bool causal = false;
  bool post_ln = false;
  double dropout = 0;
  // docs/spec.md §1.4: every weight N(0, 0.02^2). true: W_o and fc2 ~ N(0, (0.02 / sqrt(2 n_layers))^2)
  // instead (GPT-2's scaling, an option). Off by default: it lowers the share of seeds with
  // which order / t5 leaves its chance plateau within 2000 steps from 33 of 46 to 19 of 46
  // (docs/results.md, "order / t5").
  bool scale_output_init = false;
  // true: the token embeddings times sqrt(d_model) before any position term is added (Vaswani
  // et al. 2017 §3.4; the Chomsky-hierarchy code of Deletang et al. and Ruoss et al.);
  // docs/spec.md §1. The cls vector is not scaled.
  bool scale_embed = false;
  // true: the token head's logits are the final states times the token embedding table,
  // h E^T, with no head.proj and no bias (GPT-2's tied lm_head; Press & Wolf 2017); needs the
  // token head and classes that are token ids (num_classes == vocab_size, the next-token
  // tasks of data/next_token.h). docs/spec.md §1.3.
  bool tie_embeddings = false;
  bool fused_attention = true;    // false: the unfused reference composition
  bool pack_sequences = true;     // with padding and fused attention, run the blocks on the real rows only
  // GEMM epilogues: linear_gelu, linear_residual, linear_rotate (core/ops.h). false: linear,
  // gelu, add and the encoding's rotate hook as separate ops, the reference composition.
  bool fused_epilogues = true;
  std::string encoding = default_encoding();  // rope (its EncodingInfo::is_default, rope.cpp)
  // One encoding per block (docs/spec.md §2.15): n_layers names, or empty for `encoding` in
  // every block. The blocks naming one encoding share one instance of it (its parameters
  // and its bias), as every block shares `encoding`; an encoding's embedding term (hook a) is
  // added once, to the token embeddings, when any block names it.
  LayerEncodings layer_encodings;
  // Each query sees the keys within `window` positions, |t - u| < window (a sliding
  // window, core/ops.h AttentionMask); 0 = every key.
  int64_t window = 0;
  // Scalable-Softmax (Nakanishi 2025; docs/spec.md §2.16): each block's logits of query t
  // times s_h log n_t, s learned per block and head; false: none.
  bool log_length_scale = false;
  EncodingConfig posenc;          // d_model, n_heads, causal and seed are filled in from here
  uint64_t seed = 0;
};

// Checks the model's settings, each message naming its --flag and the accepted values: the one
// place they are checked (validate(TrainConfig) calls it before anything is built). Throws
// ordo::Error.
void validate_settings(const ModelConfig& cfg);
// validate_settings, and the sizes the task gives (vocab_size, num_classes).
void validate(const ModelConfig& cfg);

// The encoding of each block: cfg.layer_encodings, or cfg.encoding n_layers times.
std::vector<std::string> block_encodings(const ModelConfig& cfg);
// The name a run's model is shown by: the encoding, or the blocks' encodings joined by '+'
// ("rope+none") when they are given per block.
std::string encoding_label(const ModelConfig& cfg);

struct ForwardOptions {
  bool training = false;       // enables dropout
  uint64_t dropout_seed = 0;
  uint64_t step = 0;
  bool keep_attention = false; // fill ForwardResult::attention
  // Randomized positions (docs/spec.md §2.13): the position of each of the L' tokens (L' =
  // L + 1 with the cls head), shared by the batch, strictly increasing; empty = 0..L'-1.
  std::vector<int32_t> positions;
  // A random offset per sequence (B values, >= 0; --random-offset, docs/spec.md §2.13): token t
  // of sequence b sits at offsets[b] + its position. Empty = none.
  std::vector<int32_t> offsets;
};

struct ForwardResult {
  Var logits;                    // token head: (B, L, C); pooled / cls: (B, C)
  Var hidden;                    // final LayerNorm output (B, L', d) (L' = L + 1 with cls)
  std::vector<Var> attention;    // per layer (B, H, L', L'), when keep_attention
};

class EncoderModel : public Module {
 public:
  explicit EncoderModel(const ModelConfig& cfg);
  // tokens (B, L) left-aligned, lengths (B) real lengths.
  ForwardResult forward(Tape& t, const TensorI32& tokens, const std::vector<int32_t>& lengths,
                        const ForwardOptions& opt = {});
  void collect_parameters(std::vector<Parameter*>& out) override;

  const ModelConfig& config() const { return cfg_; }
  // The encoding of block `layer` (one instance per distinct name).
  PositionalEncoding& encoding(int64_t layer = 0) { return *block_encoding_.at(static_cast<size_t>(layer)); }

 private:
  ModelConfig cfg_;
  Embedding tokens_;
  std::vector<std::unique_ptr<PositionalEncoding>> encodings_;  // distinct, in order of first use
  std::vector<PositionalEncoding*> block_encoding_;              // per block, into encodings_
  std::vector<std::unique_ptr<EncoderBlock>> blocks_;
  LayerNorm ln_f_;
  Parameter cls_;  // (d) the cls token, used with HeadType::Cls
  Linear head_;
};

}  // namespace ordo
