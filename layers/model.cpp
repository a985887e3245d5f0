#include "layers/model.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/ops.h"
#include "layers/init.h"
#include "layers/masks.h"

namespace ordo {

const char* head_name(HeadType h) {
  switch (h) {
    case HeadType::Token: return "token";
    case HeadType::Pooled: return "pooled";
    case HeadType::Cls: return "cls";
  }
  return "?";
}

HeadType parse_head(const std::string& name) {
  if (name == "token") return HeadType::Token;
  if (name == "pooled") return HeadType::Pooled;
  if (name == "cls") return HeadType::Cls;
  fail("unknown head '", name, "'; known: token, pooled, cls");
}

namespace {

// "1, 2, 3, 5, 6, 10, 15, 30": the head counts that divide d.
std::string divisors(int64_t d) {
  std::string s;
  for (int64_t h = 1; h <= d; ++h)
    if (d % h == 0) s += (s.empty() ? "" : ", ") + std::to_string(h);
  return s;
}

}  // namespace

void validate_settings(const ModelConfig& m) {
  ORDO_CHECK(m.d_model > 0, "--d-model must be positive, got ", m.d_model);
  ORDO_CHECK(m.n_heads > 0, "--heads must be positive, got ", m.n_heads);
  ORDO_CHECK(m.d_model % m.n_heads == 0, "--d-model ", m.d_model, " is not divisible by --heads ", m.n_heads,
             "; with --d-model ", m.d_model, " accepted --heads: ", divisors(m.d_model));
  ORDO_CHECK(m.n_layers > 0, "--layers must be positive, got ", m.n_layers);
  ORDO_CHECK(m.d_ff > 0, "--d-ff must be positive, got ", m.d_ff);
  ORDO_CHECK(m.dropout >= 0 && m.dropout < 1, "--dropout must be in [0, 1), got ", m.dropout);
  ORDO_CHECK(m.window >= 0, "--window must be >= 0 (0 = every key), got ", m.window);
  ORDO_CHECK(m.layer_encodings.empty() || static_cast<int64_t>(m.layer_encodings.size()) == m.n_layers,
             "--layer-encodings names ", m.layer_encodings.size(), " encodings for --layers ", m.n_layers,
             "; give one per layer (or none, for --encoding in every layer)");
  encoding_info(m.encoding);  // an unknown name lists the known ones
  std::set<std::string> checked;
  for (const std::string& name : block_encodings(m)) {
    if (!checked.insert(name).second) continue;
    const EncodingInfo& encoding = encoding_info(name);  // an unknown name lists the known ones
    if (encoding.check) encoding.check(m.posenc.options);
    ORDO_CHECK(!encoding.causal_only || m.causal, "encoding ", name,
               " is defined for causal attention only: add --causal (ordo compare runs it causal by itself)");
    ORDO_CHECK(!m.log_length_scale || encoding.has_softmax, "--score-scale log-length scales the softmax's logits; ",
               name, " has no softmax (its weights replace it): drop the flag or choose another encoding");
  }
}

void validate(const ModelConfig& c) {
  ORDO_CHECK(c.vocab_size >= 2, "model: vocab_size must be >= 2 (PAD plus tokens), got ", c.vocab_size);
  ORDO_CHECK(c.num_classes >= 2, "model: num_classes must be >= 2, got ", c.num_classes);
  ORDO_CHECK(!c.tie_embeddings || (c.head == HeadType::Token && c.num_classes == c.vocab_size),
             "--tie-embeddings reads the logits off the token embeddings, so the classes must be the token ids "
             "with the token head (the next-token tasks, `ordo compare --tasks huang`); this run has the ", head_name(c.head), " head, ", c.num_classes,
             " classes and ", c.vocab_size, " token ids");
  validate_settings(c);
}

std::vector<std::string> block_encodings(const ModelConfig& c) {
  if (!c.layer_encodings.empty()) return c.layer_encodings.names();
  return std::vector<std::string>(static_cast<size_t>(std::max<int64_t>(c.n_layers, 0)), c.encoding);
}

std::string encoding_label(const ModelConfig& c) {
  return c.layer_encodings.empty() ? c.encoding : c.layer_encodings.str();
}

namespace {
EncodingConfig posenc_config(const ModelConfig& c) {
  EncodingConfig e = c.posenc;
  e.d_model = c.d_model;
  e.n_heads = c.n_heads;
  e.n_layers = c.n_layers;
  e.causal = c.causal;
  e.seed = c.seed;
  return e;
}
double out_std(const ModelConfig& c) {
  return c.scale_output_init ? 0.02 / std::sqrt(2.0 * static_cast<double>(c.n_layers)) : 0.02;
}
}  // namespace

EncoderModel::EncoderModel(const ModelConfig& cfg)
    : Module(""),
      cfg_((validate(cfg), cfg)),
      tokens_("embed", cfg.vocab_size, cfg.d_model, cfg.seed),
      ln_f_("ln_f", cfg.d_model),
      cls_("head.cls", normal_init(Shape{cfg.d_model}, 0.02, cfg.seed, "head.cls")),
      head_("head.proj", cfg.d_model, cfg.num_classes, cfg.seed) {
  std::vector<std::string> made;  // the names of encodings_
  const std::vector<std::string> per_block = block_encodings(cfg);
  for (const std::string& name : per_block) {
    auto at = std::find(made.begin(), made.end(), name);
    if (at == made.end()) {
      EncodingConfig e = posenc_config(cfg);
      for (int64_t l = 0; l < cfg.n_layers; ++l)  // a per-layer encoding's parameters where it is used
        if (per_block[static_cast<size_t>(l)] == name) e.layers.push_back(l);
      encodings_.push_back(make_encoding(name, e));
      made.push_back(name);
      at = made.end() - 1;
    }
    block_encoding_.push_back(encodings_[static_cast<size_t>(at - made.begin())].get());
  }
  std::set<std::string> names;  // two encodings' tables may not share a checkpoint name
  for (size_t e = 0; e < encodings_.size(); ++e)
    for (Parameter* p : encodings_[e]->parameters())
      ORDO_CHECK(names.insert(p->name).second, "model: encodings ", encoding_label(cfg), " both have a parameter '",
                 p->name, "'; ", made[e], " cannot be given to some layers beside the other");
  for (int64_t i = 0; i < cfg.n_layers; ++i)
    blocks_.push_back(std::make_unique<EncoderBlock>("blocks." + std::to_string(i), cfg.d_model,
                                                     cfg.n_heads, cfg.d_ff, cfg.post_ln, cfg.seed,
                                                     out_std(cfg), cfg.log_length_scale));
}

ForwardResult EncoderModel::forward(Tape& t, const TensorI32& tokens, const std::vector<int32_t>& lengths,
                                    const ForwardOptions& opt) {
  ORDO_CHECK(tokens.rank() == 2, "model: tokens must be (B, L), got ", tokens.shape());
  const int64_t B = tokens.dim(0), L = tokens.dim(1);
  ORDO_CHECK(static_cast<int64_t>(lengths.size()) == B, "model: ", lengths.size(),
             " lengths for a batch of ", B);
  const bool cls = cfg_.head == HeadType::Cls;

  Var x = tokens_.forward(t, tokens);  // (B, L, d)
  if (cfg_.scale_embed) x = scale(t, x, static_cast<Real>(std::sqrt(static_cast<double>(cfg_.d_model))));
  std::vector<int32_t> lens = lengths;
  int64_t Lx = L;
  if (cls) {  // prepend the cls token: (B, 1 + L, d), every sequence one longer
    Var cls_b = add(t, t.input(Tensor::zeros(Shape{B, 1, cfg_.d_model})), t.param(cls_));
    x = concat(t, {cls_b, x}, 1);
    for (auto& l : lens) ++l;
    Lx = L + 1;
  }
  Positions pos = make_positions(Lx, lens);
  if (!opt.positions.empty()) {
    ORDO_CHECK(static_cast<int64_t>(opt.positions.size()) == Lx, "model: ", opt.positions.size(),
               " randomized positions for ", Lx, " tokens");
    for (size_t i = 0; i < opt.positions.size(); ++i)
      ORDO_CHECK(opt.positions[i] >= 0 && (i == 0 || opt.positions[i] > opt.positions[i - 1]),
                 "model: randomized positions must be non-negative and strictly increasing");
    pos.index = opt.positions;
  }
  if (!opt.offsets.empty()) {
    ORDO_CHECK(static_cast<int64_t>(opt.offsets.size()) == B, "model: ", opt.offsets.size(), " offsets for a batch of ", B);
    ORDO_CHECK(std::all_of(opt.offsets.begin(), opt.offsets.end(), [](int32_t o) { return o >= 0; }),
               "model: position offsets must be non-negative");
    pos.offsets = opt.offsets;
  }
  std::optional<Var> omask;  // none when no position is padding
  if (std::any_of(lens.begin(), lens.end(), [Lx](int32_t len) { return len < Lx; }))
    omask = t.input(output_mask(pos));
  // Each distinct encoding once: its embedding term, then its bias (shared by its blocks).
  for (auto& e : encodings_) x = e->embed(t, x, pos);
  std::vector<std::optional<AttentionBias>> biases;
  bool needs_logits = false;
  for (auto& e : encodings_) {
    biases.push_back(e->bias(t, pos));
    // A contextual term needs the logits formed, unless it has its own kernel
    // (SoftmaxForm::contextual_table), which takes no SSMax.
    const EncodingInfo& info = encoding_info(e->name());
    needs_logits = needs_logits || (info.needs_logits && (!info.contextual_kernel || cfg_.log_length_scale));
  }
  auto bias_of = [&](const PositionalEncoding* e) {
    for (size_t i = 0; i < encodings_.size(); ++i)
      if (encodings_[i].get() == e) return biases[i];
    fail("model: block encoding not among the model's encodings");
  };

  AttentionInputs in;
  in.positions = &pos;
  in.visible = AttentionMask(cfg_.causal, cfg_.window);
  in.fused = cfg_.fused_attention && !needs_logits;  // a contextual term may need the logits
  in.fused_rotation = cfg_.fused_epilogues;
  // Packed rows: with padding, the blocks run on the real rows only (T = sum of the lengths,
  // not B L): padded rows never influence real ones (their keys are masked, their outputs
  // zeroed), so dropping them changes no real value, and every row-wise product, norm and
  // activation skips them. The blocks' output is unpacked, with zeros at the padding, as
  // the output mask leaves it. Attention maps need the padded (unfused) path.
  in.packed = omask && in.fused && cfg_.pack_sequences && !opt.keep_attention;
  if (in.packed) {
    x = pack_rows(t, x, lens);
    omask.reset();
  } else if (omask) {
    x = mul(t, x, *omask);
  }
  if (!in.fused || opt.keep_attention) in.mask = attention_mask(pos, in.visible);
  BlockContext ctx{omask, cfg_.dropout, opt.training, opt.dropout_seed, opt.step, cfg_.fused_epilogues};

  ForwardResult r;
  for (auto& block : blocks_) {
    in.encoding = block_encoding_[static_cast<size_t>(in.layer)];
    in.bias = bias_of(in.encoding);
    Var maps;
    x = block->forward(t, x, in, ctx, opt.keep_attention ? &maps : nullptr);
    ++in.layer;
    if (opt.keep_attention) r.attention.push_back(maps);
  }
  if (in.packed) x = unpack_rows(t, x, lens, Lx);
  r.hidden = ln_f_.forward(t, x);

  switch (cfg_.head) {
    case HeadType::Token:
      r.logits = cfg_.tie_embeddings ? matmul(t, r.hidden, t.param(tokens_.table), false, true)  // (B, L, V)
                                     : head_.forward(t, r.hidden);                               // (B, L, C)
      break;
    case HeadType::Pooled: {
      Var pooled = matmul(t, t.input(pooling_weights(pos)), r.hidden);  // (B, 1, d)
      r.logits = head_.forward(t, reshape(t, pooled, Shape{B, cfg_.d_model}));
      break;
    }
    case HeadType::Cls: {
      Var first = slice(t, r.hidden, 1, 0, 1);  // (B, 1, d)
      r.logits = head_.forward(t, reshape(t, first, Shape{B, cfg_.d_model}));
      break;
    }
  }
  return r;
}

void EncoderModel::collect_parameters(std::vector<Parameter*>& out) {
  tokens_.collect_parameters(out);
  for (auto& e : encodings_)
    for (Parameter* p : e->parameters()) out.push_back(p);
  for (auto& b : blocks_) b->collect_parameters(out);
  ln_f_.collect_parameters(out);
  if (cfg_.head == HeadType::Cls) out.push_back(&cls_);
  if (!cfg_.tie_embeddings) head_.collect_parameters(out);
}

}  // namespace ordo
