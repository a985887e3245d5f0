// layers/posenc/fire.cpp: functional interpolation for relative positions (FIRE, Li et al.
// 2023), docs/spec.md §2.10.
//
// A learned function of the normalised distance, added to the logits (bias hook):
//   bias[h, i, j] = f(x_ij)_h,   x_ij = psi(i - j) / psi(max(L_thr, i)),   psi(x) = log(c x + 1)
// with i the query and j the key position, f an MLP 1 -> hidden -> H with ReLU, c learned
// (init 0.1) and the threshold L_thr = m L learned through a multiplier m (init 1) of the
// training length L, as in the paper's listing (`threshold = |L_multiplier * init_L|`).
// Dividing by psi of the query position maps every distance the query can see into [0, 1]:
// a longer sequence interpolates inside the range f was trained on instead of extrapolating
// beyond it ("progressive interpolation"); L_thr keeps short contexts from being stretched.
//
// Init as the listing's nn.Linear layers: weights and biases U(+-1 / sqrt(fan_in)), so fc1's
// are U(-1, 1) and f starts as a varied function of x. Options keep ordo's first choices
// for comparison (docs/spec.md §2.10 measures both): --fire-init normal (N(0, 0.02)
// weights, zero biases) and --fire-threshold length (L_thr itself learned, init L, so Adam
// moves it about one position per 1e-3 of learning rate where m moves it L positions).
//
// The paper is causal (j <= i). Bidirectionally ordo uses
//   x_ij = sign(i - j) psi(|i - j|) / psi(max(L_thr, i, j)),
// which is the paper's form for j <= i, gives f the sign of i - j (so it can tell before from
// after), and keeps |x| <= 1 on both sides, since |i - j| <= max(i, j). It depends on the
// positions only, never on a sequence's length, so padding changes nothing.
//
// c is kept >= 1e-3 and L_thr >= 1 (m >= 1 / L) by projection after every update (bounded
// Parameters, core/tape.h), so psi is defined and the denominator at least log(1 + c) > 0:
// the listing's |.| on m L is then the identity and its eps (1e-6) in the denominator is not
// needed. The bias is not a function of i - j alone, so it is in general a full (H, Lq, Lk)
// tensor; the fused attention takes it with its gradient. f runs as one op (core/ops.h
// scalar_mlp), which recomputes the hidden layer in the backward instead of storing it, and
// when causal evaluates the pairs j <= i only (the rest are masked; their bias is 0).
//
// Below the threshold it is a function of i - j: where every position is below L_thr
// (contiguous positions, L - 1 < L_thr: training, with m > 1 - 1/L, and any sequence shorter
// than L_thr), max(L_thr, i, j) = L_thr for every pair, and the bias is returned in relative
// form, (H, 2L - 1), f of 2L - 1 values: the fused attention adds it as it adds T5's, with
// O(L) memory. The values are the full form's (the same x: L_thr is i + relu(L_thr - i)
// exactly for an integer i below it, and the same psi of it); the gradients are summed in
// another order. Strictly below: at i = L_thr the full form's relu'(0) = 0 gives L_thr no
// gradient through row i, where psi(L_thr) here would.
#include <algorithm>
#include <cmath>

#include "core/ops.h"
#include "layers/init.h"
#include "layers/linear.h"
#include "layers/posenc/encoding.h"
#include "layers/posenc/table_cache.h"

namespace ordo {
namespace {

int64_t training_length(const EncodingConfig& cfg) {
  return cfg.train_positions > 0 ? cfg.train_positions : cfg.max_len;
}

void check_fire_options(const Options& o) {
  const std::string &init = o.text("fire-init"), &threshold = o.text("fire-threshold");
  ORDO_CHECK(init == "torch" || init == "normal", "fire: unknown --fire-init '", init, "'; accepted: torch, normal");
  ORDO_CHECK(threshold == "multiplier" || threshold == "length", "fire: unknown --fire-threshold '", threshold,
             "'; accepted: multiplier, length");
}

// PyTorch's nn.Linear default: weight and bias U(+-1 / sqrt(fan_in)), from (seed, name).
void torch_default_init(Linear& layer, uint64_t seed) {
  const double bound = 1.0 / std::sqrt(static_cast<double>(layer.in_features()));
  layer.weight.value = uniform_init(layer.weight.value.shape(), bound, seed, layer.weight.name);
  layer.bias.value = uniform_init(layer.bias.value.shape(), bound, seed, layer.bias.name);
}

class FireEncoding final : public PositionalEncoding {
 public:
  explicit FireEncoding(const EncodingConfig& cfg)
      : heads_(cfg.n_heads),
        length_(static_cast<Real>(training_length(cfg))),
        multiplier_(cfg.options.text("fire-threshold") == "multiplier"),
        fc1_("posenc.fire.fc1", 1, cfg.options.integer("fire-hidden"), cfg.seed),
        fc2_("posenc.fire.fc2", cfg.options.integer("fire-hidden"), cfg.n_heads, cfg.seed),
        c_("posenc.fire.c", Tensor::from(Shape{1}, {Real(0.1)})),
        threshold_(multiplier_ ? "posenc.fire.threshold_multiplier" : "posenc.fire.threshold",
                   Tensor::from(Shape{1}, {multiplier_ ? Real(1) : length_})),
        causal_(cfg.causal) {
    check_fire_options(cfg.options);
    ORDO_CHECK(cfg.n_heads > 0, "fire: n_heads must be positive, got ", cfg.n_heads);
    ORDO_CHECK(length_ >= 1, "fire: the training length must be >= 1, got ", length_);
    if (cfg.options.text("fire-init") == "torch") {
      torch_default_init(fc1_, cfg.seed);
      torch_default_init(fc2_, cfg.seed);
    }
    c_.lower = Real(1e-3);
    threshold_.lower = multiplier_ ? Real(1) / length_ : Real(1);  // L_thr >= 1 either way
    threshold_.project();
  }
  std::string name() const override { return "fire"; }

  // (H, L, L): f of every (query, key) pair's normalised distance; (H, 2L - 1) below L_thr.
  std::optional<AttentionBias> bias(Tape& t, const Positions& pos) override {
    ORDO_CHECK(pos.length > 0, "fire: Positions.length must be positive, got ", pos.length);
    const int64_t L = pos.length;
    Var c = t.param(c_);
    Var threshold = multiplier_ ? scale(t, t.param(threshold_), length_) : t.param(threshold_);  // L_thr
    if (pos.contiguous() && static_cast<Real>(L - 1) < t.value(threshold)[0]) {
      // Every pair's denominator is psi(L_thr): f of each offset u - t = j - (L - 1).
      const Grid r = relatives_.get(L, [&] { return make_relative(L); });
      return AttentionBias{reshape(t, mlp_of_ratio(t, c, threshold, r, false), Shape{heads_, 2 * L - 1}), true};
    }
    // The (L, L) grid is built (and cached) only here. Causal: the keys j <= i only.
    const Grid g = pos.contiguous() ? grids_.get(L, [&] { return make_grid(pos); }) : make_grid(pos);
    return AttentionBias{mlp_of_ratio(t, c, threshold, g, causal_), false};
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
  struct Grid {
    Tensor distances;   // (D, 1): 0, 1, ..., D - 1, every distance between two positions
    Tensor reaches;     // (L, 1): the positions, pos.at(k)
    TensorI32 distance; // (L, L): |pos(i) - pos(j)|, a row of `distances`
    TensorI32 reach;    // (L, L): the row of `reaches` holding max(pos(i), pos(j)); i when causal
    Tensor sign;        // (L, L): sign(pos(i) - pos(j)): 1, 0 or -1
  };

  // At positions pos.at(i), pos.at(j).
  Grid make_grid(const Positions& pos) const {
    const int64_t L = pos.length;
    int64_t lo = pos.at(0), hi = pos.at(0);
    for (int64_t i = 1; i < L; ++i) lo = std::min(lo, pos.at(i)), hi = std::max(hi, pos.at(i));
    const int64_t D = hi - lo + 1;
    Grid g{Tensor::empty(Shape{D, 1}), Tensor::empty(Shape{L, 1}), TensorI32::empty(Shape{L, L}),
           TensorI32::empty(Shape{L, L}), Tensor::empty(Shape{L, L})};
    for (int64_t d = 0; d < D; ++d) g.distances[d] = static_cast<Real>(d);
    for (int64_t k = 0; k < L; ++k) g.reaches[k] = static_cast<Real>(pos.at(k));
    for (int64_t i = 0; i < L; ++i)
      for (int64_t j = 0; j < L; ++j) {
        const int64_t r = i * L + j;
        const int64_t pi = pos.at(i), pj = pos.at(j);
        g.distance[r] = static_cast<int32_t>(pi > pj ? pi - pj : pj - pi);
        g.sign[r] = static_cast<Real>(pi > pj ? 1 : (pi < pj ? -1 : 0));
        g.reach[r] = static_cast<int32_t>(causal_ || pi >= pj ? i : j);
      }
    return g;
  }

  // f, heads first (H, grid shape), of x = sign psi(distance) / psi(max(L_thr, reach)) at
  // every entry of the grid: psi of each distance and of each reach once (D and L values,
  // not L^2: log1p is the costly part), then looked up per entry; one op each
  // (lookup_ratio, scalar_mlp), with lower_triangle the entries j <= i only.
  Var mlp_of_ratio(Tape& t, Var c, Var threshold, const Grid& g, bool lower_triangle) {
    Var psi_distance = log1p(t, mul(t, c, t.input(g.distances)));  // (D, 1)
    // max(L_thr, m) = m + relu(L_thr - m), m = max(i, j) (the query position i when causal)
    Var reach = add(t, t.input(g.reaches), relu(t, sub(t, threshold, t.input(g.reaches))));
    Var psi_reach = log1p(t, mul(t, c, reach));
    Var x = lookup_ratio(t, reshape(t, psi_distance, Shape{g.distances.numel()}),
                         reshape(t, psi_reach, Shape{g.reaches.numel()}), g.distance, g.reach, g.sign,
                         lower_triangle);  // in [-1, 1]
    return scalar_mlp(t, x, t.param(fc1_.weight), t.param(fc1_.bias), t.param(fc2_.weight), t.param(fc2_.bias),
                      lower_triangle);
  }

  // Contiguous positions below the threshold, per offset u - t = j - (L - 1), j < 2L - 1:
  // distances (L, 1), reaches (1, 1) (position 0, whose reach is L_thr), distance |u - t|,
  // reach 0 and sign(t - u), each (1, 2L - 1).
  static Grid make_relative(int64_t L) {
    const int64_t W = 2 * L - 1;
    Grid r{Tensor::empty(Shape{L, 1}), Tensor::zeros(Shape{1, 1}), TensorI32::empty(Shape{1, W}),
           TensorI32::empty(Shape{1, W}), Tensor::empty(Shape{1, W})};
    for (int64_t d = 0; d < L; ++d) r.distances[d] = static_cast<Real>(d);
    for (int64_t j = 0; j < W; ++j) {
      const int64_t offset = j - (L - 1);  // u - t
      r.distance[j] = static_cast<int32_t>(offset < 0 ? -offset : offset);
      r.reach[j] = 0;
      r.sign[j] = static_cast<Real>(offset < 0 ? 1 : (offset > 0 ? -1 : 0));
    }
    return r;
  }

  int64_t heads_;
  Real length_;                     // L, the training length
  bool multiplier_;                 // threshold_ is m (L_thr = m L), else L_thr itself
  Linear fc1_, fc2_;                // f: 1 -> hidden -> H
  Parameter c_, threshold_;         // (1) each
  bool causal_;
  TableCache<int64_t, Grid> grids_;  // by length
  TableCache<int64_t, Grid> relatives_;  // by length, below L_thr
};

}  // namespace

EncodingInfo encoding_info_fire() {
  return {
      .name = "fire",
      .summary = "bias: MLP of psi(i - j) / psi(max(L_thr, i)), psi(x) = log(c x + 1), c and L_thr = m L learned",
      .options = {{"fire-hidden", OptionType::Int, "32", "width of FIRE's MLP (1 -> hidden -> heads)", ">= 1",
                   [](double v) { return v >= 1; }},
                  {"fire-init", OptionType::Text, "torch",
                   "MLP init: torch (nn.Linear's U(+-1/sqrt(fan_in)), the authors') or normal (N(0, 0.02), zero bias)"},
                  {"fire-threshold", OptionType::Text, "multiplier",
                   "what is learned: multiplier (m, L_thr = m L, the authors') or length (L_thr itself)"}},
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<FireEncoding>(c);
      },
      .check = check_fire_options,
      .in_default_study = false,
      .changes = {{2, "its MLP now starts as the authors' nn.Linear layers (weights and biases U(+-1/sqrt(fan_in))) "
                      "and L_thr is learned as a multiplier m of the training length (L_thr = m L); older FIRE "
                      "checkpoints hold N(0, 0.02) weights, zero biases and L_thr itself (--fire-init normal "
                      "--fire-threshold length now trains that FIRE)"}},
  };
}

}  // namespace ordo
