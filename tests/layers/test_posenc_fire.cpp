// tests/layers/test_posenc_fire.cpp: FIRE (docs/spec.md §2.10): the bias is the MLP of the
// normalised distance, relative within the threshold, equal causal and bidirectional below
// the diagonal, and it tells before from after.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/ops.h"
#include "layers/posenc/encoding.h"
#include "tests/layers/model_fixtures.h"

using namespace ordo;
using namespace ordo::testing;

namespace {

constexpr int64_t kHeads = 3;

std::unique_ptr<PositionalEncoding> make_fire(bool causal, int64_t train_len) {
  EncodingConfig cfg;
  cfg.d_model = 8 * kHeads;
  cfg.n_heads = kHeads;
  cfg.causal = causal;
  cfg.train_positions = train_len;
  cfg.seed = 13;
  cfg.options.set("fire-hidden", "8");
  auto enc = make_encoding("fire", cfg);
  // Weights of a trained-looking size (the N(0, 0.02) init makes f nearly constant).
  uint64_t k = 1;
  for (Parameter* p : enc->parameters())
    if (p->name.find(".fc") != std::string::npos)
      for (int64_t i = 0; i < p->value.numel(); ++i, ++k) p->value[i] = static_cast<Real>(std::sin(1.7 * double(k)));
  return enc;
}

Tensor full_bias(PositionalEncoding& enc, int64_t L) {
  Tape t;
  auto b = enc.bias(t, Positions{1, L, {static_cast<int32_t>(L)}});
  REQUIRE(b.has_value());
  REQUIRE_FALSE(b->relative);
  REQUIRE(t.shape(b->values) == Shape{kHeads, L, L});
  return t.value(b->values).clone();
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

}  // namespace

TEST_CASE("fire: the bias is f(psi(i - j) / psi(max(L_thr, i))) below the diagonal", "[posenc][fire]") {
  for (bool causal : {false, true}) {
    INFO("causal " << causal);
    auto enc = make_fire(causal, 6);
    const double c = parameter_named(*enc, "posenc.fire.c").value[0], thr = parameter_named(*enc, "posenc.fire.threshold").value[0];
    REQUIRE(c == Approx(0.1));
    REQUIRE(thr == 6);
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

TEST_CASE("fire: c and L_thr are bounded (projected after every update)", "[posenc][fire]") {
  auto enc = make_fire(true, 4);
  Parameter& c = parameter_named(*enc, "posenc.fire.c");
  Parameter& thr = parameter_named(*enc, "posenc.fire.threshold");
  c.value[0] = -3;
  thr.value[0] = -7;
  c.project();
  thr.project();
  CHECK(c.value[0] == Real(1e-3));
  CHECK(thr.value[0] == 1);
  const Tensor b = full_bias(*enc, 6);
  for (int64_t i = 0; i < b.numel(); ++i) CHECK(std::isfinite(b[i]));
}
