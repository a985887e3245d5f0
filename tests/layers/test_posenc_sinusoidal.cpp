// tests/layers/test_posenc_sinusoidal.cpp: the seed note's d = 4 table and the identities
// of docs/spec.md §2 (shift = block rotation, dot product = sum of cosines), all through
// the embed hook.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/ops.h"
#include "layers/posenc/encoding.h"

using namespace ordo;

namespace {

// PE (L, d): the embed hook applied to zero embeddings.
Tensor sinusoidal_table(int64_t L, int64_t d) {
  EncodingConfig cfg;
  cfg.d_model = d;
  auto enc = make_encoding("sinusoidal", cfg);
  Tape t;
  Positions pos{1, L, {static_cast<int32_t>(L)}};
  Tensor pe = t.value(enc->embed(t, t.input(Tensor::zeros({1, L, d})), pos));
  REQUIRE(pe.shape() == Shape{1, L, d});
  return pe.reshaped({L, d});
}

double frequency(int64_t i, int64_t d) { return std::pow(10000.0, -2.0 * i / d); }

}  // namespace

TEST_CASE("sinusoidal: the d = 4 table of the seed note", "[posenc][sinusoidal]") {
  Tensor pe = sinusoidal_table(3, 4);
  const double expected[3][4] = {{0, 1, 0, 1},
                                 {0.8415, 0.5403, 0.0100, 0.9999},
                                 {0.9093, -0.4161, 0.0200, 0.9998}};
  for (int p = 0; p < 3; ++p)
    for (int j = 0; j < 4; ++j) {
      INFO("PE(" << p << ", " << j << ")");
      CHECK(pe[p * 4 + j] == Approx(expected[p][j]).margin(5e-5));  // the note rounds to 4 places
    }
}

TEST_CASE("sinusoidal: the term is added to the embeddings and broadcast over the batch", "[posenc][sinusoidal]") {
  const int64_t B = 3, L = 5, d = 8;
  EncodingConfig cfg;
  cfg.d_model = d;
  auto enc = make_encoding("sinusoidal", cfg);
  Tensor x = Tensor::empty({B, L, d});
  for (int64_t i = 0; i < x.numel(); ++i) x[i] = static_cast<Real>(0.01 * i);
  Tape t;
  Tensor y = t.value(enc->embed(t, t.input(x), Positions{B, L, {5, 5, 5}}));
  Tensor pe = sinusoidal_table(L, d);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 0; i < L * d; ++i)
      CHECK(y[b * L * d + i] == Approx(x[b * L * d + i] + pe[i]).margin(1e-6));
}

TEST_CASE("sinusoidal: PE(t + k) = M_k PE(t), M_k block-diagonal rotations built from k alone", "[posenc][sinusoidal]") {
  const int64_t L = 200, d = 64;
  Tensor pe = sinusoidal_table(L, d);
  for (int64_t k : {1, 3, 17, 64}) {
    // M_k: block i is [[cos(w_i k), sin(w_i k)], [-sin(w_i k), cos(w_i k)]]; no PE value used.
    std::vector<double> M(d * d, 0.0);
    for (int64_t i = 0; i < d / 2; ++i) {
      const double a = frequency(i, d) * k;
      M[(2 * i) * d + 2 * i] = std::cos(a), M[(2 * i) * d + 2 * i + 1] = std::sin(a);
      M[(2 * i + 1) * d + 2 * i] = -std::sin(a), M[(2 * i + 1) * d + 2 * i + 1] = std::cos(a);
    }
    double worst = 0;
    for (int64_t p = 0; p + k < L; ++p)
      for (int64_t r = 0; r < d; ++r) {
        double mp = 0;
        for (int64_t c = 0; c < d; ++c) mp += M[r * d + c] * pe[p * d + c];
        worst = std::max(worst, std::fabs(mp - pe[(p + k) * d + r]));
      }
    INFO("k = " << k);
    CHECK(worst < 1e-5);
  }
}

TEST_CASE("sinusoidal: PE(t) . PE(u) = sum_i cos(w_i (t - u))", "[posenc][sinusoidal]") {
  const int64_t L = 120, d = 32;
  Tensor pe = sinusoidal_table(L, d);
  double worst = 0;
  for (int64_t p = 0; p < L; p += 7)
    for (int64_t u = 0; u < L; u += 5) {
      double dot = 0, expected = 0;
      for (int64_t j = 0; j < d; ++j) dot += pe[p * d + j] * pe[u * d + j];
      for (int64_t i = 0; i < d / 2; ++i) expected += std::cos(frequency(i, d) * (p - u));
      worst = std::max(worst, std::fabs(dot - expected));
    }
  CHECK(worst < 1e-4);
  // Not a tautology: the dot product really varies with the distance.
  double near = 0, far = 0;
  for (int64_t j = 0; j < d; ++j) near += pe[10 * d + j] * pe[11 * d + j], far += pe[10 * d + j] * pe[90 * d + j];
  CHECK(near > far + 1);
}
