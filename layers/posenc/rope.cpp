// layers/posenc/rope.cpp: rotary position embedding (RoFormer, Su et al. 2021).
//
// Each head's q and k (B, L, H, d_h) are rotated pair by pair before the dot product:
//   (x0, x1) at (2i, 2i+1)  ->  (x0 cos a - x1 sin a, x0 sin a + x1 cos a),
//   a = t * base^(-2i/d_h),  base = 10000
// Rotations compose, R(t)^T R(u) = R(u - t), so the score <R(t) q, R(u) k> = <q, R(u - t) k>
// depends on the positions only through u - t: relative position from an absolute rotation.
#include <cmath>

#include "core/ops.h"
#include "layers/posenc/encoding.h"
#include "layers/posenc/table_cache.h"

namespace ordo {
namespace {

class RotaryEncoding final : public PositionalEncoding {
 public:
  explicit RotaryEncoding(const EncodingConfig& cfg) : base_(cfg.options.real("rope-base")) {
    ORDO_CHECK(cfg.n_heads > 0 && cfg.d_model % cfg.n_heads == 0, "rope: d_model = ", cfg.d_model,
               " is not divisible by n_heads = ", cfg.n_heads);
    d_head_ = cfg.d_model / cfg.n_heads;
    ORDO_CHECK(d_head_ % 2 == 0, "rope: the head width d_h = d_model / n_heads = ", cfg.d_model,
               " / ", cfg.n_heads, " = ", d_head_, " is odd; rope rotates pairs and needs an even d_h");
    ORDO_CHECK(base_ > 0, "rope: --rope-base must be positive, got ", base_);
  }
  std::string name() const override { return "rope"; }

  // q, k (B, L, H, d_h) -> R(t) q, R(t) k. Viewed as (B, L, H d_h), every row of the view
  // is one position, and the angle tables repeat the head's (d_h / 2) angles H times.
  std::pair<Var, Var> rotate(Tape& t, Var q, Var k, const Positions&) override {
    const Shape& sq = t.shape(q);
    ORDO_CHECK(sq.rank() == 4 && sq.last() == d_head_, "rope: q must be (B, L, H, ", d_head_,
               "), got ", sq);
    ORDO_CHECK(t.shape(k) == sq, "rope: q and k shapes differ: ", sq, " vs ", t.shape(k));
    const int64_t B = sq[0], L = sq[1], H = sq[2];
    const auto [cos, sin] = tables(L, H);
    const Shape rows{B, L, H * d_head_};
    return {reshape(t, rotate_pairs(t, reshape(t, q, rows), cos, sin), sq),
            reshape(t, rotate_pairs(t, reshape(t, k, rows), cos, sin), sq)};
  }

  std::optional<std::pair<Tensor, Tensor>> rotation_tables(const Positions& pos, int64_t heads) override {
    return tables(pos.length, heads);
  }

 private:
  std::pair<Tensor, Tensor> tables(int64_t L, int64_t H) {
    return tables_.get({L, H}, [&] { return angles(L, H); });
  }

  // cos, sin (L, H d_h/2): the angles t * base^(-2i/d_h), once per head.
  std::pair<Tensor, Tensor> angles(int64_t L, int64_t H) const {
    const int64_t half = d_head_ / 2;
    Tensor cos = Tensor::empty(Shape{L, H * half}), sin = Tensor::empty(Shape{L, H * half});
    for (int64_t pos = 0; pos < L; ++pos)
      for (int64_t i = 0; i < half; ++i) {
        const double a = static_cast<double>(pos) *
                         std::pow(base_, -2.0 * static_cast<double>(i) / static_cast<double>(d_head_));
        for (int64_t h = 0; h < H; ++h) {
          cos[(pos * H + h) * half + i] = static_cast<Real>(std::cos(a));
          sin[(pos * H + h) * half + i] = static_cast<Real>(std::sin(a));
        }
      }
    return {cos, sin};
  }

  double base_;
  int64_t d_head_ = 0;
  TableCache<std::pair<int64_t, int64_t>, std::pair<Tensor, Tensor>> tables_;  // cos, sin by (L, H)
};

}  // namespace

EncodingInfo encoding_info_rope() {
  return {
      .name = "rope",
      .summary = "rotate: q and k pairs rotated by t * 10000^(-2i/d_h)",
      .options = {{"rope-base", OptionType::Real, "10000", "frequency base", "> 1", [](double v) { return v > 1; }}},
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<RotaryEncoding>(c);
      },
      .is_default = true,
      .benchmarks = {"tiny", "base"},
  };
}

}  // namespace ordo
