// tests/layers/test_posenc_alibi.cpp: ALiBi slopes against Press et al.'s reference rule
// (re-implemented here the way the paper's code writes it), and the bias through the hook.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/ops.h"
#include "layers/posenc/alibi.h"
#include "layers/posenc/encoding.h"

using namespace ordo;

namespace {

// Press et al., `get_slopes` in the ALiBi repository: a geometric sequence starting at
// 2^(-8/n) for a power of two n; otherwise the closest lower power of two, then every other
// slope of twice that, truncated.
std::vector<double> reference_slopes(int64_t n) {
  auto power_of_2 = [](int64_t m) {
    const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(static_cast<double>(m)) - 3)));
    std::vector<double> s;
    for (int64_t i = 0; i < m; ++i) s.push_back(start * std::pow(start, static_cast<double>(i)));
    return s;
  };
  const double lg = std::log2(static_cast<double>(n));
  if (lg == std::floor(lg)) return power_of_2(n);
  const int64_t closest = static_cast<int64_t>(std::pow(2.0, std::floor(lg)));
  std::vector<double> s = power_of_2(closest);
  std::vector<double> extra = reference_slopes(2 * closest);
  for (int64_t i = 0; static_cast<int64_t>(s.size()) < n; i += 2) s.push_back(extra[i]);
  return s;
}

// The full (H, L, L) bias of an ALiBi encoding.
Tensor alibi_bias(int64_t H, int64_t L, bool causal) {
  EncodingConfig cfg;
  cfg.d_model = 8 * H;
  cfg.n_heads = H;
  cfg.causal = causal;
  auto enc = make_encoding("alibi", cfg);
  Tape t;
  auto b = enc->bias(t, Positions{1, L, {static_cast<int32_t>(L)}});
  REQUIRE(b.has_value());
  REQUIRE(b->relative);
  REQUIRE(t.shape(b->values) == Shape{H, 2 * L - 1});
  return t.value(expand_relative(t, b->values, L, L)).clone();
}

}  // namespace

TEST_CASE("alibi: slopes follow Press et al.'s rule for H = 4, 6, 8, 12, 16", "[posenc][alibi]") {
  for (int64_t H : {1, 2, 4, 6, 8, 12, 16, 24}) {
    std::vector<double> got = alibi_slopes(H), want = reference_slopes(H);
    INFO("H = " << H);
    REQUIRE(got.size() == static_cast<size_t>(H));
    for (int64_t h = 0; h < H; ++h) CHECK(got[h] == Approx(want[h]).epsilon(1e-12));
  }
  // The H = 6 example of docs/spec.md §2.5 and H = 12, as log2 of the slopes.
  auto log2s = [](int64_t H) {
    std::vector<double> l;
    for (double m : alibi_slopes(H)) l.push_back(std::log2(m));
    return l;
  };
  std::vector<double> h6 = log2s(6), h12 = log2s(12);
  const std::vector<double> want6 = {-2, -4, -6, -8, -1, -3};
  const std::vector<double> want12 = {-1, -2, -3, -4, -5, -6, -7, -8, -0.5, -1.5, -2.5, -3.5};
  for (size_t i = 0; i < want6.size(); ++i) CHECK(h6[i] == Approx(want6[i]));
  for (size_t i = 0; i < want12.size(); ++i) CHECK(h12[i] == Approx(want12[i]));
  CHECK(log2s(8).back() == Approx(-8));
}

TEST_CASE("alibi: bidirectional bias is -m_h |t - u|, depends on u - t only, and is symmetric", "[posenc][alibi]") {
  const int64_t H = 6, L = 13;
  Tensor b = alibi_bias(H, L, false);
  std::vector<double> m = alibi_slopes(H);
  auto at = [&](int64_t h, int64_t q, int64_t u) { return b[(h * L + q) * L + u]; };
  for (int64_t h = 0; h < H; ++h)
    for (int64_t q = 0; q < L; ++q)
      for (int64_t u = 0; u < L; ++u) {
        CHECK(at(h, q, u) == Approx(-m[h] * std::abs(q - u)).margin(1e-5));
        CHECK(at(h, q, u) == at(h, u, q));
        if (q + 1 < L && u + 1 < L) CHECK(at(h, q, u) == at(h, q + 1, u + 1));
      }
}

TEST_CASE("alibi: causal bias is -m_h (t - u) on and below the diagonal", "[posenc][alibi]") {
  const int64_t H = 4, L = 9;
  Tensor b = alibi_bias(H, L, true);
  std::vector<double> m = alibi_slopes(H);
  for (int64_t h = 0; h < H; ++h)
    for (int64_t q = 0; q < L; ++q)
      for (int64_t u = 0; u <= q; ++u) CHECK(b[(h * L + q) * L + u] == Approx(-m[h] * (q - u)).margin(1e-5));
}
