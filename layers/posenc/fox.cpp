// layers/posenc/fox.cpp: the Forgetting Transformer's forget gate (FoX, Lin et al., ICLR 2025,
// arXiv 2503.02130; docs/spec.md §2.17).
//
// Each layer has a gate per head and token, from the layer's input x_t (the normed block
// input that q, k and v read):
//   f_t = sigmoid(w_f . x_t + b_f)      w_f (d, H), b_f (H): one Linear per layer
// and the logit of query i and key j <= i gets
//   D_ij = sum_{l = j+1 .. i} log f_l = F_i - F_j,    F_t = sum_{l <= t} log f_l
// (D_ii = 0; the gate of token 0 is never used). No other position term: FoX replaces the
// encoding. The attention takes the log gates (SoftmaxForm::log_forget_gates), forms the running
// sums F per sequence (core/ops.h running_sum) and the fused kernel adds F_i - F_j tile by
// tile (core/ops.h LogitTerms::forget): O(L) memory, no (L, L) tensor.
//
// As the authors' code: the gate reads the pre-norm block input, has a bias, is initialised
// like every Linear (W ~ N(0, 0.02^2), b = 0, so f = 0.5 at the start), log f is taken in a
// stable form (core/ops.h log_sigmoid) and is not clamped; D is added after the 1/sqrt(d_h)
// scale. Causal only: F_i - F_j rewards later keys for j > i, and the authors define none.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/ops.h"
#include "layers/linear.h"
#include "layers/posenc/encoding.h"

namespace ordo {
namespace {

class FoxEncoding final : public PositionalEncoding {
 public:
  explicit FoxEncoding(const EncodingConfig& cfg)
      : gates_(cfg, "fox", [&](int64_t l) {
          return std::make_unique<Linear>("posenc.fox." + std::to_string(l), cfg.d_model, cfg.n_heads, cfg.seed);
        }) {}
  std::string name() const override { return "fox"; }

  AttentionForm form(Tape& t, const LayerInput& in) override {
    return SoftmaxForm{.log_forget_gates = log_sigmoid(t, gates_.at(in.layer).forward(t, in.x))};  // (rows..., H)
  }

  std::vector<Parameter*> parameters() override {
    std::vector<Parameter*> out;
    gates_.each([&](Linear& g) { g.collect_parameters(out); });
    return out;
  }

 private:
  PerLayer<Linear> gates_;  // w_f, b_f of each block that uses fox
};

}  // namespace

EncodingInfo encoding_info_fox() {
  return {
      .name = "fox",
      .summary = "forget gates: logit of query i, key j plus sum_{l=j+1..i} log sigmoid(w_f . x_l + b_f), per layer "
                 "and head (causal only)",
      .options = {},
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<FoxEncoding>(c);
      },
      .in_default_study = false,
      .takes_random_positions = false,  // it reads no token positions: its decay comes from the content
      .random_offset = RandomOffset::invariant,  // it reads no token positions
      .causal_only = true,
      .changes = {{3, "under --layer-encodings its gates now exist only in the blocks that use fox; an older "
                      "checkpoint of such a model has them in every block",
                   [](const std::map<std::string, std::string>& settings) {
                     auto layers = settings.find("layer-encodings");
                     return layers != settings.end() && !layers->second.empty();
                   }}},
  };
}

}  // namespace ordo
