// layers/posenc/alibi.cpp: attention with linear biases (ALiBi, Press et al. 2022).
//
// A fixed, head-specific penalty proportional to distance, added to the logits (bias hook):
//   bias[h, t, u] = -m_h |t - u|           (bidirectional)
//   bias[h, t, u] = -m_h (t - u), u <= t   (causal; u > t is masked anyway and set to 0)
// with slopes m_h = 2^(-8h/H), h = 1..H (see alibi.h for H not a power of two). Steep
// heads look locally, shallow heads far. The bias depends on u - t only, so it is returned
// in relative form (H, Lq + Lk - 1), entry [h, (u - t) + Lq - 1].
#include "layers/posenc/alibi.h"

#include <cmath>

#include "core/ops.h"
#include "layers/posenc/encoding.h"
#include "layers/posenc/table_cache.h"

namespace ordo {

std::vector<double> alibi_slopes(int64_t heads) {
  ORDO_CHECK(heads > 0, "alibi: the number of heads must be positive, got ", heads);
  int64_t n = 1;  // the largest power of two <= heads
  while (n * 2 <= heads) n *= 2;
  std::vector<double> slopes;
  slopes.reserve(static_cast<size_t>(heads));
  for (int64_t h = 1; h <= n; ++h) slopes.push_back(std::exp2(-8.0 * static_cast<double>(h) / static_cast<double>(n)));
  // The rest: the odd-numbered slopes of 2n heads, 2^(-8 (2j+1) / (2n)), j = 0, 1, ...
  for (int64_t j = 0; static_cast<int64_t>(slopes.size()) < heads; ++j)
    slopes.push_back(std::exp2(-8.0 * static_cast<double>(2 * j + 1) / static_cast<double>(2 * n)));
  return slopes;
}

namespace {

class AlibiEncoding final : public PositionalEncoding {
 public:
  explicit AlibiEncoding(const EncodingConfig& cfg)
      : heads_(cfg.n_heads), causal_(cfg.causal), slopes_(alibi_slopes(cfg.n_heads)) {}
  std::string name() const override { return "alibi"; }

  // (H, 2L - 1): entry [h, j] with j = (u - t) + L - 1; with randomized positions the full
  // (H, L, L) of the positions' differences.
  std::optional<AttentionBias> bias(Tape& t, const Positions& pos) override {
    ORDO_CHECK(pos.length > 0, "alibi: Positions.length must be positive, got ", pos.length);
    if (!pos.contiguous()) return AttentionBias{t.input(full(pos)), false};
    return AttentionBias{t.input(tables_.get(pos.length, [&] { return relative(pos.length); })), true};
  }

 private:
  // The bias of head h between a query and a key `delta` = u - t positions apart.
  Real value(int64_t h, double delta) const {
    return static_cast<Real>(causal_ ? (delta <= 0 ? slopes_[h] * delta : 0.0)  // -m (t - u)
                                     : -slopes_[h] * std::fabs(delta));
  }

  // (H, 2L - 1).
  Tensor relative(int64_t L) const {
    const int64_t W = 2 * L - 1;
    Tensor bias = Tensor::empty(Shape{heads_, W});
    for (int64_t h = 0; h < heads_; ++h)
      for (int64_t j = 0; j < W; ++j) bias[h * W + j] = value(h, static_cast<double>(j - (L - 1)));
    return bias;
  }

  // (H, L, L) at positions pos.at(t), pos.at(u).
  Tensor full(const Positions& pos) const {
    const int64_t L = pos.length;
    Tensor bias = Tensor::empty(Shape{heads_, L, L});
    for (int64_t h = 0; h < heads_; ++h)
      for (int64_t q = 0; q < L; ++q)
        for (int64_t k = 0; k < L; ++k) bias[(h * L + q) * L + k] = value(h, static_cast<double>(pos.at(k) - pos.at(q)));
    return bias;
  }

  int64_t heads_;
  bool causal_;
  std::vector<double> slopes_;
  TableCache<int64_t, Tensor> tables_;  // the relative bias by length
};

}  // namespace

EncodingInfo encoding_info_alibi() {
  return {
      .name = "alibi",
      .summary = "bias: -m_h |t - u| with geometric head slopes",
      .options = {},  // none
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<AlibiEncoding>(c);
      },
      .random_offset = RandomOffset::invariant,  // positions enter only as differences
      .benchmarks = {"long"},  // L = 1024: the bias is the (H, 2L - 1) relative form
  };
}

}  // namespace ordo
