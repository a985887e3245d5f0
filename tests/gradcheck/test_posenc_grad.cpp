// tests/gradcheck/test_posenc_grad.cpp: float64 gradient checks of the positional ops
// (rotate_pairs, polar, scalar_mlp, lookup_ratio, expand_relative, clamp) and of the learned encodings through their
// hooks (the t5 bias table, the learned position table, rope's and pope's rotate hooks).
#include <catch2/catch.hpp>

#include <array>
#include <cmath>

#include "core/gradcheck.h"
#include "core/ops.h"
#include "core/rng.h"
#include "layers/posenc/encoding.h"
#include "tests/gradcheck/test_ops_helpers.h"
#include "tests/test_tensors.h"

using namespace ordo;

namespace {

Tensor uniform(const Shape& shape, uint64_t stream, double lo = -1, double hi = 1) {
  return test::uniform_tensor(shape, 17, stream, lo, hi);
}

}  // namespace

TEST_CASE("rotate_pairs gradients (shared and per-sequence angles)", "[posenc][gradcheck]") {
  const int64_t B = 2, H = 3, L = 5, D = 6;
  Tensor angles = uniform({L, D / 2}, 1, -4, 4);
  Tensor c = Tensor::empty(angles.shape()), s = Tensor::empty(angles.shape());
  for (int64_t i = 0; i < angles.numel(); ++i) c[i] = std::cos(angles[i]), s[i] = std::sin(angles[i]);
  REQUIRE_GRADS_OK(check_gradients(
      [&](Tape& t, const std::vector<Var>& v) { return rotate_pairs(t, v[0], c, s); },
      {uniform({B, H, L, D}, 2)}));
  // Composed: rotate, then a product that mixes the pairs.
  REQUIRE_GRADS_OK(check_gradients(
      [&](Tape& t, const std::vector<Var>& v) {
        return matmul(t, rotate_pairs(t, v[0], c, s), v[1], false, true);
      },
      {uniform({L, D}, 3), uniform({L, D}, 4)}));
  // Per-sequence angles (B, L, D/2).
  Tensor ab = uniform({B, L, D / 2}, 5, -4, 4);
  Tensor cb = Tensor::empty(ab.shape()), sb = Tensor::empty(ab.shape());
  for (int64_t i = 0; i < ab.numel(); ++i) cb[i] = std::cos(ab[i]), sb[i] = std::sin(ab[i]);
  REQUIRE_GRADS_OK(check_gradients(
      [&](Tape& t, const std::vector<Var>& v) { return rotate_pairs(t, v[0], cb, sb); },
      {uniform({B, H, L, D}, 6)}));
}

TEST_CASE("polar gradients (magnitudes, and the phase summed over rows)", "[posenc][gradcheck]") {
  const int64_t B = 2, L = 5, D = 6;
  Tensor angles = uniform({L, D}, 50, -4, 4);
  Tensor c = Tensor::empty(angles.shape()), s = Tensor::empty(angles.shape());
  for (int64_t i = 0; i < angles.numel(); ++i) c[i] = std::cos(angles[i]), s[i] = std::sin(angles[i]);
  REQUIRE_GRADS_OK(check_gradients([&](Tape& t, const std::vector<Var>& v) { return polar(t, v[0], c, s); },
                                   {uniform({B, L, D}, 51, 0.1, 2)}));
  // With a phase, through a product that mixes the pairs (the phase's gradient is a sum over
  // every row of every batch entry).
  REQUIRE_GRADS_OK(check_gradients(
      [&](Tape& t, const std::vector<Var>& v) {
        Var y = polar(t, v[0], c, s, v[1]);  // (B, L, 2D)
        return matmul(t, y, v[2], false, true);
      },
      {uniform({B, L, D}, 52, 0.1, 2), uniform({D}, 53, -6, 0), uniform({B, L, 2 * D}, 54)}));
}

namespace {

// scalar_mlp's reference: linear (1 -> K), relu, linear (K -> H) on the (R C, 1) column, the
// heads moved first, and with lower_triangle the entries c > r zeroed.
Var scalar_mlp_composed(Tape& t, const std::vector<Var>& v, bool lower_triangle) {
  const Shape xs = t.shape(v[0]);
  const int64_t R = xs[0], C = xs[1], H = t.shape(v[3])[1];
  Var col = reshape(t, v[0], Shape{R * C, 1});
  Var hidden = relu(t, add(t, matmul(t, col, v[1]), v[2]));
  Var y = add(t, matmul(t, hidden, v[3]), v[4]);  // (R C, H)
  y = reshape(t, permute(t, y, {1, 0}), Shape{H, R, C});
  if (!lower_triangle) return y;
  Tensor keep = Tensor::zeros(Shape{1, R, C});
  for (int64_t r = 0; r < R; ++r)
    for (int64_t c = 0; c <= std::min(r, C - 1); ++c) keep[r * C + c] = 1;
  return mul(t, y, t.input(keep));
}

}  // namespace

TEST_CASE("scalar_mlp (FIRE's MLP): gradients, and the composition of linear, relu, linear", "[posenc][gradcheck]") {
  for (bool lower : {false, true})
    for (auto [R, C, K, H] : std::vector<std::array<int64_t, 4>>{{1, 1, 1, 1}, {4, 4, 3, 2}, {5, 3, 4, 3}, {3, 7, 2, 1}, {3, 5, 2, 5}}) {
      INFO("R " << R << " C " << C << " K " << K << " H " << H << " lower triangle " << lower);
      const uint64_t seed = static_cast<uint64_t>(60 + 10 * R + C + 3 * lower);
      const std::vector<Tensor> inputs = {uniform({R, C}, seed, 0, 1), uniform({1, K}, seed + 1, -2, 2),
                                          uniform({K}, seed + 2), uniform({K, H}, seed + 3), uniform({H}, seed + 4)};
      REQUIRE_GRADS_OK(check_gradients(
          [&](Tape& t, const std::vector<Var>& v) { return scalar_mlp(t, v[0], v[1], v[2], v[3], v[4], lower); },
          inputs));
      // Values and every gradient as the composition's, to rounding.
      auto run = [&](bool fused) {
        std::vector<Parameter> ps;
        for (size_t i = 0; i < inputs.size(); ++i) {
          std::string name = "p";
          name += std::to_string(i);
          ps.emplace_back(name, inputs[i].clone());
        }
        Tape t;
        std::vector<Var> v;
        for (Parameter& p : ps) v.push_back(t.param(p));
        Var y = fused ? scalar_mlp(t, v[0], v[1], v[2], v[3], v[4], lower) : scalar_mlp_composed(t, v, lower);
        std::vector<Tensor> out = {t.value(y).clone()};
        t.backward(sum(t, mul(t, y, t.input(uniform(t.shape(y), seed + 5)))));
        for (Parameter& p : ps) out.push_back(p.grad);
        return out;
      };
      const auto fused = run(true), composed = run(false);
      for (size_t i = 0; i < fused.size(); ++i) {
        INFO("output or gradient " << i << ": max abs diff " << max_abs_diff(fused[i], composed[i]));
        REQUIRE(fused[i].shape() == composed[i].shape());
        REQUIRE(max_abs_diff(fused[i], composed[i]) <= 1e-12);
      }
    }
}

TEST_CASE("lookup_ratio (FIRE's normalised distance): values by hand and gradients", "[posenc][gradcheck]") {
  // Indices repeat (the scatters add) and one entry of num is never read.
  const TensorI32 a = TensorI32::from(Shape{2, 3}, {0, 1, 2, 1, 0, 0});
  const TensorI32 b = TensorI32::from(Shape{2, 3}, {0, 0, 1, 1, 1, 0});
  const Tensor sign = Tensor::from(Shape{2, 3}, {1, -1, 0, 1, 1, -1});
  Parameter num("num", Tensor::from(Shape{4}, {0.5, 2, 3, 7})), den("den", Tensor::from(Shape{2}, {2, 4}));
  Tape t;
  Var x = lookup_ratio(t, t.param(num), t.param(den), a, b, sign);
  CHECK(t.value(x).to_vector() == std::vector<Real>{0.25, -1, 0, 0.5, 0.125, -0.25});
  REQUIRE_GRADS_OK(check_gradients(
      [&](Tape& t, const std::vector<Var>& v) { return lookup_ratio(t, v[0], v[1], a, b, sign); },
      {uniform({4}, 71, -2, 2), uniform({2}, 72, 0.5, 2)}));
}

TEST_CASE("clamp passes the gradient inside its bounds and at them, and none outside", "[posenc][gradcheck]") {
  // Finite differences hold away from the bounds; at a bound, PyTorch's rule: it passes.
  REQUIRE_GRADS_OK(check_gradients([](Tape& t, const std::vector<Var>& v) { return clamp(t, v[0], -1, 2); },
                                   {Tensor::from(Shape{6}, {-3, -1.5, -0.5, 0.25, 1.75, 4})}));
  Parameter p("x", Tensor::from(Shape{4}, {-2, -1, 2, 3}));
  Tape t;
  Var y = clamp(t, t.param(p), -1, 2);
  CHECK(t.value(y).to_vector() == std::vector<Real>{-1, -1, 2, 2});
  t.backward(sum(t, y));
  CHECK(p.grad.to_vector() == std::vector<Real>{0, 1, 1, 0});
}

TEST_CASE("expand_relative gradients (square and rectangular)", "[posenc][gradcheck]") {
  for (auto [H, Lq, Lk] : std::vector<std::array<int64_t, 3>>{{1, 1, 1}, {3, 4, 4}, {2, 3, 6}, {2, 5, 2}}) {
    INFO("H " << H << " Lq " << Lq << " Lk " << Lk);
    REQUIRE_GRADS_OK(check_gradients(
        [Lq, Lk](Tape& t, const std::vector<Var>& v) { return expand_relative(t, v[0], Lq, Lk); },
        {uniform({H, Lq + Lk - 1}, 10 + Lq * 7 + Lk)}));
  }
}

TEST_CASE("t5 bias table gradients through the bias hook", "[posenc][gradcheck]") {
  EncodingConfig cfg;
  cfg.d_model = 8;
  cfg.n_heads = 2;
  cfg.options.set("t5-buckets", "8"); // small table so every bucket is hit: exact |r| < 2, log-spaced beyond
  cfg.options.set("t5-max-distance", "6");
  cfg.seed = 3;
  auto enc = make_encoding("t5", cfg);
  const int64_t L = 7;
  Tensor R = uniform({cfg.n_heads, L, L}, 20);
  auto loss = [&](Tape& t) {
    auto b = enc->bias(t, Positions{1, L, {L}});
    REQUIRE(b.has_value());
    Var full = expand_relative(t, b->values, L, L);
    return sum(t, mul(t, full, t.input(R)));
  };
  REQUIRE_GRADS_OK(check_parameter_gradients(loss, enc->parameters()));
  // The table really receives gradient: every bucket is used at L = 7 except bucket
  // num_buckets / 2 ("u > t at distance 0"), which T5's bucketing never produces.
  const Tensor& g = enc->parameters()[0]->grad;
  for (int64_t b = 0; b < 8; ++b)
    for (int64_t h = 0; h < cfg.n_heads; ++h) {
      INFO("bucket " << b << " head " << h);
      CHECK((g[b * cfg.n_heads + h] != 0) == (b != 8 / 2));
    }
}

TEST_CASE("learned position table gradients through the embed hook (with clamping)", "[posenc][gradcheck]") {
  EncodingConfig cfg;
  cfg.d_model = 4;
  cfg.max_len = 5;
  cfg.seed = 4;
  auto enc = make_encoding("learned", cfg);
  const int64_t B = 2, L = 8;  // positions 4..7 all read row 4
  Tensor x = uniform({B, L, 4}, 30), R = uniform({B, L, 4}, 31);
  auto loss = [&](Tape& t) {
    Var y = enc->embed(t, t.input(x), Positions{B, L, {8, 6}});
    return sum(t, mul(t, mul(t, y, y), t.input(R)));  // nonlinear in the table
  };
  REQUIRE_GRADS_OK(check_parameter_gradients(loss, enc->parameters()));
}

TEST_CASE("rope rotate hook gradients w.r.t. q and k", "[posenc][gradcheck]") {
  EncodingConfig cfg;
  cfg.d_model = 12;
  cfg.n_heads = 2;  // d_h = 6
  auto enc = make_encoding("rope", cfg);
  const int64_t B = 2, L = 5;
  REQUIRE_GRADS_OK(check_gradients(
      [&](Tape& t, const std::vector<Var>& v) {
        auto [q, k] = enc->rotate(t, v[0], v[1], Positions{B, L, {5, 5}});  // (B, L, H, d_h)
        const std::vector<int> heads_outer{0, 2, 1, 3};
        return matmul(t, permute(t, q, heads_outer), permute(t, k, heads_outer), false, true);  // (B, H, L, L)
      },
      {uniform({B, L, 2, 6}, 40), uniform({B, L, 2, 6}, 41)}));
}

TEST_CASE("pope rotate hook gradients w.r.t. q, k and the key phase", "[posenc][gradcheck]") {
  EncodingConfig cfg;
  cfg.d_model = 8;
  cfg.n_heads = 2;  // d_h = 4: q~, k~ 8 wide
  cfg.options.set("pope-phase-init", "uniform");  // inside (-2 pi, 0), away from the clamp's bounds
  cfg.seed = 6;
  auto enc = make_encoding("pope", cfg);
  const int64_t B = 2, L = 5;
  Tensor R = uniform({B, 2, L, L}, 44);
  auto scores = [&](Tape& t, Var q, Var k) {
    auto [qp, kp] = enc->rotate(t, q, k, Positions{B, L, {5, 5}});  // (B, L, H, 2 d_h)
    const std::vector<int> heads_outer{0, 2, 1, 3};
    return matmul(t, permute(t, qp, heads_outer), permute(t, kp, heads_outer), false, true);  // (B, H, L, L)
  };
  REQUIRE_GRADS_OK(check_gradients([&](Tape& t, const std::vector<Var>& v) { return scores(t, v[0], v[1]); },
                                   {uniform({B, L, 2, 4}, 42), uniform({B, L, 2, 4}, 43)}));
  Tensor q = uniform({B, L, 2, 4}, 45), k = uniform({B, L, 2, 4}, 46);
  REQUIRE_GRADS_OK(check_parameter_gradients(
      [&](Tape& t) { return sum(t, mul(t, scores(t, t.input(q), t.input(k)), t.input(R))); }, enc->parameters()));
}

TEST_CASE("kerple r1 and r2 gradients through the bias hook (log and power kernels)", "[posenc][gradcheck]") {
  for (const char* name : {"kerple_log", "kerple_power"}) {
    INFO(name);
    EncodingConfig cfg;
    cfg.d_model = 8;
    cfg.n_heads = 2;
    cfg.seed = 5;
    auto enc = make_encoding(name, cfg);
    const int64_t L = 6;
    Tensor R = uniform({cfg.n_heads, L, L}, 50);
    auto loss = [&](Tape& t) {
      auto b = enc->bias(t, Positions{1, L, {L}});
      REQUIRE(b.has_value());
      Var full = expand_relative(t, b->values, L, L);
      return sum(t, mul(t, mul(t, full, full), t.input(R)));  // nonlinear in the bias
    };
    REQUIRE_GRADS_OK(check_parameter_gradients(loss, enc->parameters()));
  }
}

TEST_CASE("fire MLP, c and L_thr gradients through the bias hook, full and relative", "[posenc][gradcheck]") {
  for (const char* threshold : {"multiplier", "length"})
    for (bool causal : {false, true}) {
      INFO("--fire-threshold " << threshold << ", causal " << causal);
      EncodingConfig cfg;
      cfg.d_model = 8;
      cfg.n_heads = 2;
      cfg.causal = causal;
      cfg.train_positions = 4;
      cfg.seed = 6;
      cfg.options.set("fire-hidden", "5");
      cfg.options.set("fire-threshold", threshold);
      auto enc = make_encoding("fire", cfg);
      // Off the kinks: nonzero hidden biases (relu at x = 0) and L_thr = 3.4, between positions.
      CounterRng rng(8, 9);
      for (Parameter* p : enc->parameters()) {
        for (int64_t i = 0; i < p->value.numel(); ++i) p->value[i] += static_cast<Real>(0.5 * rng.normal());
        if (p->name == "posenc.fire.threshold") p->value[0] = Real(3.4);
        if (p->name == "posenc.fire.threshold_multiplier") p->value[0] = Real(3.4 / 4);
        if (p->name == "posenc.fire.c") p->value[0] = Real(0.3);
      }
      // L = 6 reaches past L_thr: the full form; L = 3 stays below it: the relative form.
      for (int64_t L : {int64_t(6), int64_t(3)}) {
        INFO("L " << L);
        Tensor R = uniform({cfg.n_heads, L, L}, 60);
        auto loss = [&](Tape& t) {
          auto b = enc->bias(t, Positions{1, L, {L}});
          REQUIRE(b.has_value());
          REQUIRE(b->relative == (L == 3));
          Var v = b->relative ? expand_relative(t, b->values, L, L) : b->values;
          return sum(t, mul(t, mul(t, v, v), t.input(R)));
        };
        REQUIRE_GRADS_OK(check_parameter_gradients(loss, enc->parameters()));
      }
    }
}

TEST_CASE("t5, kerple and fire gradients through the full bias of randomized positions", "[posenc][gradcheck]") {
  for (const char* name : {"t5", "kerple_log", "kerple_power", "fire"}) {
    INFO(name);
    EncodingConfig cfg;
    cfg.d_model = 8;
    cfg.n_heads = 2;
    cfg.seed = 7;
    cfg.train_positions = 8;  // fire's L_thr: off every position, away from relu's kink
    cfg.options.set("t5-buckets", "8");
    cfg.options.set("t5-max-distance", "12");
    auto enc = make_encoding(name, cfg);
    const int64_t L = 5;
    Positions pos{1, L, {L}, {0, 2, 3, 9, 14}};  // gaps: distances beyond L reach the bias
    Tensor R = uniform({cfg.n_heads, L, L}, 70);
    auto loss = [&](Tape& t) {
      auto b = enc->bias(t, pos);
      REQUIRE(b.has_value());
      REQUIRE_FALSE(b->relative);
      return sum(t, mul(t, mul(t, b->values, b->values), t.input(R)));
    };
    REQUIRE_GRADS_OK(check_parameter_gradients(loss, enc->parameters()));
  }
}

TEST_CASE("cope gradients w.r.t. q, the logits and the position table through its softmax form's contextual term", "[posenc][gradcheck]") {
  EncodingConfig cfg;
  cfg.d_model = 6;
  cfg.n_heads = 2;  // d_h = 3
  cfg.n_layers = 1;
  cfg.causal = true;
  cfg.options.set("cope-positions", "8");  // above every sum here: no clamp
  auto enc = make_encoding("cope", cfg);
  Parameter& table = *enc->parameters()[0];
  for (int64_t i = 0; i < table.value.numel(); ++i) table.value[i] = static_cast<Real>(std::cos(1.3 * double(i)));
  const int64_t B = 2, H = 2, L = 5;
  const Positions pos{B, L, {L, L}};
  Tensor R = uniform({B, H, L, L}, 80);
  auto term_loss = [&](Tape& t, Var q, Var s) {
    const AttentionForm form = enc->form(t, LayerInput{Var{}, Var{}, &pos, 0});
    return sum(t, mul(t, mul(t, std::get<SoftmaxForm>(form).contextual(t, q, q, s), s), t.input(R)));
  };
  const Tensor q0 = uniform({B, H, L, 3}, 81), s0 = uniform({B, H, L, L}, 82, -2, 2);
  REQUIRE_GRADS_OK(check_gradients([&](Tape& t, const std::vector<Var>& v) { return term_loss(t, v[0], v[1]); }, {q0, s0}));
  REQUIRE_GRADS_OK(check_parameter_gradients([&](Tape& t) { return term_loss(t, t.input(q0), t.input(s0)); }, enc->parameters()));
}

TEST_CASE("relative_logits gradients, rows shared by many pairs and rows no pair takes", "[posenc][gradcheck]") {
  const int64_t B = 2, H = 3, L = 4, d = 5, N = 9;
  TensorI32 idx = TensorI32::empty(Shape{L, L + 1});  // a rectangular (Lq, Lk)
  for (int64_t i = 0; i < L; ++i)
    for (int64_t j = 0; j <= L; ++j) idx[i * (L + 1) + j] = static_cast<int32_t>((3 * i + 2 * j) % 7);  // rows 7, 8 unused
  REQUIRE_GRADS_OK(check_gradients(
      [&](Tape& t, const std::vector<Var>& v) { return relative_logits(t, v[0], v[1], idx); },
      {uniform({B, H, L, d}, 120), uniform({N, H, d}, 121)}));
}

TEST_CASE("transformer_xl gradients w.r.t. q, k and its W_R, u and v through its softmax form's relative keys and the fused attention", "[posenc][gradcheck]") {
  EncodingConfig cfg;
  cfg.d_model = 6;
  cfg.n_heads = 2;  // d_h = 3
  cfg.n_layers = 2;
  cfg.seed = 5;
  auto enc = make_encoding("transformer_xl", cfg);
  for (Parameter* p : enc->parameters())  // values of order one, so every term is felt
    for (int64_t i = 0; i < p->value.numel(); ++i) p->value[i] = static_cast<Real>(0.8 * std::sin(0.9 * double(i) + 0.4));
  const int64_t B = 2, H = 2, L = 5;
  const Tensor v0 = uniform({B, L, H, 3}, 132);
  for (bool randomized : {false, true}) {
    INFO((randomized ? "positions 2, 3, 7, 8, 12" : "positions 0..4"));
    Positions pos{B, L, {L, 3}};
    if (randomized) pos.index = {2, 3, 7, 8, 12};
    // The attention of layer 1 with the hook's terms, q, k (B, L, H, d_h).
    auto attend = [&](Tape& t, Var q, Var k) {
      const AttentionForm form = enc->form(t, LayerInput{Var{}, q, &pos, 1});
      const auto& rel = std::get<SoftmaxForm>(form).relative_keys;
      LogitTerms terms;
      terms.relative_keys = rel->keys;
      return fused_attention(t, rel->content_queries, k, t.input(v0), terms, pos.lengths, AttentionMask(false, 0),
                             static_cast<Real>(1 / std::sqrt(3.0)));
    };
    const Tensor q0 = uniform({B, L, H, 3}, 130), k0 = uniform({B, L, H, 3}, 131);
    REQUIRE_GRADS_OK(check_gradients([&](Tape& t, const std::vector<Var>& v) { return attend(t, v[0], v[1]); }, {q0, k0}));
    Tensor R = uniform({B, L, H, 3}, 133);
    REQUIRE_GRADS_OK(check_parameter_gradients(
        [&](Tape& t) { return sum(t, mul(t, attend(t, t.input(q0), t.input(k0)), t.input(R))); }, enc->parameters()));
  }
}
