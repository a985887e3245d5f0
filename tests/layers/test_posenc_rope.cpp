// tests/layers/test_posenc_rope.cpp: rotary embedding through the rotate hook: the score
// depends on u - t only, norms are preserved, the angles are t * base^(-2i/d_h), and an
// odd head width is rejected.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/ops.h"
#include "core/rng.h"
#include "layers/posenc/encoding.h"

using namespace ordo;
using Catch::Matchers::Contains;

namespace {

constexpr int64_t kHeads = 2, kHeadDim = 8, kLen = 40;

std::unique_ptr<PositionalEncoding> make_rope_encoding() {
  EncodingConfig cfg;
  cfg.d_model = kHeads * kHeadDim;
  cfg.n_heads = kHeads;
  return make_encoding("rope", cfg);
}

// Offset of (position p, head h) in a (1, L, H, d_h) tensor: the rotate hook's layout.
int64_t at(int64_t p, int64_t h) { return (p * kHeads + h) * kHeadDim; }

// q and k (1, L, H, d_h) with the same vector at every position (one vector per head), so
// an unrotated score would not depend on the positions at all.
Tensor tiled(uint64_t stream) {
  Tensor x = Tensor::empty({1, kLen, kHeads, kHeadDim});
  CounterRng rng(3, stream);
  std::vector<double> v(kHeads * kHeadDim);
  for (double& e : v) e = rng.normal();
  for (int64_t h = 0; h < kHeads; ++h)
    for (int64_t p = 0; p < kLen; ++p)
      for (int64_t j = 0; j < kHeadDim; ++j) x[at(p, h) + j] = static_cast<Real>(v[h * kHeadDim + j]);
  return x;
}

double dot(const Tensor& a, int64_t h, int64_t p, const Tensor& b, int64_t u) {
  double s = 0;
  for (int64_t j = 0; j < kHeadDim; ++j)
    s += a[at(p, h) + j] * b[at(u, h) + j];
  return s;
}

}  // namespace

TEST_CASE("rope: <R(t) q, R(u) k> = <q, R(u - t) k> is unchanged when t and u shift together", "[posenc][rope]") {
  auto enc = make_rope_encoding();
  Tensor q = tiled(1), k = tiled(2);
  Tape t;
  auto [rq, rk] = enc->rotate(t, t.input(q), t.input(k), Positions{1, kLen, {kLen}});
  const Tensor &Q = t.value(rq), &K = t.value(rk);
  for (int64_t h = 0; h < kHeads; ++h)
    for (int64_t p = 0; p + 1 < kLen; p += 3)
      for (int64_t u = 0; u + 1 < kLen; u += 2) {
        INFO("h " << h << " t " << p << " u " << u);
        CHECK(dot(Q, h, p, K, u) == Approx(dot(Q, h, p + 1, K, u + 1)).margin(1e-4));
        // <q, R(u - t) k> computed by hand.
        double expected = 0;
        for (int64_t i = 0; i < kHeadDim / 2; ++i) {
          const double a = (u - p) * std::pow(10000.0, -2.0 * i / kHeadDim);
          const double k0 = k[at(0, h) + 2 * i], k1 = k[at(0, h) + 2 * i + 1];
          expected += q[at(0, h) + 2 * i] * (k0 * std::cos(a) - k1 * std::sin(a)) +
                      q[at(0, h) + 2 * i + 1] * (k0 * std::sin(a) + k1 * std::cos(a));
        }
        CHECK(dot(Q, h, p, K, u) == Approx(expected).margin(1e-4));
      }
  // The rotation matters: the score does change with the distance.
  CHECK(std::fabs(dot(Q, 0, 0, K, 0) - dot(Q, 0, 0, K, 5)) > 1e-2);
}

TEST_CASE("rope: rotations preserve the norm of every q and k row", "[posenc][rope]") {
  auto enc = make_rope_encoding();
  Tensor q = tiled(3), k = tiled(4);
  Tape t;
  auto [rq, rk] = enc->rotate(t, t.input(q), t.input(k), Positions{1, kLen, {kLen}});
  for (int64_t h = 0; h < kHeads; ++h)
    for (int64_t p = 0; p < kLen; ++p) {
      CHECK(dot(t.value(rq), h, p, t.value(rq), p) == Approx(dot(q, h, p, q, p)).epsilon(1e-5));
      CHECK(dot(t.value(rk), h, p, t.value(rk), p) == Approx(dot(k, h, p, k, p)).epsilon(1e-5));
    }
}

TEST_CASE("rope: pair i at position t turns by t * 10000^(-2i/d_h)", "[posenc][rope]") {
  auto enc = make_rope_encoding();
  // Every row is (1, 0, 1, 0, ...): the rotated pair i is (cos a, sin a).
  Tensor e = Tensor::zeros({1, kLen, kHeads, kHeadDim});
  for (int64_t i = 0; i < e.numel(); i += 2) e[i] = 1;
  Tape t;
  Tensor r = t.value(enc->rotate(t, t.input(e), t.input(e), Positions{1, kLen, {kLen}}).first);
  for (int64_t h = 0; h < kHeads; ++h)
    for (int64_t p = 0; p < kLen; ++p)
      for (int64_t i = 0; i < kHeadDim / 2; ++i) {
        const double a = p * std::pow(10000.0, -2.0 * i / kHeadDim);
        const Real* pair = r.data() + at(p, h) + 2 * i;
        CHECK(pair[0] == Approx(std::cos(a)).margin(1e-6));
        CHECK(pair[1] == Approx(std::sin(a)).margin(1e-6));
      }
}

TEST_CASE("rope: an odd head width is an error naming d_model, n_heads and d_h", "[posenc][rope]") {
  EncodingConfig cfg;
  cfg.d_model = 12;
  cfg.n_heads = 4;  // d_h = 3
  CHECK_THROWS_WITH(make_encoding("rope", cfg),
                    Contains("12") && Contains("4") && Contains("d_h") && Contains("= 3") && Contains("odd"));
  cfg.n_heads = 3;  // d_h = 4: fine
  CHECK_NOTHROW(make_encoding("rope", cfg));
}
