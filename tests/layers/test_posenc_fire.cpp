// tests/layers/test_posenc_fire.cpp: FIRE (docs/spec.md §2.10): the bias is the MLP of the
// normalised distance, relative within the threshold (returned in relative form there, with
// the full form's values), equal causal and bidirectional below
// the diagonal, and it tells before from after.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/ops.h"
#include "layers/posenc/encoding.h"
#include "tests/layers/model_fixtures.h"
#include "tests/test_tensors.h"

using namespace ordo;
using namespace ordo::testing;

namespace {

constexpr int64_t kHeads = 3;

EncodingConfig fire_config(bool causal, int64_t train_len, const char* threshold = "multiplier",
                           const char* init = "torch") {
  EncodingConfig cfg;
  cfg.d_model = 8 * kHeads;
  cfg.n_heads = kHeads;
  cfg.causal = causal;
  cfg.train_positions = train_len;
  cfg.seed = 13;
  cfg.options.set("fire-hidden", "8");
  cfg.options.set("fire-threshold", threshold);
  cfg.options.set("fire-init", init);
  return cfg;
}

std::unique_ptr<PositionalEncoding> make_fire(bool causal, int64_t train_len, const char* threshold = "multiplier") {
  auto enc = make_encoding("fire", fire_config(causal, train_len, threshold));
  // Weights that make every hidden unit's kink land somewhere different.
  uint64_t k = 1;
  for (Parameter* p : enc->parameters())
    if (p->name.find(".fc") != std::string::npos)
      for (int64_t i = 0; i < p->value.numel(); ++i, ++k) p->value[i] = static_cast<Real>(std::sin(1.7 * double(k)));
  return enc;
}

// The bias as (H, L, L): the relative form (every position within L_thr) expanded.
Tensor full_bias(PositionalEncoding& enc, int64_t L) {
  Tape t;
  auto b = enc.bias(t, Positions{1, L, {static_cast<int32_t>(L)}});
  REQUIRE(b.has_value());
  Var v = b->relative ? expand_relative(t, b->values, L, L) : b->values;
  REQUIRE(t.shape(v) == Shape{kHeads, L, L});
  return t.value(v).clone();
}

// f(x)_h from the parameters, in double: fc2(relu(fc1(x))).
double mlp(PositionalEncoding& enc, double x, int64_t h) {
  const Tensor w1 = parameter_named(enc, "posenc.fire.fc1.weight").value, b1 = parameter_named(enc, "posenc.fire.fc1.bias").value;
  const Tensor w2 = parameter_named(enc, "posenc.fire.fc2.weight").value, b2 = parameter_named(enc, "posenc.fire.fc2.bias").value;
  const int64_t hidden = w1.dim(1);
  double out = b2[h];
  for (int64_t k = 0; k < hidden; ++k) out += std::max(0.0, x * w1[k] + b1[k]) * w2[k * kHeads + h];
  return out;
}

// L_thr: m L with the multiplier, else the parameter itself.
double threshold_of(PositionalEncoding& enc, int64_t train_len) {
  for (Parameter* p : enc.parameters()) {
    if (p->name == "posenc.fire.threshold_multiplier") return p->value[0] * double(train_len);
    if (p->name == "posenc.fire.threshold") return p->value[0];
  }
  FAIL("fire has no threshold parameter");
  return 0;
}

}  // namespace

TEST_CASE("fire: the bias is f(psi(i - j) / psi(max(L_thr, i))) below the diagonal", "[posenc][fire]") {
  for (const char* threshold : {"multiplier", "length"})
  for (bool causal : {false, true}) {
    INFO("--fire-threshold " << threshold << ", causal " << causal);
    auto enc = make_fire(causal, 6, threshold);
    const double c = parameter_named(*enc, "posenc.fire.c").value[0], thr = threshold_of(*enc, 6);
    REQUIRE(c == Approx(0.1));
    REQUIRE(thr == 6);  // L_thr starts at the training length either way
    const int64_t L = 12;
    const Tensor b = full_bias(*enc, L);
    auto psi = [c](double x) { return std::log(1 + c * x); };
    for (int64_t h = 0; h < kHeads; ++h)
      for (int64_t i = 0; i < L; ++i)
        for (int64_t j = 0; j <= i; ++j) {
          INFO("h " << h << " i " << i << " j " << j);
          const double x = psi(double(i - j)) / psi(std::max(thr, double(i)));
          CHECK(b[(h * L + i) * L + j] == Approx(mlp(*enc, x, h)).epsilon(1e-5).margin(1e-6));
        }
  }
}

TEST_CASE("fire: within the threshold the bias depends on i - j only, beyond it on the ratio", "[posenc][fire]") {
  auto enc = make_fire(false, 10);
  const int64_t L = 20;
  const Tensor b = full_bias(*enc, L);
  auto at = [&](int64_t h, int64_t i, int64_t j) { return b[(h * L + i) * L + j]; };
  for (int64_t h = 0; h < kHeads; ++h)
    for (int64_t i = 0; i + 1 < 10; ++i)
      for (int64_t j = 0; j + 1 < 10; ++j) CHECK(at(h, i + 1, j + 1) == Approx(at(h, i, j)).margin(1e-6));
  // Beyond L_thr the same distance means less: at i = 19 the distance 5 is normalised by
  // psi(19), not psi(10), so it is not the value of i = 9.
  bool differs = false;
  for (int64_t h = 0; h < kHeads; ++h) differs |= std::fabs(at(h, 19, 14) - at(h, 9, 4)) > 1e-4;
  CHECK(differs);
}

TEST_CASE("fire: bidirectional attention tells keys before the query from keys after it", "[posenc][fire]") {
  auto bi = make_fire(false, 8), causal = make_fire(true, 8);
  const int64_t L = 8;
  const Tensor b = full_bias(*bi, L), cb = full_bias(*causal, L);
  bool asymmetric = false;
  for (int64_t h = 0; h < kHeads; ++h)
    for (int64_t i = 0; i < L; ++i)
      for (int64_t j = 0; j < L; ++j) {
        if (j <= i) CHECK(b[(h * L + i) * L + j] == cb[(h * L + i) * L + j]);  // the paper's form below the diagonal
        if (j > i) asymmetric |= std::fabs(b[(h * L + i) * L + j] - b[(h * L + j) * L + i]) > 1e-4;
      }
  CHECK(asymmetric);
}

// Positions 0 .. L - 1 spelled out are not contiguous() to the encoding: the full form.
TEST_CASE("fire: within the threshold the bias comes in relative form, the full form's values and gradients",
          "[posenc][fire]") {
  for (bool causal : {false, true})
    for (int64_t L : {int64_t(7), int64_t(9), int64_t(10)}) {  // L_thr = 9: relative while L - 1 < 9
      INFO("causal " << causal << " L " << L);
      auto enc = make_fire(causal, 9);
      Positions contiguous{1, L, {static_cast<int32_t>(L)}}, spelled = contiguous;
      for (int64_t i = 0; i < L; ++i) spelled.index.push_back(static_cast<int32_t>(i));
      const Tensor weights = test::uniform_tensor(Shape{kHeads, L, L}, 7, 8, -1, 1);
      auto run = [&](const Positions& pos, bool& relative) {
        for (Parameter* p : enc->parameters()) p->grad = Tensor::zeros(p->value.shape());
        Tape t;
        auto b = enc->bias(t, pos);
        relative = b->relative;
        Var v = b->relative ? expand_relative(t, b->values, L, L) : b->values;
        Tensor w = weights.clone();  // the keys a causal query does not see take no weight
        for (int64_t h = 0; h < kHeads; ++h)
          for (int64_t i = 0; i < L; ++i)
            for (int64_t j = i + 1; j < L && causal; ++j) w[(h * L + i) * L + j] = 0;
        t.backward(sum(t, mul(t, v, t.input(w))));
        std::vector<Tensor> grads;
        for (Parameter* p : enc->parameters()) grads.push_back(p->grad.clone());
        Tensor values = t.value(v).clone();
        for (int64_t h = 0; h < kHeads; ++h)
          for (int64_t i = 0; i < L; ++i)
            for (int64_t j = i + 1; j < L && causal; ++j) values[(h * L + i) * L + j] = 0;
        return std::pair{values, grads};
      };
      bool rel_a = false, rel_b = true;
      const auto [va, ga] = run(contiguous, rel_a);
      const auto [vb, gb] = run(spelled, rel_b);
      CHECK(rel_a == (L - 1 < 9));
      CHECK_FALSE(rel_b);
      for (int64_t i = 0; i < va.numel(); ++i) CHECK(va[i] == vb[i]);  // the same x, the same f
      for (size_t k = 0; k < ga.size(); ++k)
        for (int64_t i = 0; i < ga[k].numel(); ++i)
          CHECK(ga[k][i] == Approx(gb[k][i]).epsilon(1e-5).margin(1e-5));  // summed in another order
    }
}

TEST_CASE("fire: c and L_thr are bounded (projected after every update)", "[posenc][fire]") {
  for (const char* threshold : {"multiplier", "length"}) {
    INFO("--fire-threshold " << threshold);
    auto enc = make_fire(true, 4, threshold);
    Parameter& c = parameter_named(*enc, "posenc.fire.c");
    Parameter& thr = *enc->parameters().back();  // m or L_thr
    c.value[0] = -3;
    thr.value[0] = -7;
    c.project();
    thr.project();
    CHECK(c.value[0] == Real(1e-3));
    CHECK(threshold_of(*enc, 4) == Approx(1));  // L_thr >= 1: m >= 1 / L
    const Tensor b = full_bias(*enc, 6);
    for (int64_t i = 0; i < b.numel(); ++i) CHECK(std::isfinite(b[i]));
  }
}

TEST_CASE("fire: the multiplier m moves L_thr L times as far as L_thr itself for the same gradient step", "[posenc][fire]") {
  // The same bias at the same L_thr, so dloss/dm = L dloss/dL_thr (L_thr = m L): an Adam step
  // of a given size on m moves L_thr by L times as much (issue 31).
  const int64_t train_len = 6, L = 12;
  auto gradient = [&](const char* threshold) {
    auto enc = make_fire(true, train_len, threshold);
    Parameter& thr = *enc->parameters().back();
    thr.value[0] = std::string(threshold) == "multiplier" ? Real(4.5 / train_len) : Real(4.5);  // L_thr = 4.5
    Tape t;
    auto b = enc->bias(t, Positions{1, L, {static_cast<int32_t>(L)}});
    Var loss = sum(t, mul(t, b->values, b->values));
    for (Parameter* p : enc->parameters()) p->grad = Tensor::zeros(p->value.shape());
    t.backward(loss);
    return std::pair{double(thr.grad[0]), t.value(loss)[0]};
  };
  auto [g_m, loss_m] = gradient("multiplier");
  auto [g_l, loss_l] = gradient("length");
  CHECK(loss_m == Approx(loss_l).epsilon(1e-5));
  REQUIRE(std::fabs(g_l) > 1e-6);
  CHECK(g_m == Approx(double(train_len) * g_l).epsilon(1e-4));
}

TEST_CASE("fire: --fire-init torch draws the listing's nn.Linear init, normal ordo's first one", "[posenc][fire]") {
  const int64_t hidden = 8;
  auto torch_init = make_encoding("fire", fire_config(true, 6, "multiplier", "torch"));
  auto normal_init = make_encoding("fire", fire_config(true, 6, "multiplier", "normal"));
  // U(+-1/sqrt(fan_in)): fc1 (fan_in 1) in (-1, 1), fc2 (fan_in 8) in +-0.354, biases alike.
  for (auto [name, bound] : {std::pair{"posenc.fire.fc1.weight", 1.0}, {"posenc.fire.fc1.bias", 1.0},
                             {"posenc.fire.fc2.weight", 1 / std::sqrt(double(hidden))},
                             {"posenc.fire.fc2.bias", 1 / std::sqrt(double(hidden))}}) {
    INFO(name);
    const Tensor& v = parameter_named(*torch_init, name).value;
    double most = 0, sum = 0;
    for (int64_t i = 0; i < v.numel(); ++i) {
      CHECK(std::fabs(v[i]) < bound);
      most = std::max(most, std::fabs(double(v[i])));
      sum += v[i];
    }
    CHECK(most > 0.4 * bound);  // spread over the interval, not near 0
    CHECK(std::fabs(sum / double(v.numel())) < 0.6 * bound);
  }
  // The weights and biases are drawn from different streams.
  CHECK(parameter_named(*torch_init, "posenc.fire.fc1.weight").value[0] !=
        parameter_named(*torch_init, "posenc.fire.fc1.bias").value[0]);
  // normal: zero biases, N(0, 0.02) weights.
  for (const char* name : {"posenc.fire.fc1.bias", "posenc.fire.fc2.bias"}) {
    const Tensor& v = parameter_named(*normal_init, name).value;
    for (int64_t i = 0; i < v.numel(); ++i) CHECK(v[i] == 0);
  }
  const Tensor& w = parameter_named(*normal_init, "posenc.fire.fc2.weight").value;
  double sq = 0;
  for (int64_t i = 0; i < w.numel(); ++i) sq += double(w[i]) * w[i];
  CHECK(std::sqrt(sq / double(w.numel())) == Approx(0.02).epsilon(0.35));
  // The listing's init makes f vary with x at step 0; ordo's first init left it nearly flat.
  auto spread = [](PositionalEncoding& enc) {
    Tape t;
    auto b = enc.bias(t, Positions{1, 12, {12}});
    const Tensor& v = t.value(b->values);
    double lo = 1e9, hi = -1e9;
    for (int64_t i = 0; i < 12; ++i) lo = std::min(lo, double(v[11 * 12 + i])), hi = std::max(hi, double(v[11 * 12 + i]));
    return hi - lo;  // head 0, query 11, every key
  };
  CHECK(spread(*torch_init) > 20 * spread(*normal_init));
}
