// layers/posenc/transformer_xl.cpp: the relative positional encoding of Transformer-XL (Dai
// et al. 2019, their eq. in §3.3), docs/spec.md §2.21.
//
// In each layer, the logit of query i and key j is
//   (q_i + u) . k_j + (q_i + v) . W_R R_{i-j},   all over sqrt(d_h)
// with R_s the fixed sinusoid of the distance s (width d = H d_h, its sines then its cosines,
// R_s = [sin(s w_0..w_{d/2-1}), cos(s w_0..)], w_m = 10000^(-2m/d), as in the authors' code),
// W_R (d, H d_h) a learned map from it to each head's relative key, and u, v (d_h per
// head) learned: the "global content bias" and the "global positional bias". Its form is a
// softmax with relative keys (encoding.h SoftmaxForm::relative_keys): q_i + u for the content
// product and the relative keys W_R R_s with their queries q_i + v.
// Distances are those of the positions (Positions::at), i - j = at(i) - at(j), negative
// beyond the query in bidirectional attention (the sines tell the two sides apart).
//
// Parameters per layer, initialised as in the code of Ruoss et al. 2023 and Deletang et
// al. 2023 (Haiku): u, v ~ N(0, 0.02^2); W_R as Haiku's hk.Linear default, a normal of
// std 1 / sqrt(d) truncated at two standard deviations. u and v are biases, kept as vectors
// (H d_h) so that weight decay, which takes rank >= 2 (train/optimizer.h), leaves them alone.
//
// R is built for every distance from -(span) to span, span = at(L-1) - at(0) (randomized
// positions: max_len - 1, so one table serves every batch), and W_R R is one product per
// layer: (2 span + 1, d) x (d, H d_h). The attention's kernels then give each pair the row of
// its distance tile by tile (core/ops.h RelativeKeys): no (L, L, d) table of keys and, on the
// fused path, no (L, L) logits either.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/ops.h"
#include "layers/init.h"
#include "layers/posenc/encoding.h"
#include "layers/posenc/table_cache.h"

namespace ordo {
namespace {

class TransformerXlEncoding final : public PositionalEncoding {
 public:
  explicit TransformerXlEncoding(const EncodingConfig& cfg) : heads_(cfg.n_heads), max_len_(cfg.max_len) {
    ORDO_CHECK(cfg.n_heads > 0 && cfg.d_model % cfg.n_heads == 0, "transformer_xl: d_model = ", cfg.d_model,
               " is not divisible by n_heads = ", cfg.n_heads);
    d_head_ = cfg.d_model / cfg.n_heads;
    width_ = cfg.d_model;
    ORDO_CHECK(width_ % 2 == 0, "transformer_xl: the sinusoid needs an even width, got d_model = ", width_);
    for (int64_t l = 0; l < cfg.n_layers; ++l) {
      const std::string prefix = "posenc.xl." + std::to_string(l) + ".";
      layers_.push_back(Layer{
          std::make_unique<Parameter>(prefix + "w_r", truncated_normal_init(Shape{width_, width_}, 1.0 / std::sqrt(double(width_)),
                                                                            cfg.seed, prefix + "w_r")),
          std::make_unique<Parameter>(prefix + "u", normal_init(Shape{heads_ * d_head_}, 0.02, cfg.seed, prefix + "u")),
          std::make_unique<Parameter>(prefix + "v", normal_init(Shape{heads_ * d_head_}, 0.02, cfg.seed, prefix + "v"))});
    }
  }
  std::string name() const override { return "transformer_xl"; }

  AttentionForm form(Tape& t, const LayerInput& in) override {
    return SoftmaxForm{.relative_keys = relative_keys(t, in.q, *in.positions, in.layer)};
  }

  std::vector<Parameter*> parameters() override {
    std::vector<Parameter*> out;
    for (auto& l : layers_)
      for (Parameter* p : {l.w_r.get(), l.u.get(), l.v.get()}) out.push_back(p);
    return out;
  }

 private:
  RelativeKeyTerm relative_keys(Tape& t, Var q, const Positions& pos, int64_t layer) {
    const Shape sq = t.shape(q);  // a copy: the tape grows below
    ORDO_CHECK((sq.rank() == 4 || sq.rank() == 3) && sq[-2] == heads_ && sq[-1] == d_head_, "transformer_xl: q must be (B, L, ",
               heads_, ", ", d_head_, ") or packed (T, ", heads_, ", ", d_head_, "), got ", sq);
    ORDO_CHECK(sq.rank() == 3 || sq[1] == pos.length, "transformer_xl: positions of length ", pos.length,
               " for q of length ", sq[1]);
    ORDO_CHECK(layer >= 0 && layer < static_cast<int64_t>(layers_.size()), "transformer_xl: layer ", layer,
               " of a model built for ", layers_.size());
    const Layer& p = layers_[static_cast<size_t>(layer)];
    const int64_t L = pos.length;
    // The sinusoid rows -span..span: for randomized positions (docs/spec.md §2.13), whose
    // gaps differ every batch, the rows of every distance below max_len, built once.
    int64_t span = L > 0 ? pos.at(L - 1) - pos.at(0) : 0;
    if (!pos.contiguous()) span = std::max(span, max_len_ - 1);
    const Tensor sinusoid = sinusoids_.get(span, [&] { return sinusoid_rows(span); });
    // (u and v per head, broadcast over q's rows)
    const Shape per_head = sq.rank() == 4 ? Shape{1, 1, heads_, d_head_} : Shape{1, heads_, d_head_};
    RelativeKeyTerm term;
    term.content_queries = add(t, q, reshape(t, t.param(*p.u), per_head));
    term.keys.queries = add(t, q, reshape(t, t.param(*p.v), per_head));
    term.keys.keys = reshape(t, matmul(t, t.input(sinusoid), t.param(*p.w_r)), Shape{2 * span + 1, heads_, d_head_});
    term.keys.positions = pos.index;
    term.keys.offset = span;  // row of distance s: s + span
    return term;
  }

  struct Layer {
    std::unique_ptr<Parameter> w_r;  // (d, H d_h)
    std::unique_ptr<Parameter> u;    // (H d_h): content bias, head by head
    std::unique_ptr<Parameter> v;    // (H d_h): positional bias
  };
  // R_s of every distance s = -span..span, row s + span: (2 span + 1, d).
  Tensor sinusoid_rows(int64_t span) const {
    const int64_t half = width_ / 2;
    std::vector<double> w(static_cast<size_t>(half));
    for (int64_t m = 0; m < half; ++m) w[size_t(m)] = std::pow(10000.0, -2.0 * double(m) / double(width_));
    Tensor r = Tensor::empty(Shape{2 * span + 1, width_});
    for (int64_t row = 0; row <= 2 * span; ++row)
      for (int64_t m = 0; m < half; ++m) {
        const double a = static_cast<double>(row - span) * w[size_t(m)];
        r[row * width_ + m] = static_cast<Real>(std::sin(a));
        r[row * width_ + half + m] = static_cast<Real>(std::cos(a));
      }
    return r;
  }

  int64_t heads_, max_len_, d_head_ = 0, width_ = 0;
  std::vector<Layer> layers_;
  TableCache<int64_t, Tensor> sinusoids_;  // by span
};

}  // namespace

EncodingInfo encoding_info_transformer_xl() {
  return {
      .name = "transformer_xl",
      .summary = "relative keys: Transformer-XL, logit ((q_i + u) . k_j + (q_i + v) . W_R R_{i-j}) / sqrt(d_h)",
      .options = {},  // none
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<TransformerXlEncoding>(c);
      },
      // Not in the default comparison: the default grid's committed results stay comparable.
      .in_default_study = false,
      .random_offset = RandomOffset::invariant,  // positions enter only as differences
  };
}

}  // namespace ordo
