// tests/layers/test_posenc_rope.cpp: rotary embedding through the rotate hook: the score
// depends on u - t only, norms are preserved, the angles are t * base^(-2i/d_h), and an
// odd head width is rejected.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

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

namespace {

// The rotate hook applied to rows (1, 0, 1, 0, ...) of one sequence of length L: pair i of
// position p of head h comes out as factor * (cos a, sin a), a its angle. Returns (a, norm)
// of pair i at position p, head 0.
struct RotatedPairs {
  Tensor r;
  std::pair<double, double> angle_and_norm(int64_t p, int64_t i) const {
    const Real* pair = r.data() + at(p, 0) + 2 * i;
    return {std::atan2(double(pair[1]), double(pair[0])), std::hypot(double(pair[0]), double(pair[1]))};
  }
};

RotatedPairs rotate_units(const std::map<std::string, std::string>& options, int64_t train_len, int64_t L) {
  EncodingConfig cfg;
  cfg.d_model = kHeads * kHeadDim;
  cfg.n_heads = kHeads;
  cfg.train_positions = train_len;
  for (const auto& [name, value] : options) cfg.options.set(name, value);
  auto enc = make_encoding("rope", cfg);
  Tensor e = Tensor::zeros({1, L, kHeads, kHeadDim});
  for (int64_t i = 0; i < e.numel(); i += 2) e[i] = 1;
  Tape t;
  return {t.value(enc->rotate(t, t.input(e), t.input(e), Positions{1, L, {int32_t(L)}}).first).clone()};
}

// The angle a wrapped into (-pi, pi], as atan2 returns it.
double wrapped(double a) { return std::remainder(a, 2 * std::numbers::pi); }

double theta(int64_t i) { return std::pow(10000.0, -2.0 * double(i) / kHeadDim); }

}  // namespace

TEST_CASE("rope scaling: within the training length every method is rope, bit for bit", "[posenc][rope]") {
  const Tensor plain = rotate_units({}, 20, 20).r;
  for (const char* method : {"pi", "ntk", "yarn"}) {
    INFO(method);
    CHECK(rotate_units({{"rope-scaling", method}}, 20, 20).r.to_vector() == plain.to_vector());
  }
}

TEST_CASE("rope scaling pi: position p at scale s turns as p / s does unscaled", "[posenc][rope]") {
  const RotatedPairs plain = rotate_units({}, 20, kLen), pi = rotate_units({{"rope-scaling", "pi"}}, 20, kLen);  // s = 2
  for (int64_t p = 0; p < kLen; p += 2)
    for (int64_t i = 0; i < kHeadDim / 2; ++i) {
      INFO("p " << p << " pair " << i);
      CHECK(pi.angle_and_norm(p, i).first == Approx(plain.angle_and_norm(p / 2, i).first).margin(2e-6));
    }
}

TEST_CASE("rope scaling ntk: the highest frequency is kept, the lowest interpolated by s", "[posenc][rope]") {
  const RotatedPairs ntk = rotate_units({{"rope-scaling", "ntk"}}, 10, kLen);  // s = 4
  const int64_t last = kHeadDim / 2 - 1;
  for (int64_t p = 0; p < kLen; ++p) {
    INFO("p " << p);
    CHECK(ntk.angle_and_norm(p, 0).first == Approx(wrapped(p * theta(0))).margin(2e-6));
    CHECK(ntk.angle_and_norm(p, last).first == Approx(wrapped(p * theta(last) / 4)).margin(2e-6));
    // base * s^(d_h / (d_h - 2)) for a middle pair
    const double base = 10000.0 * std::pow(4.0, double(kHeadDim) / (kHeadDim - 2));
    CHECK(ntk.angle_and_norm(p, 1).first == Approx(wrapped(p * std::pow(base, -2.0 / kHeadDim))).margin(2e-6));
  }
}

TEST_CASE("rope scaling yarn: ramp between interpolation and extrapolation, temperature 0.1 ln s + 1", "[posenc][rope]") {
  // Training length 20, s = 2. Wavelengths in the training context r_i = 20 theta_i / (2 pi):
  // 3.18 for pair 0 (on the ramp, gamma = 0.07), below alpha = 1 for pairs 1-3 (interpolated).
  const RotatedPairs yarn = rotate_units({{"rope-scaling", "yarn"}}, 20, kLen);
  const double s = 2, factor = 0.1 * std::log(s) + 1;
  for (int64_t i = 0; i < kHeadDim / 2; ++i) {
    const double r = 20 * theta(i) / (2 * std::numbers::pi);
    const double gamma = std::clamp((r - 1) / 31, 0.0, 1.0);
    const double th = (1 - gamma) * theta(i) / s + gamma * theta(i);
    if (i == 0) CHECK((gamma > 0.05 && gamma < 0.1));
    if (i > 0) CHECK(gamma == 0);
    for (int64_t p = 0; p < kLen; ++p) {
      INFO("p " << p << " pair " << i);
      const auto [angle, norm] = yarn.angle_and_norm(p, i);
      CHECK(angle == Approx(wrapped(p * th)).margin(2e-6));
      CHECK(norm == Approx(factor).epsilon(1e-6));
    }
  }
  // A pair far above beta (a very long training context) keeps its frequency.
  const RotatedPairs long_context = rotate_units({{"rope-scaling", "yarn"}}, 1000, 2000);
  for (int64_t p = 0; p < 50; ++p) CHECK(long_context.angle_and_norm(p, 0).first == Approx(wrapped(double(p))).margin(2e-6));
}

TEST_CASE("rope --rope-fraction: only the highest-frequency share of the pairs rotates", "[posenc][rope]") {
  for (auto [fraction, rotated] : std::vector<std::pair<const char*, int64_t>>{{"0", 0}, {"0.25", 1}, {"0.5", 2}, {"0.8", 3}, {"1", 4}}) {
    INFO("--rope-fraction " << fraction);
    const RotatedPairs r = rotate_units({{"rope-fraction", fraction}}, 0, kLen);
    for (int64_t p = 0; p < kLen; ++p)
      for (int64_t i = 0; i < kHeadDim / 2; ++i) {
        const double want = i < rotated ? wrapped(p * theta(i)) : 0.0;
        CHECK(r.angle_and_norm(p, i).first == Approx(want).margin(2e-6));
      }
  }
}

TEST_CASE("rope: bad --rope-scaling and --rope-fraction values are refused, naming the accepted ones", "[posenc][rope]") {
  EncodingConfig cfg;
  cfg.d_model = 16;
  cfg.n_heads = 2;
  cfg.train_positions = 8;
  cfg.options.set("rope-scaling", "linear");
  CHECK_THROWS_WITH(make_encoding("rope", cfg), Contains("--rope-scaling 'linear'") && Contains("none, pi, ntk, yarn"));
  CHECK_THROWS_WITH(cfg.options.set("rope-fraction", "1.5"), Contains("--rope-fraction") && Contains("[0, 1]"));
}
