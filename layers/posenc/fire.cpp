// layers/posenc/fire.cpp: functional interpolation for relative positions (FIRE, Li et al.
// 2023), docs/spec.md §2.10.
//
// A learned function of the normalised distance, added to the logits (bias hook):
//   bias[h, i, j] = f(x_ij)_h,   x_ij = psi(i - j) / psi(max(L_thr, i)),   psi(x) = log(c x + 1)
// with i the query and j the key position, f an MLP 1 -> hidden -> H with ReLU, and c and
// L_thr learned (init 0.1 and the training length). Dividing by psi of the query position
// maps every distance the query can see into [0, 1]: a longer sequence interpolates inside
// the range f was trained on instead of extrapolating beyond it ("progressive
// interpolation"); L_thr keeps short contexts from being stretched.
//
// The paper is causal (j <= i). Bidirectionally ordo uses
//   x_ij = sign(i - j) psi(|i - j|) / psi(max(L_thr, i, j)),
// which is the paper's form for j <= i, gives f the sign of i - j (so it can tell before from
// after), and keeps |x| <= 1 on both sides, since |i - j| <= max(i, j). It depends on the
// positions only, never on a sequence's length, so padding changes nothing.
//
// c is kept >= 1e-3 and L_thr >= 1 by projection after every update (bounded Parameters,
// core/tape.h), so psi is defined and the denominator positive. The bias is not a function
// of i - j alone, so it is a full (H, Lq, Lk) tensor; the fused attention takes it with its
// gradient.
#include <cmath>

#include "core/ops.h"
#include "layers/linear.h"
#include "layers/posenc/encoding.h"
#include "layers/posenc/table_cache.h"

namespace ordo {
namespace {

class FireEncoding final : public PositionalEncoding {
 public:
  explicit FireEncoding(const EncodingConfig& cfg)
      : heads_(cfg.n_heads),
        fc1_("posenc.fire.fc1", 1, cfg.options.integer("fire-hidden"), cfg.seed),
        fc2_("posenc.fire.fc2", cfg.options.integer("fire-hidden"), cfg.n_heads, cfg.seed),
        c_("posenc.fire.c", Tensor::from(Shape{1}, {Real(0.1)})),
        threshold_("posenc.fire.threshold",
                   Tensor::from(Shape{1}, {static_cast<Real>(cfg.train_positions > 0 ? cfg.train_positions : cfg.max_len)})),
        causal_(cfg.causal) {
    ORDO_CHECK(cfg.n_heads > 0, "fire: n_heads must be positive, got ", cfg.n_heads);
    c_.lower = Real(1e-3);
    threshold_.lower = Real(1);
    threshold_.project();
  }
  std::string name() const override { return "fire"; }

  // (H, L, L): f of every (query, key) pair's normalised distance.
  std::optional<AttentionBias> bias(Tape& t, const Positions& pos) override {
    ORDO_CHECK(pos.length > 0, "fire: Positions.length must be positive, got ", pos.length);
    const int64_t L = pos.length;
    const Grid g = pos.contiguous() ? grids_.get(L, [&] { return make_grid(pos); }) : make_grid(pos);
    Var c = t.param(c_);
    Var psi_distance = log1p(t, mul(t, c, t.input(g.distance)));  // (L^2, 1)
    // max(L_thr, m) = m + relu(L_thr - m), m = max(i, j) (the query position i when causal)
    Var reach = add(t, t.input(g.reach), relu(t, sub(t, t.param(threshold_), t.input(g.reach))));
    Var psi_reach = log1p(t, mul(t, c, reach));
    Var x = div(t, mul(t, psi_distance, t.input(g.sign)), psi_reach);  // (L^2, 1), in [-1, 1]
    Var f = fc2_.forward(t, relu(t, fc1_.forward(t, x)));               // (L^2, H)
    return AttentionBias{reshape(t, permute(t, f, {1, 0}), Shape{heads_, L, L}), false};
  }

  std::vector<Parameter*> parameters() override {
    std::vector<Parameter*> out;
    fc1_.collect_parameters(out);
    fc2_.collect_parameters(out);
    out.push_back(&c_);
    out.push_back(&threshold_);
    return out;
  }

 private:
  struct Grid {       // per (i, j), row i * L + j, as (L^2, 1) columns
    Tensor distance;  // |i - j|
    Tensor sign;      // sign(i - j): 1, 0 or -1
    Tensor reach;     // max(i, j); i when causal (keys after i are masked)
  };

  // At positions pos.at(i), pos.at(j).
  Grid make_grid(const Positions& pos) const {
    const int64_t L = pos.length;
    Grid g{Tensor::empty(Shape{L * L, 1}), Tensor::empty(Shape{L * L, 1}), Tensor::empty(Shape{L * L, 1})};
    for (int64_t i = 0; i < L; ++i)
      for (int64_t j = 0; j < L; ++j) {
        const int64_t r = i * L + j;
        const int64_t pi = pos.at(i), pj = pos.at(j);
        g.distance[r] = static_cast<Real>(pi > pj ? pi - pj : pj - pi);
        g.sign[r] = static_cast<Real>(pi > pj ? 1 : (pi < pj ? -1 : 0));
        g.reach[r] = static_cast<Real>(causal_ ? pi : std::max(pi, pj));
      }
    return g;
  }

  int64_t heads_;
  Linear fc1_, fc2_;                // f: 1 -> hidden -> H
  Parameter c_, threshold_;         // (1) each
  bool causal_;
  TableCache<int64_t, Grid> grids_;  // by length
};

}  // namespace

EncodingInfo encoding_info_fire() {
  return {
      .name = "fire",
      .summary = "bias: MLP of psi(i - j) / psi(max(L_thr, i)), psi(x) = log(c x + 1), c and L_thr learned",
      .options = {{"fire-hidden", OptionType::Int, "32", "width of FIRE's MLP (1 -> hidden -> heads)", ">= 1",
                   [](double v) { return v >= 1; }}},
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<FireEncoding>(c);
      },
      .in_default_study = false,
  };
}

}  // namespace ordo
