// tests/layers/test_posenc_xpos.cpp: xPos (docs/spec.md §2.11): scores are rope's, each pair
// damped by zeta_i^((m - n) / B); they depend on m - n only, whatever the centre; the centre
// keeps the scales near 1; a bidirectional model is refused.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/ops.h"
#include "core/rng.h"
#include "layers/model.h"
#include "layers/posenc/encoding.h"

using namespace ordo;
using Catch::Matchers::Contains;

namespace {

constexpr int64_t kHeads = 2, kHeadDim = 8;

std::unique_ptr<PositionalEncoding> make_xpos(double scale_base) {
  EncodingConfig cfg;
  cfg.d_model = kHeads * kHeadDim;
  cfg.n_heads = kHeads;
  cfg.causal = true;
  cfg.options.set("xpos-scale-base", format_real(scale_base));
  return make_encoding("xpos", cfg);
}

int64_t at(int64_t p, int64_t h) { return (p * kHeads + h) * kHeadDim; }

// q and k (1, L, H, d_h) with one random vector per head at every position.
Tensor tiled(int64_t L, uint64_t stream) {
  Tensor x = Tensor::empty({1, L, kHeads, kHeadDim});
  CounterRng rng(5, stream);
  std::vector<double> v(kHeads * kHeadDim);
  for (double& e : v) e = rng.normal();
  for (int64_t p = 0; p < L; ++p)
    for (int64_t j = 0; j < kHeads * kHeadDim; ++j) x[p * kHeads * kHeadDim + j] = static_cast<Real>(v[j]);
  return x;
}

// Scores (L, L) of head h after the rotate hook, for one sequence of real length n.
std::vector<double> scores(PositionalEncoding& enc, const Tensor& q, const Tensor& k, int64_t L, int32_t n, int64_t h) {
  Tape t;
  auto [qr, kr] = enc.rotate(t, t.input(q), t.input(k), Positions{1, L, {n}});
  const Tensor a = t.value(qr), b = t.value(kr);
  std::vector<double> s(static_cast<size_t>(L * L));
  for (int64_t m = 0; m < L; ++m)
    for (int64_t u = 0; u < L; ++u) {
      double d = 0;
      for (int64_t j = 0; j < kHeadDim; ++j) d += double(a[at(m, h) + j]) * double(b[at(u, h) + j]);
      s[static_cast<size_t>(m * L + u)] = d;
    }
  return s;
}

}  // namespace

TEST_CASE("xpos: the score is sum_i zeta_i^((m - n) / B) times pair i's rope score", "[posenc][xpos]") {
  const int64_t L = 24;
  const double B = 16;  // a small scale base, so that the damping is visible at L = 24
  auto enc = make_xpos(B);
  const Tensor q = tiled(L, 1), k = tiled(L, 2);
  const std::vector<double> s = scores(*enc, q, k, L, int32_t(L), 0);
  for (int64_t m = 0; m < L; ++m)
    for (int64_t n = 0; n < L; ++n) {
      double want = 0;
      for (int64_t i = 0; i < kHeadDim / 2; ++i) {
        const double zeta = (2.0 * i / kHeadDim + 0.4) / 1.4;
        const double a = double(m - n) * std::pow(10000.0, -2.0 * i / kHeadDim);
        const Real* qp = q.data() + at(m, 0) + 2 * i;
        const Real* kp = k.data() + at(n, 0) + 2 * i;
        // <R(m) q, R(n) k> for one pair: q . R(n - m) k
        const double rope = qp[0] * (kp[0] * std::cos(a) + kp[1] * std::sin(a)) +
                            qp[1] * (-kp[0] * std::sin(a) + kp[1] * std::cos(a));
        want += std::pow(zeta, double(m - n) / B) * rope;
      }
      INFO("m " << m << " n " << n);
      CHECK(s[static_cast<size_t>(m * L + n)] == Approx(want).epsilon(1e-4).margin(1e-5));
    }
}

TEST_CASE("xpos: scores depend on m - n only, and not on the centre (the sequence's length)", "[posenc][xpos]") {
  const int64_t L = 30;
  auto enc = make_xpos(20);
  const Tensor q = tiled(L, 3), k = tiled(L, 4);
  const std::vector<double> full = scores(*enc, q, k, L, int32_t(L), 1);   // centre 15
  const std::vector<double> part = scores(*enc, q, k, L, 9, 1);            // centre 4
  for (int64_t m = 0; m + 3 < L; ++m)
    for (int64_t n = 0; n + 3 < L; ++n) {
      CHECK(full[static_cast<size_t>((m + 3) * L + n + 3)] == Approx(full[static_cast<size_t>(m * L + n)]).epsilon(1e-4).margin(1e-5));
      CHECK(part[static_cast<size_t>(m * L + n)] == Approx(full[static_cast<size_t>(m * L + n)]).epsilon(1e-4).margin(1e-5));
    }
}

TEST_CASE("xpos: the centre keeps q and k scales near 1 on long sequences", "[posenc][xpos]") {
  // zeta_0 = 0.29: without centring, position 8000 would scale q by 0.29^(8000/512) = 4e-9
  // and k by its inverse; centred at 4000 the scales stay within 0.29^(+-7.8).
  const int64_t L = 8000;
  auto enc = make_xpos(512);
  Tensor e = Tensor::zeros({1, L, kHeads, kHeadDim});
  for (int64_t i = 0; i < e.numel(); i += 2) e[i] = 1;
  Tape t;
  auto [qr, kr] = enc->rotate(t, t.input(e), t.input(e), Positions{1, L, {int32_t(L)}});
  const Tensor a = t.value(qr), b = t.value(kr);
  auto norm0 = [](const Tensor& x, int64_t p) { return std::hypot(double(x[at(p, 0)]), double(x[at(p, 0) + 1])); };
  CHECK(norm0(a, L / 2) == Approx(1).epsilon(1e-6));
  CHECK(norm0(b, L / 2) == Approx(1).epsilon(1e-6));
  const double zeta0 = 0.4 / 1.4;
  CHECK(norm0(a, L - 1) == Approx(std::pow(zeta0, double(L - 1 - L / 2) / 512)).epsilon(1e-5));
  CHECK(norm0(b, 0) == Approx(std::pow(zeta0, double(L / 2) / 512)).epsilon(1e-5));
  for (int64_t i = 0; i < a.numel(); ++i) REQUIRE(std::isfinite(a[i]));
}

TEST_CASE("xpos is refused with bidirectional attention, naming --causal", "[posenc][xpos]") {
  EncodingConfig cfg;
  cfg.d_model = 16;
  cfg.n_heads = 2;
  CHECK_THROWS_WITH(make_encoding("xpos", cfg), Contains("xpos") && Contains("causal attention only") && Contains("--causal"));
  cfg.causal = true;
  CHECK_NOTHROW(make_encoding("xpos", cfg));
}
