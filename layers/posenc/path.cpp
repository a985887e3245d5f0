// layers/posenc/path.cpp: PaTH, position encoding by accumulated Householder transformations
// (Yang, Shen, Wen, Tan, Mishra, Ren, Panda and Kim 2025, arXiv 2505.16381; docs/spec.md §2.20).
//
// Each token l of a layer defines a reflection-like map from its input x_l (the normed block
// input q, k and v read):
//   H_l = I - beta_l w_l w_l^T,   beta_l = 2 sigmoid(u . x_l + b) in (0, 2),   |w_l| ~ 1 per head
// and the logit of query i and key j <= i becomes
//   q_i^T H_i H_{i-1} ... H_{j+1} k_j / sqrt(d_h)
// (the product is empty at j = i): what lies between key and query projects and reflects the
// key, so order and content together decide the score. No other position term.
//
// w_l as the authors' code builds it (flash-linear-attention's PaTHAttention): a low-rank
// projection d -> 32 -> d without biases, a causal depthwise convolution of width 3 over the
// positions without bias, SiLU, then each head's d_h components divided by
// sqrt(sum w^2 + 1e-6). beta from a Linear with bias. Every weight N(0, 0.02^2), biases 0, so
// beta close to 1 at the start. One set per layer. The convolution, SiLU and norm are one op
// (core/ops.h path_reflections). The attention hands q, k, v and the factors to core/ops.h
// path_attention (its form, encoding.h PathForm): O(L) memory, no (L, L) tensor. Causal only.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/ops.h"
#include "core/rng.h"
#include "layers/linear.h"
#include "layers/posenc/encoding.h"

namespace ordo {
namespace {

constexpr int64_t kRank = 32, kConvWidth = 3;
constexpr Real kNormEps = 1e-6;

// What one layer learns.
struct LayerFactors {
  LayerFactors(const std::string& name, int64_t d, int64_t heads, uint64_t seed)
      : down(name + ".w_down", d, kRank, seed, 0.02, false),
        up(name + ".w_up", kRank, d, seed, 0.02, false),
        conv(name + ".conv", Tensor::empty(Shape{kConvWidth, d})),
        beta(name + ".beta", d, heads, seed) {
    CounterRng rng(seed, hash64(conv.name));
    for (int64_t i = 0; i < conv.value.numel(); ++i) conv.value[i] = static_cast<Real>(0.02 * rng.normal());
  }
  Linear down, up;
  Parameter conv;  // (3, d): row s weighs the input s positions back
  Linear beta;
};

int64_t checked_heads(const EncodingConfig& cfg) {
  ORDO_CHECK(cfg.n_heads > 0 && cfg.d_model % cfg.n_heads == 0, "path: d_model = ", cfg.d_model,
             " is not divisible by n_heads = ", cfg.n_heads);
  return cfg.n_heads;
}

class PathEncoding final : public PositionalEncoding {
 public:
  explicit PathEncoding(const EncodingConfig& cfg)
      : heads_(checked_heads(cfg)), layers_(cfg, "path", [&](int64_t l) {
          return std::make_unique<LayerFactors>("posenc.path." + std::to_string(l), cfg.d_model, cfg.n_heads, cfg.seed);
        }) {}
  std::string name() const override { return "path"; }

  AttentionForm form(Tape& t, const LayerInput& in) override {
    const Positions& pos = *in.positions;
    const Var x = in.x;
    LayerFactors& f = layers_.at(in.layer);
    const bool packed = t.shape(x).rank() == 2;  // (T, d): the convolution runs on the padded layout
    Var xs = packed ? unpack_rows(t, x, pos.lengths, pos.length) : x;  // (B, L, d)
    Var u = f.up.forward(t, f.down.forward(t, xs));
    Var w = path_reflections(t, u, t.param(f.conv), heads_, kNormEps);  // conv, SiLU, per-head norm
    Var beta = scale(t, sigmoid(t, f.beta.forward(t, xs)), 2);  // (B, L, H)
    if (packed) return PathForm{pack_rows(t, w, pos.lengths), pack_rows(t, beta, pos.lengths)};
    return PathForm{w, beta};
  }

  std::vector<Parameter*> parameters() override {
    std::vector<Parameter*> out;
    layers_.each([&](LayerFactors& f) {
      f.down.collect_parameters(out);
      f.up.collect_parameters(out);
      out.push_back(&f.conv);
      f.beta.collect_parameters(out);
    });
    return out;
  }

 private:
  int64_t heads_;
  PerLayer<LayerFactors> layers_;  // the factors' weights of each block that uses path
};

}  // namespace

EncodingInfo encoding_info_path() {
  return {
      .name = "path",
      .summary = "Householder products: logit q_i^T H_i ... H_{j+1} k_j, H_l = I - beta_l w_l w_l^T from the content, "
                 "per layer (causal only)",
      .options = {},
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<PathEncoding>(c);
      },
      .in_default_study = false,
      .takes_random_positions = false,  // it reads no token positions: order comes from the products
      .random_offset = RandomOffset::invariant,  // it reads no token positions
      .causal_only = true,
      .changes = {{3, "under --layer-encodings its factors now exist only in the blocks that use path; an older "
                      "checkpoint of such a model has them in every block",
                   [](const std::map<std::string, std::string>& settings) {
                     auto layers = settings.find("layer-encodings");
                     return layers != settings.end() && !layers->second.empty();
                   }}},
  };
}

}  // namespace ordo
