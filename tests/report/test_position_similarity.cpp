// tests/report/test_position_similarity.cpp: what `ordo inspect-pe` draws (docs/spec.md §6)
// for the contextual hook: cope at uniform content is dh * p with p = sigmoid(sqrt(d_h)) (t - u + 1);
// for a widening rotate hook: pope's polar query against its key; for the relative-keys hook:
// transformer_xl with W_R = I, u = v = 0 is the mean over heads of each head's slice of the
// sinusoid R_{t-u}, summed, over sqrt(d_h).
#include <catch2/catch.hpp>

#include <cmath>

#include "layers/posenc/encoding.h"
#include "report/position_similarity.h"

using namespace ordo;
using Catch::Matchers::Contains;

TEST_CASE("position similarity of cope: its contextual term at q = k = ones", "[report][inspect]") {
  const int64_t L = 6, d = 8, heads = 2, dh = d / heads, P = 10;
  EncodingConfig cfg;
  cfg.d_model = d;
  cfg.n_heads = heads;
  cfg.causal = true;
  cfg.options.set("cope-positions", std::to_string(P));
  auto enc = make_encoding("cope", cfg);
  Tensor& e = enc->parameters()[0]->value;  // row k = (k, k, ..., k): q . e[p] = dh p, linear in p
  for (int64_t k = 0; k < P; ++k)
    for (int64_t c = 0; c < dh; ++c) e[k * dh + c] = static_cast<Real>(k);
  const PositionSimilarity s = position_similarity(*enc, L, d, heads);
  CHECK_THAT(s.what, Contains("contextual term of layer 0"));
  const double g = 1 / (1 + std::exp(-std::sqrt(double(dh))));
  for (int64_t t = 0; t < L; ++t)
    for (int64_t u = 0; u < L; ++u) {
      INFO("t " << t << " u " << u);
      const double want = u <= t ? double(dh) * g * double(t - u + 1) : 0.0;
      CHECK(s.values[static_cast<size_t>(t * L + u)] == Approx(want).epsilon(1e-5).margin(1e-5));
    }
  auto none = make_encoding("none", cfg);
  CHECK_THAT(position_similarity(*none, L, d, heads).what, Contains("no positional term"));
}

TEST_CASE("position similarity of transformer_xl: its relative keys at q = k = ones", "[report][inspect]") {
  const int64_t L = 5, d = 8, heads = 2, dh = d / heads;
  EncodingConfig cfg;
  cfg.d_model = d;
  cfg.n_heads = heads;
  auto enc = make_encoding("transformer_xl", cfg);  // one layer: W_R, u, v
  const std::vector<Parameter*> params = enc->parameters();
  REQUIRE(params.size() == 3);
  Tensor& w = params[0]->value;
  for (int64_t i = 0; i < d * d; ++i) w[i] = (i / d == i % d) ? 1 : 0;
  params[1]->value.fill(0);
  params[2]->value.fill(0);
  const PositionSimilarity s = position_similarity(*enc, L, d, heads);
  CHECK_THAT(s.what, Contains("relative-key terms of layer 0"));
  for (int64_t t = 0; t < L; ++t)
    for (int64_t u = 0; u < L; ++u) {
      double sum = 0;  // every entry of R_{t-u}: sines then cosines of (t - u) 10000^(-2m/d)
      for (int64_t m = 0; m < d / 2; ++m) {
        const double a = double(t - u) * std::pow(10000.0, -2.0 * double(m) / double(d));
        sum += std::sin(a) + std::cos(a);
      }
      INFO("t " << t << " u " << u);
      CHECK(s.values[static_cast<size_t>(t * L + u)] == Approx(sum / double(heads) / std::sqrt(double(dh))).margin(1e-5));
    }
}

TEST_CASE("position similarity of pope: its polar query against its key, 2 d_h wide", "[report][inspect]") {
  // q = k = ones: magnitudes softplus(1), so S(t, u) = softplus(1)^2 sum_c cos((u - t) theta_c +
  // delta_c), the same in every head at delta = 0.
  const int64_t L = 5, d = 8, heads = 2, dh = d / heads;
  EncodingConfig cfg;
  cfg.d_model = d;
  cfg.n_heads = heads;
  auto enc = make_encoding("pope", cfg);
  const PositionSimilarity s = position_similarity(*enc, L, d, heads);
  CHECK_THAT(s.what, Contains("after the rotate hook"));
  const double mu = std::log1p(std::exp(1.0));
  for (int64_t t = 0; t < L; ++t)
    for (int64_t u = 0; u < L; ++u) {
      double want = 0;
      for (int64_t c = 0; c < dh; ++c) want += mu * mu * std::cos(double(u - t) * std::pow(10000.0, -double(c) / dh));
      INFO("t " << t << " u " << u);
      CHECK(s.values[static_cast<size_t>(t * L + u)] == Approx(want).epsilon(1e-5));
    }
}
