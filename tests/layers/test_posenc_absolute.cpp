// tests/layers/test_posenc_absolute.cpp: the embed-hook encodings besides sinusoidal:
// learned (clamp), rbf (formula), cyclic (ring, padding), fourier2d (x/y halves, errors).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/ops.h"
#include "layers/posenc/encoding.h"

using namespace ordo;
using Catch::Matchers::Contains;

namespace {

// The embed hook applied to zero embeddings (B, L, d): the positional term itself.
Tensor embed_term(PositionalEncoding& enc, const Positions& pos, int64_t d) {
  Tape t;
  return t.value(enc.embed(t, t.input(Tensor::zeros({pos.batch, pos.length, d})), pos)).clone();
}

double row_dot(const Tensor& pe, int64_t d, int64_t a, int64_t b) {
  double s = 0;
  for (int64_t j = 0; j < d; ++j) s += pe[a * d + j] * pe[b * d + j];
  return s;
}

}  // namespace

TEST_CASE("learned: rows come from the table, positions past max_len reuse the last row", "[posenc][learned]") {
  EncodingConfig cfg;
  cfg.d_model = 6;
  cfg.max_len = 8;
  cfg.seed = 11;
  auto enc = make_encoding("learned", cfg);
  REQUIRE(enc->parameters().size() == 1);
  const Parameter& table = *enc->parameters()[0];
  CHECK(table.name == "posenc.table");
  REQUIRE(table.value.shape() == Shape{8, 6});
  const int64_t L = 12;
  Tensor pe = embed_term(*enc, Positions{2, L, {12, 10}}, 6);
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t p = 0; p < L; ++p)
      for (int64_t j = 0; j < 6; ++j)
        CHECK(pe[(b * L + p) * 6 + j] == table.value[std::min<int64_t>(p, 7) * 6 + j]);
  CHECK(pe[6 * 6] != pe[7 * 6]);  // rows 6 and 7 differ: the clamp is what makes 7..11 equal
  // N(0, 0.02) init: a plausible spread.
  double ss = 0;
  for (int64_t i = 0; i < table.value.numel(); ++i) ss += table.value[i] * table.value[i];
  CHECK(std::sqrt(ss / table.value.numel()) == Approx(0.02).epsilon(0.5));
}

TEST_CASE("learned --learned-init haiku: hk.Embed's default, a N(0, 1) truncated at +-2", "[posenc][learned]") {
  EncodingConfig cfg;
  cfg.d_model = 64;
  cfg.max_len = 512;  // 32768 values
  cfg.seed = 3;
  cfg.options.set("learned-init", "haiku");
  auto enc = make_encoding("learned", cfg);
  const Tensor& p = enc->parameters()[0]->value;
  double sum = 0, ss = 0, largest = 0;
  int64_t beyond_one = 0;
  for (int64_t i = 0; i < p.numel(); ++i) {
    sum += p[i], ss += double(p[i]) * p[i], largest = std::max(largest, std::abs(double(p[i])));
    beyond_one += std::abs(p[i]) > 1;
  }
  const double n = double(p.numel()), mean = sum / n, sd = std::sqrt(ss / n - mean * mean);
  // A standard normal cut at +-2 (not rescaled, as Haiku's TruncatedNormal()): spread
  // sqrt(1 - 4 phi(2) / (2 Phi(2) - 1)) = 0.8796, and P(|z| > 1 | |z| <= 2) = 0.2718 / 0.9545 = 0.2847.
  CHECK(largest <= 2.0);
  CHECK(largest > 1.95);  // the cut, not a narrower law
  CHECK(std::abs(mean) < 0.02);
  CHECK(sd == Approx(0.8796).margin(0.01));
  CHECK(double(beyond_one) / n == Approx(0.2847).margin(0.01));
  // normal (the default) is N(0, 0.02); the two inits are different tables.
  cfg.options.set("learned-init", "normal");
  auto plain = make_encoding("learned", cfg);
  const Tensor& q = plain->parameters()[0]->value;
  double qs = 0;
  for (int64_t i = 0; i < q.numel(); ++i) qs += double(q[i]) * q[i];
  CHECK(std::sqrt(qs / n) == Approx(0.02).epsilon(0.02));
  cfg.options.set("learned-init", "uniform");
  REQUIRE_THROWS_WITH(make_encoding("learned", cfg), Catch::Contains("--learned-init") && Catch::Contains("normal, haiku"));
}

TEST_CASE("rbf: phi(t)_j = exp(-(t - c_j)^2 / (2 sigma^2)) with centres j * max_len / d", "[posenc][rbf]") {
  EncodingConfig cfg;
  cfg.d_model = 8;
  cfg.max_len = 32;  // centres 0, 4, ..., 28; sigma = 4
  auto enc = make_encoding("rbf", cfg);
  Tensor pe = embed_term(*enc, Positions{1, 40, {40}}, 8);
  for (int64_t p = 0; p < 40; ++p)
    for (int64_t j = 0; j < 8; ++j)
      CHECK(pe[p * 8 + j] == Approx(std::exp(-std::pow(p - 4.0 * j, 2) / 32.0)).margin(1e-6));
  CHECK(pe[12 * 8 + 3] == Approx(1));  // t = c_3
  cfg.options.set("rbf-sigma", "2");
  Tensor narrow = embed_term(*make_encoding("rbf", cfg), Positions{1, 40, {40}}, 8);
  CHECK(narrow[10 * 8 + 3] == Approx(std::exp(-4.0 / 8)).margin(1e-6));
}

TEST_CASE("cyclic: a ring over each sequence's own length, padding gets 0", "[posenc][cyclic]") {
  const int64_t d = 8, L = 12;
  EncodingConfig cfg;
  cfg.d_model = d;
  auto enc = make_encoding("cyclic", cfg);
  Tensor pe = embed_term(*enc, Positions{2, L, {12, 7}}, d);
  for (int64_t b = 0; b < 2; ++b) {
    const int64_t len = b == 0 ? 12 : 7;
    const int64_t base = b * L;
    INFO("sequence " << b);
    // Positions 0 and len - 1 are neighbours, just like 0 and 1.
    CHECK(row_dot(pe, d, base, base + len - 1) == Approx(row_dot(pe, d, base, base + 1)).margin(1e-5));
    // The similarity depends on (t - u) mod len only.
    for (int64_t p = 0; p < len; ++p)
      CHECK(row_dot(pe, d, base + p, base + (p + 3) % len) == Approx(row_dot(pe, d, base, base + 3)).margin(1e-5));
    // The definition.
    const double a = 2 * std::numbers::pi * 2 / len;  // t = 2
    CHECK(pe[(base + 2) * d + 4] == Approx(std::sin(3 * a)).margin(1e-6));
    CHECK(pe[(base + 2) * d + 5] == Approx(std::cos(3 * a)).margin(1e-6));
    for (int64_t p = len; p < L; ++p)
      for (int64_t j = 0; j < d; ++j) CHECK(pe[(base + p) * d + j] == 0);
  }
  // 0 and len - 1 are not neighbours for the sinusoidal encoding: the ring is cyclic's own.
  cfg.d_model = d;
  Tensor sin_pe = embed_term(*make_encoding("sinusoidal", cfg), Positions{1, L, {12}}, d);
  CHECK(std::fabs(row_dot(sin_pe, d, 0, L - 1) - row_dot(sin_pe, d, 0, 1)) > 0.1);
}

TEST_CASE("fourier2d: first d/2 dims depend on x = t mod W only, last d/2 on y = t div W only", "[posenc][fourier2d]") {
  const int64_t d = 16, W = 5, L = 30;
  EncodingConfig cfg;
  cfg.d_model = d;
  cfg.options.set("grid-w", std::to_string(W));
  auto enc = make_encoding("fourier2d", cfg);
  Tensor pe = embed_term(*enc, Positions{1, L, {L}}, d);
  auto half_equal = [&](int64_t a, int64_t b, int64_t from) {
    for (int64_t j = from; j < from + d / 2; ++j)
      if (pe[a * d + j] != pe[b * d + j]) return false;
    return true;
  };
  for (int64_t a = 0; a < L; ++a)
    for (int64_t b = 0; b < L; ++b) {
      INFO("t = " << a << ", " << b);
      CHECK(half_equal(a, b, 0) == (a % W == b % W));
      CHECK(half_equal(a, b, d / 2) == (a / W == b / W));
    }
  // Each half is the sinusoidal encoding of its coordinate in d/2 dims: t = 13 is (3, 2).
  CHECK(pe[13 * d + 0] == Approx(std::sin(3.0)).margin(1e-6));
  CHECK(pe[13 * d + 3] == Approx(std::cos(3.0 * std::pow(10000.0, -2.0 / 8))).margin(1e-6));
  CHECK(pe[13 * d + 8] == Approx(std::sin(2.0)).margin(1e-6));
}

TEST_CASE("fourier2d: grid width 0 is the default W = 8, and d not divisible by 4 is an error", "[posenc][fourier2d]") {
  EncodingConfig cfg;
  cfg.d_model = 16;
  auto by_default = make_encoding("fourier2d", cfg);  // --grid-w 0
  cfg.options.set("grid-w", "8");
  auto eight = make_encoding("fourier2d", cfg);
  cfg.options.set("grid-w", "4");
  auto four = make_encoding("fourier2d", cfg);
  Tape t;
  const Tensor x = Tensor::zeros({1, 20, 16});
  const Positions pos{1, 20, {20}};
  const Tensor a = t.value(by_default->embed(t, t.input(x), pos));
  const Tensor b = t.value(eight->embed(t, t.input(x), pos));
  const Tensor c = t.value(four->embed(t, t.input(x), pos));
  bool differs_from_four = false;
  for (int64_t i = 0; i < a.numel(); ++i) {
    CHECK(a[i] == b[i]);
    differs_from_four = differs_from_four || a[i] != c[i];
  }
  CHECK(differs_from_four);
  cfg.d_model = 18;
  cfg.options.set("grid-w", "3");
  CHECK_THROWS_WITH(make_encoding("fourier2d", cfg), Contains("18") && Contains("multiple of 4"));
}
