// layers/posenc/rope.cpp: rotary position embedding (RoFormer, Su et al. 2021).
//
// Each head's q and k (B, H, L, d_h) are rotated pair by pair before the dot product:
//   (x0, x1) at (2i, 2i+1)  ->  (x0 cos a - x1 sin a, x0 sin a + x1 cos a),
//   a = t * base^(-2i/d_h),  base = 10000
// Rotations compose, R(t)^T R(u) = R(u - t), so the score <R(t) q, R(u) k> = <q, R(u - t) k>
// depends on the positions only through u - t: relative position from an absolute rotation.
#include <cmath>

#include "core/ops.h"
#include "layers/posenc/encoding.h"

namespace ordo {
namespace {

class RotaryEncoding final : public PositionalEncoding {
 public:
  explicit RotaryEncoding(const EncodingConfig& cfg) : base_(cfg.rope_base) {
    ORDO_CHECK(cfg.n_heads > 0 && cfg.d_model % cfg.n_heads == 0, "rope: d_model = ", cfg.d_model,
               " is not divisible by n_heads = ", cfg.n_heads);
    d_head_ = cfg.d_model / cfg.n_heads;
    ORDO_CHECK(d_head_ % 2 == 0, "rope: the head width d_h = d_model / n_heads = ", cfg.d_model,
               " / ", cfg.n_heads, " = ", d_head_, " is odd; rope rotates pairs and needs an even d_h");
    ORDO_CHECK(base_ > 0, "rope: rope_base must be positive, got ", base_);
  }
  std::string name() const override { return "rope"; }

  // q, k (B, H, L, d_h) -> R(t) q, R(t) k.
  std::pair<Var, Var> rotate(Tape& t, Var q, Var k, const Positions&) override {
    const Shape& sq = t.shape(q);
    ORDO_CHECK(sq.rank() >= 2 && sq.last() == d_head_, "rope: q must be (B, H, L, ", d_head_,
               "), got ", sq);
    ORDO_CHECK(t.shape(k) == sq, "rope: q and k shapes differ: ", sq, " vs ", t.shape(k));
    build(sq[-2]);
    return {rotate_pairs(t, q, cos_, sin_), rotate_pairs(t, k, cos_, sin_)};
  }

 private:
  // cos, sin (L, d_h/2) of the angles t * base^(-2i/d_h), cached for the last L.
  void build(int64_t L) {
    if (cos_.defined() && cos_.dim(0) == L) return;
    const int64_t half = d_head_ / 2;
    cos_ = Tensor::empty(Shape{L, half});
    sin_ = Tensor::empty(Shape{L, half});
    for (int64_t pos = 0; pos < L; ++pos)
      for (int64_t i = 0; i < half; ++i) {
        const double a = static_cast<double>(pos) *
                         std::pow(base_, -2.0 * static_cast<double>(i) / static_cast<double>(d_head_));
        cos_[pos * half + i] = static_cast<Real>(std::cos(a));
        sin_[pos * half + i] = static_cast<Real>(std::sin(a));
      }
  }

  double base_;
  int64_t d_head_ = 0;
  Tensor cos_, sin_;  // (L, d_h/2)
};

}  // namespace

std::unique_ptr<PositionalEncoding> make_rope(const EncodingConfig& cfg) {
  return std::make_unique<RotaryEncoding>(cfg);
}

}  // namespace ordo
