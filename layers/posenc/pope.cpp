// layers/posenc/pope.cpp: polar coordinate position embeddings (PoPE, Gopalakrishnan, Csordas,
// Schmidhuber and Mozer 2025, arXiv 2509.10534; docs/spec.md §2.19).
//
// Rope turns pairs of a head's components, so a pair's angle carries both content and
// position. PoPE keeps them apart: every one of the d_h components of q and k is a magnitude,
// softplus(x_c) >= 0, and gets its own frequency; the angle comes from the position alone:
//   theta_c = base^(-c / d_h),  c = 0 .. d_h - 1                  (d_h frequencies, rope's d_h / 2)
//   q~_i = (softplus(q_c) cos(i theta_c), softplus(q_c) sin(i theta_c))_c         (2 d_h wide)
//   k~_j = (softplus(k_c) cos(j theta_c + delta_c), softplus(k_c) sin(j theta_c + delta_c))_c
//   logit_ij = q~_i . k~_j / sqrt(d_h) = sum_c mu^q_c mu^k_c cos((j - i) theta_c + delta_c) / sqrt(d_h)
// with delta (H, d_h) a learned phase on the key side, clamped to [-2 pi, 0] in every forward
// pass. The score depends on the positions only through j - i. q~ and k~ are twice as wide
// as v; the scale keeps the head's own d_h.
//
// As the authors' code (x-transformers' polar_pos_emb, PoPE-pytorch): d_h frequencies from
// base 10000, delta per head and frequency, initialised to 0 (--pope-phase-init uniform:
// U(-2 pi, 0), their bias_uniform_init), clamped, on the keys only; 1/sqrt(d_h).
#include <cmath>
#include <numbers>

#include "core/ops.h"
#include "core/rng.h"
#include "layers/posenc/encoding.h"
#include "layers/posenc/table_cache.h"

namespace ordo {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

void check_pope_options(const Options& o) {
  const std::string& init = o.text("pope-phase-init");
  ORDO_CHECK(init == "zero" || init == "uniform", "pope: unknown --pope-phase-init '", init,
             "'; accepted: zero, uniform");
}

Tensor initial_phase(const EncodingConfig& cfg, int64_t d_head) {
  Tensor phase = Tensor::zeros(Shape{cfg.n_heads * d_head});
  if (cfg.options.text("pope-phase-init") == "uniform") {
    CounterRng rng(cfg.seed, hash64("posenc.pope_phase"));
    for (int64_t i = 0; i < phase.numel(); ++i) phase[i] = static_cast<Real>(-kTwoPi * rng.uniform());
  }
  return phase;
}

class PolarEncoding final : public PositionalEncoding {
 public:
  explicit PolarEncoding(const EncodingConfig& cfg)
      : base_(cfg.options.real("pope-base")),
        d_head_(cfg.n_heads > 0 ? cfg.d_model / cfg.n_heads : 0),
        phase_("posenc.pope_phase", initial_phase(cfg, d_head_)) {
    check_pope_options(cfg.options);
    ORDO_CHECK(cfg.n_heads > 0 && cfg.d_model % cfg.n_heads == 0, "pope: d_model = ", cfg.d_model,
               " is not divisible by n_heads = ", cfg.n_heads);
  }
  std::string name() const override { return "pope"; }

  // q, k (B, L, H, d_h) -> q~, k~ (B, L, H, 2 d_h).
  std::pair<Var, Var> rotate(Tape& t, Var q, Var k, const Positions& pos) override {
    const Shape sq = t.shape(q);
    ORDO_CHECK(sq.rank() == 4 && sq.last() == d_head_, "pope: q must be (B, L, H, ", d_head_, "), got ", sq);
    ORDO_CHECK(t.shape(k) == sq, "pope: q and k shapes differ: ", sq, " vs ", t.shape(k));
    const int64_t B = sq[0], L = sq[1], H = sq[2];
    const auto [cos, sin] = tables(pos, L, H);
    const Shape rows{B, L, H * d_head_}, wide{B, L, H, 2 * d_head_};
    Var delta = clamp(t, t.param(phase_), static_cast<Real>(-kTwoPi), 0);
    return {reshape(t, polar(t, softplus(t, reshape(t, q, rows)), cos, sin), wide),
            reshape(t, polar(t, softplus(t, reshape(t, k, rows)), cos, sin, delta), wide)};
  }

  std::vector<Parameter*> parameters() override { return {&phase_}; }

 private:
  // cos, sin (L, H d_h) of at(t) theta_c, repeated per head; contiguous positions cached.
  std::pair<Tensor, Tensor> tables(const Positions& pos, int64_t L, int64_t H) {
    if (!pos.contiguous()) return angles(pos, L, H);
    return tables_.get({L, H}, [&] { return angles(pos, L, H); });
  }
  std::pair<Tensor, Tensor> angles(const Positions& pos, int64_t L, int64_t H) const {
    Tensor cos = Tensor::empty(Shape{L, H * d_head_}), sin = Tensor::empty(Shape{L, H * d_head_});
    for (int64_t row = 0; row < L; ++row)
      for (int64_t c = 0; c < d_head_; ++c) {
        const double a = static_cast<double>(pos.at(row)) * std::pow(base_, -double(c) / double(d_head_));
        for (int64_t h = 0; h < H; ++h) {
          cos[(row * H + h) * d_head_ + c] = static_cast<Real>(std::cos(a));
          sin[(row * H + h) * d_head_ + c] = static_cast<Real>(std::sin(a));
        }
      }
    return {cos, sin};
  }

  double base_;
  int64_t d_head_;
  Parameter phase_;  // delta (H d_h), "posenc.pope_phase"
  TableCache<std::pair<int64_t, int64_t>, std::pair<Tensor, Tensor>> tables_;  // by (L, H)
};

}  // namespace

EncodingInfo encoding_info_pope() {
  return {
      .name = "pope",
      .summary = "polar: q and k as magnitudes softplus(x_c) at angles t * 10000^(-c/d_h), a learned key phase "
                 "(2 d_h wide)",
      .options = {{"pope-base", OptionType::Real, "10000", "frequency base", "> 1", [](double v) { return v > 1; }},
                  {"pope-phase-init", OptionType::Text, "zero",
                   "the key phase delta at the start: zero, uniform (U(-2 pi, 0))"}},
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<PolarEncoding>(c);
      },
      .check = check_pope_options,
      .in_default_study = false,
      .random_offset = RandomOffset::invariant,  // positions enter only as differences
  };
}

}  // namespace ordo
