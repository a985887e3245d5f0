// layers/posenc/rope.cpp: rotary position embedding (RoFormer, Su et al. 2021), its partial
// form (p-RoPE) and its context-extension scalings (docs/spec.md §2.4).
//
// Each head's q and k (B, L, H, d_h) are rotated pair by pair before the dot product:
//   (x0, x1) at (2i, 2i+1)  ->  (x0 cos a - x1 sin a, x0 sin a + x1 cos a),
//   a = t * theta_i,  theta_i = base^(-2i/d_h),  base = 10000
// Rotations compose, R(t)^T R(u) = R(u - t), so the score <R(t) q, R(u) k> = <q, R(u - t) k>
// depends on the positions only through u - t: relative position from an absolute rotation.
//
// --rope-fraction p (Barbero et al. 2024): only the first floor(p d_h / 2) pairs, the highest
// frequencies, rotate; the others keep theta = 0 (unrotated). p = 1 is rope, p = 0 is none.
//
// --rope-scaling (applied only where a sequence is longer than the training max_len L_train,
// with s = its length / L_train; s <= 1 leaves every angle exact):
//   pi    position interpolation (Chen et al. 2023): theta_i / s
//   ntk   NTK-aware base (bloc97 2023; Peng et al. 2023 §3.1): base * s^(d_h / (d_h - 2))
//   yarn  YaRN (Peng et al. 2023): per pair, r = L_train / (2 pi / theta_i) wavelengths in the
//         training context, gamma = clamp((r - alpha) / (beta - alpha), 0, 1) with alpha = 1,
//         beta = 32, theta' = (1 - gamma) theta / s + gamma theta; q and k each scaled by
//         0.1 ln s + 1 (the logits by its square: YaRN's temperature)
// s is taken per sequence, from its real length, so padding changes nothing.
//
// A scaling is refused under --random-positions N (docs/spec.md §2.13): training then places
// tokens throughout [0, N), N above every evaluation length, so no evaluation position lies
// beyond those trained on, and a scale taken from the training length would compress
// positions the model has already seen (one taken from N would always be 1).
#include <algorithm>
#include <cmath>
#include <numbers>
#include <tuple>

#include "core/ops.h"
#include "layers/posenc/encoding.h"
#include "layers/posenc/table_cache.h"

namespace ordo {
namespace {

constexpr double kYarnAlpha = 1.0, kYarnBeta = 32.0;

void check_rope_options(const Options& o) {
  const std::string& scaling = o.text("rope-scaling");
  ORDO_CHECK(scaling == "none" || scaling == "pi" || scaling == "ntk" || scaling == "yarn",
             "rope: unknown --rope-scaling '", scaling, "'; accepted: none, pi, ntk, yarn");
}

class RotaryEncoding final : public PositionalEncoding {
 public:
  explicit RotaryEncoding(const EncodingConfig& cfg)
      : base_(cfg.options.real("rope-base")),
        fraction_(cfg.options.real("rope-fraction")),
        scaling_(cfg.options.text("rope-scaling")),
        train_len_(cfg.train_positions) {
    check_rope_options(cfg.options);
    ORDO_CHECK(cfg.n_heads > 0 && cfg.d_model % cfg.n_heads == 0, "rope: d_model = ", cfg.d_model,
               " is not divisible by n_heads = ", cfg.n_heads);
    d_head_ = cfg.d_model / cfg.n_heads;
    ORDO_CHECK(d_head_ % 2 == 0, "rope: the head width d_h = d_model / n_heads = ", cfg.d_model,
               " / ", cfg.n_heads, " = ", d_head_, " is odd; rope rotates pairs and needs an even d_h");
    ORDO_CHECK(base_ > 0, "rope: --rope-base must be positive, got ", base_);
    ORDO_CHECK(scaling_ != "ntk" || d_head_ > 2, "rope: --rope-scaling ntk needs d_h > 2 (its exponent is ",
               "d_h / (d_h - 2)); d_h = ", d_head_);
    ORDO_CHECK(scaling_ == "none" || !cfg.random_positions, "rope: --rope-scaling ", scaling_,
               " does not fit --random-positions: training already covers every position up to N, above every "
               "evaluation length, so there is nothing to rescale; accepted with --random-positions: --rope-scaling none");
    ORDO_CHECK(scaling_ == "none" || train_len_ > 0,
               "rope: --rope-scaling ", scaling_, " needs the training length (EncodingConfig::train_positions)");
    // floor(p d_h / 2), with a margin so that p = 0.5 of 8 pairs is 4 despite rounding.
    rotated_ = std::min<int64_t>(d_head_ / 2, static_cast<int64_t>(std::floor(fraction_ * double(d_head_ / 2) + 1e-9)));
  }
  std::string name() const override { return "rope"; }

  // q, k (B, L, H, d_h) -> R(t) q, R(t) k. Viewed as (B, L, H d_h), every row of the view
  // is one position, and the angle tables repeat the head's (d_h / 2) angles H times; with
  // a scaling in effect for some sequence, the tables are per sequence (B, L, H d_h / 2).
  std::pair<Var, Var> rotate(Tape& t, Var q, Var k, const Positions& pos) override {
    const Shape& sq = t.shape(q);
    ORDO_CHECK(sq.rank() == 4 && sq.last() == d_head_, "rope: q must be (B, L, H, ", d_head_,
               "), got ", sq);
    ORDO_CHECK(t.shape(k) == sq, "rope: q and k shapes differ: ", sq, " vs ", t.shape(k));
    const int64_t B = sq[0], L = sq[1], H = sq[2];
    auto [cos, sin] = scaled(pos) ? per_sequence_tables(pos, B, L, H) : tables(pos, L, H, 1.0);
    const Shape rows{B, L, H * d_head_};
    return {reshape(t, rotate_pairs(t, reshape(t, q, rows), cos, sin), sq),
            reshape(t, rotate_pairs(t, reshape(t, k, rows), cos, sin), sq)};
  }

  // Shared tables let the attention rotate inside the q and k projections; a scaled batch
  // has per-sequence tables and goes through rotate().
  std::optional<std::pair<Tensor, Tensor>> rotation_tables(const Positions& pos, int64_t heads) override {
    if (scaled(pos)) return std::nullopt;
    return tables(pos, pos.length, heads, 1.0);
  }

 private:
  // The scale of a sequence of n real tokens: n / L_train beyond the training length, else 1.
  double scale_of(int32_t n) const {
    if (scaling_ == "none" || n <= train_len_) return 1.0;
    return static_cast<double>(n) / static_cast<double>(train_len_);
  }
  bool scaled(const Positions& pos) const {
    return std::any_of(pos.lengths.begin(), pos.lengths.end(), [&](int32_t n) { return scale_of(n) != 1.0; });
  }

  // theta_i of pair i at scale s (0 for the unrotated pairs), and the factor on q and k.
  std::pair<std::vector<double>, double> frequencies(double s) const {
    const int64_t half = d_head_ / 2;
    const double dh = static_cast<double>(d_head_);
    double base = base_, factor = 1.0;
    if (s != 1.0 && scaling_ == "ntk") base = base_ * std::pow(s, dh / (dh - 2.0));
    if (s != 1.0 && scaling_ == "yarn") factor = 0.1 * std::log(s) + 1.0;
    std::vector<double> theta(static_cast<size_t>(half), 0.0);
    for (int64_t i = 0; i < rotated_; ++i) {
      double th = std::pow(base, -2.0 * static_cast<double>(i) / dh);
      if (s != 1.0 && scaling_ == "pi") th /= s;
      if (s != 1.0 && scaling_ == "yarn") {
        const double r = static_cast<double>(train_len_) * th / (2.0 * std::numbers::pi);
        const double gamma = std::clamp((r - kYarnAlpha) / (kYarnBeta - kYarnAlpha), 0.0, 1.0);
        th = (1.0 - gamma) * th / s + gamma * th;
      }
      theta[static_cast<size_t>(i)] = th;
    }
    return {theta, factor};
  }

  // Contiguous positions are cached by (L, H, s); randomized ones change every batch.
  std::pair<Tensor, Tensor> tables(const Positions& pos, int64_t L, int64_t H, double s) {
    if (!pos.contiguous()) return angles(pos, L, H, s);
    return tables_.get({L, H, s}, [&] { return angles(pos, L, H, s); });
  }

  // cos, sin (L, H d_h/2) at scale s: factor * cos(t theta_i), t = positions.at(row), once
  // per head.
  std::pair<Tensor, Tensor> angles(const Positions& positions, int64_t L, int64_t H, double s) const {
    const int64_t half = d_head_ / 2;
    const auto [theta, factor] = frequencies(s);
    Tensor cos = Tensor::empty(Shape{L, H * half}), sin = Tensor::empty(Shape{L, H * half});
    for (int64_t pos = 0; pos < L; ++pos)
      for (int64_t i = 0; i < half; ++i) {
        const double a = static_cast<double>(positions.at(pos)) * theta[static_cast<size_t>(i)];
        for (int64_t h = 0; h < H; ++h) {
          cos[(pos * H + h) * half + i] = static_cast<Real>(factor * std::cos(a));
          sin[(pos * H + h) * half + i] = static_cast<Real>(factor * std::sin(a));
        }
      }
    return {cos, sin};
  }

  // (B, L, H d_h/2): sequence b's rows from the tables of its own scale.
  std::pair<Tensor, Tensor> per_sequence_tables(const Positions& pos, int64_t B, int64_t L, int64_t H) {
    ORDO_CHECK(static_cast<int64_t>(pos.lengths.size()) == B, "rope: ", pos.lengths.size(),
               " sequence lengths for a batch of ", B);
    const int64_t n = L * H * (d_head_ / 2);
    Tensor cos = Tensor::empty(Shape{B, L, H * (d_head_ / 2)}), sin = Tensor::empty(cos.shape());
    for (int64_t b = 0; b < B; ++b) {
      const auto [c, s] = tables(pos, L, H, scale_of(pos.lengths[static_cast<size_t>(b)]));
      std::copy(c.data(), c.data() + n, cos.data() + b * n);
      std::copy(s.data(), s.data() + n, sin.data() + b * n);
    }
    return {cos, sin};
  }

  double base_, fraction_;
  std::string scaling_;
  int64_t train_len_;
  int64_t d_head_ = 0, rotated_ = 0;
  // cos, sin by (L, H, s).
  TableCache<std::tuple<int64_t, int64_t, double>, std::pair<Tensor, Tensor>> tables_;
};

}  // namespace

EncodingInfo encoding_info_rope() {
  return {
      .name = "rope",
      .summary = "rotate: q and k pairs rotated by t * 10000^(-2i/d_h)",
      .options = {{"rope-base", OptionType::Real, "10000", "frequency base", "> 1", [](double v) { return v > 1; }},
                  {"rope-fraction", OptionType::Real, "1",
                   "share of each head's pairs that rotate, the highest frequencies (p-RoPE; 0 = none)", "in [0, 1]",
                   [](double v) { return v >= 0 && v <= 1; }},
                  {"rope-scaling", OptionType::Text, "none",
                   "beyond the training length: none, pi (interpolation), ntk (base), yarn"}},
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<RotaryEncoding>(c);
      },
      .check = check_rope_options,
      .random_offset = RandomOffset::invariant,  // positions enter only as differences
      .is_default = true,
      .benchmarks = {"tiny", "base"},
  };
}

}  // namespace ordo
