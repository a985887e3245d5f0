// layers/posenc/xpos.cpp: extrapolatable position embedding (xPos, Sun et al. 2022, "A
// Length-Extrapolatable Transformer"), docs/spec.md §2.11.
//
// RoPE with a per-pair exponential scale that makes the score decay with distance:
//   q_m -> zeta^((m - c) / B) * R(m) q_m,    k_n -> zeta^(-(n - c) / B) * R(n) k_n
//   zeta_i = (2i / d_h + 0.4) / 1.4  (pair i; between 0.29 and 1),  B = --xpos-scale-base (512)
// so q_m . k_n = sum_i zeta_i^((m - n) / B) (pair i's rope score): for keys before the query
// (m > n) every pair is damped, the more the farther and the lower its index. For keys after
// the query the factor grows without bound, which is why xPos is defined for causal
// attention only (a bidirectional model with it is refused).
//
// c centres the exponents, as the paper's code does (positions counted from the middle of the
// sequence), so long sequences neither overflow the q scale nor underflow the k scale; it
// cancels in every score. ordo takes c = floor(n / 2) from each sequence's real length n, so
// padding changes nothing. q and k scale differently, so the rotation cannot run inside the
// shared projection (rotation_tables): it goes through the rotate hook.
#include <cmath>
#include <memory>
#include <tuple>

#include "core/ops.h"
#include "layers/posenc/encoding.h"
#include "layers/posenc/table_cache.h"

namespace ordo {
namespace {

constexpr double kBase = 10000.0;  // rope's frequency base

class XposEncoding final : public PositionalEncoding {
 public:
  explicit XposEncoding(const EncodingConfig& cfg) : scale_base_(cfg.options.real("xpos-scale-base")) {
    ORDO_CHECK(cfg.n_heads > 0 && cfg.d_model % cfg.n_heads == 0, "xpos: d_model = ", cfg.d_model,
               " is not divisible by n_heads = ", cfg.n_heads);
    d_head_ = cfg.d_model / cfg.n_heads;
    ORDO_CHECK(d_head_ % 2 == 0, "xpos: the head width d_h = d_model / n_heads = ", cfg.d_model, " / ", cfg.n_heads,
               " = ", d_head_, " is odd; xpos rotates pairs and needs an even d_h");
  }
  std::string name() const override { return "xpos"; }

  std::pair<Var, Var> rotate(Tape& t, Var q, Var k, const Positions& pos) override {
    const Shape& sq = t.shape(q);
    ORDO_CHECK(sq.rank() == 4 && sq.last() == d_head_, "xpos: q must be (B, L, H, ", d_head_, "), got ", sq);
    ORDO_CHECK(t.shape(k) == sq, "xpos: q and k shapes differ: ", sq, " vs ", t.shape(k));
    const int64_t B = sq[0], L = sq[1], H = sq[2];
    ORDO_CHECK(static_cast<int64_t>(pos.lengths.size()) == B, "xpos: ", pos.lengths.size(),
               " sequence lengths for a batch of ", B);
    const Shape rows{B, L, H * d_head_};
    Var qr = reshape(t, q, rows), kr = reshape(t, k, rows);
    bool one_centre = true;
    for (int32_t n : pos.lengths) one_centre = one_centre && n / 2 == pos.lengths[0] / 2;
    if (one_centre) {  // one table for the batch: (L, H d_h / 2)
      const auto held = tables(pos, L, H, pos.lengths[0] / 2);
      const Tables& tb = *held;
      return {reshape(t, rotate_pairs(t, qr, tb.cos_q, tb.sin_q), sq),
              reshape(t, rotate_pairs(t, kr, tb.cos_k, tb.sin_k), sq)};
    }
    // Per sequence: (B, L, H d_h / 2), sequence b's rows from its own centre's table.
    const int64_t n = L * H * (d_head_ / 2);
    Tables all{Tensor::empty(Shape{B, L, H * (d_head_ / 2)}), Tensor::empty(Shape{B, L, H * (d_head_ / 2)}),
               Tensor::empty(Shape{B, L, H * (d_head_ / 2)}), Tensor::empty(Shape{B, L, H * (d_head_ / 2)})};
    for (int64_t b = 0; b < B; ++b) {
      const auto held = tables(pos, L, H, pos.lengths[static_cast<size_t>(b)] / 2);
      const Tables& tb = *held;
      for (auto [from, to] : {std::pair{&tb.cos_q, &all.cos_q}, {&tb.sin_q, &all.sin_q}, {&tb.cos_k, &all.cos_k},
                              {&tb.sin_k, &all.sin_k}})
        std::copy(from->data(), from->data() + n, to->data() + b * n);
    }
    return {reshape(t, rotate_pairs(t, qr, all.cos_q, all.sin_q), sq),
            reshape(t, rotate_pairs(t, kr, all.cos_k, all.sin_k), sq)};
  }

 private:
  struct Tables {
    Tensor cos_q, sin_q, cos_k, sin_k;  // (L, H d_h / 2): rope's angles times the q or k scale
  };

  // Contiguous positions are cached by (L, H, centre token); randomized ones change every
  // batch.
  std::shared_ptr<const Tables> tables(const Positions& pos, int64_t L, int64_t H, int64_t centre) {
    if (!pos.contiguous()) return std::make_shared<const Tables>(build(pos, L, H, centre));
    return tables_.get({L, H, centre}, [&] { return std::make_shared<const Tables>(build(pos, L, H, centre)); });
  }

  // Rows at positions.at(row); the centre c is the position of token `centre`.
  Tables build(const Positions& positions, int64_t L, int64_t H, int64_t centre) const {
    const int64_t half = d_head_ / 2;
    const double dh = static_cast<double>(d_head_);
    Tables tb{Tensor::empty(Shape{L, H * half}), Tensor::empty(Shape{L, H * half}), Tensor::empty(Shape{L, H * half}),
              Tensor::empty(Shape{L, H * half})};
    for (int64_t m = 0; m < L; ++m)
      for (int64_t i = 0; i < half; ++i) {
        const double p = static_cast<double>(positions.at(m)), c = static_cast<double>(positions.at(centre));
        const double a = p * std::pow(kBase, -2.0 * static_cast<double>(i) / dh);
        const double zeta = (2.0 * static_cast<double>(i) / dh + 0.4) / 1.4;
        const double up = std::pow(zeta, (p - c) / scale_base_);  // q's scale
        for (int64_t h = 0; h < H; ++h) {
          const int64_t at = (m * H + h) * half + i;
          tb.cos_q[at] = static_cast<Real>(up * std::cos(a));
          tb.sin_q[at] = static_cast<Real>(up * std::sin(a));
          tb.cos_k[at] = static_cast<Real>(std::cos(a) / up);
          tb.sin_k[at] = static_cast<Real>(std::sin(a) / up);
        }
      }
    return tb;
  }

  double scale_base_;
  int64_t d_head_ = 0;
  // By (L, H, centre); shared pointers keep a table valid while others are added.
  TableCache<std::tuple<int64_t, int64_t, int64_t>, std::shared_ptr<const Tables>> tables_;
};

}  // namespace

EncodingInfo encoding_info_xpos() {
  return {
      .name = "xpos",
      .summary = "rotate: rope with q scaled by zeta^(m/B), k by zeta^(-n/B): scores decay with distance (causal only)",
      .options = {{"xpos-scale-base", OptionType::Real, "512", "the scale base B of zeta^(m/B)", "> 0",
                   [](double v) { return v > 0; }}},
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<XposEncoding>(c);
      },
      .in_default_study = false,
      .random_offset = RandomOffset::invariant,  // positions enter only as differences
      .causal_only = true,
  };
}

}  // namespace ordo
