// tests/core/test_gemm.cpp: the oneDNN wrapper against a plain triple loop.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>

#include <omp.h>

#include "core/gemm.h"
#include "core/rng.h"

using namespace ordo;

namespace {

std::vector<Real> random_values(int64_t n, uint64_t stream) {
  CounterRng rng(7, stream);
  std::vector<Real> v(n);
  for (auto& x : v) x = static_cast<Real>(rng.uniform() * 2 - 1);
  return v;
}

double max_rel_error(const std::vector<Real>& got, const std::vector<Real>& want) {
  double scale = 1e-30, err = 0;
  for (size_t i = 0; i < want.size(); ++i) scale = std::max(scale, std::fabs((double)want[i]));
  for (size_t i = 0; i < want.size(); ++i) err = std::max(err, std::fabs((double)got[i] - want[i]));
  return err / scale;
}

}  // namespace

TEST_CASE("gemm equals the reference loop on odd shapes, transposes, batches and beta=1", "[core][gemm]") {
  struct Case { int64_t batch, M, N, K; };
  const Case cases[] = {{1, 1, 1, 1},   {1, 7, 5, 3},    {1, 33, 17, 65},  {1, 130, 64, 64},
                        {1, 3, 3, 5000}, {1, 64, 64, 4096}, {5, 9, 11, 13}, {17, 16, 64, 16},
                        {3, 1, 7, 1},
                        // Split-K tiles with tails in M, N and K; a 4 KiB-strided transposed A
                        // (repacked), on the split-K and on the row-block path.
                        {1, 300, 600, 2500}, {1, 1024, 40, 2100}, {1, 1024, 24, 100},
                        // a 4 KiB-strided B on the split-K path (repacked)
                        {1, 40, 1024, 2100}};
  uint64_t stream = 0;
  for (const Case& c : cases)
    for (int ta = 0; ta < 2; ++ta)
      for (int tb = 0; tb < 2; ++tb)
        for (int acc = 0; acc < 2; ++acc)
          for (int shared_b = 0; shared_b < (c.batch > 1 ? 2 : 1); ++shared_b) {
            GemmArgs g;
            g.M = c.M, g.N = c.N, g.K = c.K, g.trans_a = ta, g.trans_b = tb, g.accumulate = acc;
            g.batch = c.batch, g.alpha = acc ? Real(0.5) : Real(1);
            g.stride_a = c.M * c.K, g.stride_b = shared_b ? 0 : c.K * c.N, g.stride_c = c.M * c.N;
            auto a = random_values(c.batch * c.M * c.K, ++stream);
            auto b = random_values((shared_b ? 1 : c.batch) * c.K * c.N, ++stream);
            auto c0 = random_values(c.batch * c.M * c.N, ++stream);
            auto got = c0, want = c0;
            gemm(g, a.data(), b.data(), got.data());
            gemm_reference(g, a.data(), b.data(), want.data());
            INFO("batch " << c.batch << " M " << c.M << " N " << c.N << " K " << c.K << " ta " << ta
                          << " tb " << tb << " acc " << acc << " shared_b " << shared_b);
            REQUIRE(max_rel_error(got, want) < 1e-5);
          }
}

TEST_CASE("gemm with a fused bias row equals the reference loop", "[core][gemm]") {
  struct Case { int64_t M, N, K; };
  uint64_t stream = 500;
  // Row blocks with a tail, split-K (the bias added in the final sum), a long K over two
  // output tiles (the bias fused per tile), and an empty K.
  for (const Case c : {Case{7, 5, 3}, Case{130, 40, 64}, Case{64, 48, 4096}, Case{300, 40, 4096}, Case{3, 4, 0}})
    for (int ta = 0; ta < 2; ++ta)
      for (int acc = 0; acc < 2; ++acc) {
        GemmArgs g;
        g.M = c.M, g.N = c.N, g.K = c.K, g.trans_a = ta, g.accumulate = acc;
        auto a = random_values(std::max<int64_t>(1, c.M * c.K), ++stream);
        auto b = random_values(std::max<int64_t>(1, c.K * c.N), ++stream);
        auto bias = random_values(c.N, ++stream);
        g.bias = bias.data();
        auto got = random_values(c.M * c.N, ++stream), want = got;
        gemm(g, a.data(), b.data(), got.data());
        gemm_reference(g, a.data(), b.data(), want.data());
        INFO("M " << c.M << " N " << c.N << " K " << c.K << " ta " << ta << " acc " << acc);
        REQUIRE(max_rel_error(got, want) < 1e-5);
      }
}

TEST_CASE("gemm's prologue forms every row of A once, before a product reads it", "[core][gemm]") {
  // A starts as garbage (NaN); the prologue writes the real rows block by block. A row read
  // before its block's prologue ran, or a row no block covered, would make C NaN or wrong.
  struct Case { int64_t M, N, K; };
  uint64_t stream = 700;
  // several row blocks with a tail; one block; split-K (prologue once, whole); empty N; empty K
  for (const Case c : {Case{4100, 24, 40}, Case{5, 7, 3}, Case{40, 30, 4096}, Case{33, 0, 8}, Case{9, 6, 0}}) {
    INFO("M " << c.M << " N " << c.N << " K " << c.K);
    const auto a_real = random_values(std::max<int64_t>(1, c.M * c.K), ++stream);
    const auto b = random_values(std::max<int64_t>(1, c.K * c.N), ++stream);
    std::vector<Real> a(a_real.size(), std::numeric_limits<Real>::quiet_NaN());
    std::vector<int> formed(c.M, 0);
    const std::function<void(int64_t, int64_t)> prologue = [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        ++formed[r];
        for (int64_t k = 0; k < c.K; ++k) a[r * c.K + k] = a_real[r * c.K + k];
      }
    };
    GemmArgs g;
    g.M = c.M, g.N = c.N, g.K = c.K, g.prologue = &prologue;
    std::vector<Real> got(std::max<int64_t>(1, c.M * c.N)), want(got.size());
    gemm(g, a.data(), b.data(), got.data());
    g.prologue = nullptr;
    gemm_reference(g, a_real.data(), b.data(), want.data());
    for (int64_t r = 0; r < c.M; ++r) REQUIRE(formed[r] == 1);
    for (size_t i = 0; i < got.size(); ++i) REQUIRE(!std::isnan(got[i]));
    REQUIRE(max_rel_error(got, want) < 1e-5);
  }
  std::vector<Real> a(8, 1), b(8, 1), c(8);
  const std::function<void(int64_t, int64_t)> nothing = [](int64_t, int64_t) {};
  GemmArgs g;
  g.M = 2, g.N = 2, g.K = 2, g.trans_a = true, g.prologue = &nothing;
  REQUIRE_THROWS_WITH(gemm(g, a.data(), b.data(), c.data()), Catch::Contains("prologue"));
}

TEST_CASE("gemm refuses a bias on a batched product", "[core][gemm]") {
  std::vector<Real> a(8, 1), b(8, 1), c(8), bias(2, 1);
  GemmArgs g;
  g.M = 2, g.N = 2, g.K = 1, g.batch = 2, g.stride_a = 2, g.stride_b = 2, g.stride_c = 4, g.bias = bias.data();
  REQUIRE_THROWS_WITH(gemm(g, a.data(), b.data(), c.data()), Catch::Contains("bias"));
}

TEST_CASE("gemm gives the same bits on repeated calls and for 1 or 2 threads", "[core][gemm]") {
  struct Case { int64_t M, N, K; };
  for (const Case c : {Case{64, 64, 8192}, Case{300, 600, 2500}, Case{1024, 40, 2100}}) {
    GemmArgs g;
    g.M = c.M, g.N = c.N, g.K = c.K, g.trans_a = true;
    auto a = random_values(g.M * g.K, 1), b = random_values(g.K * g.N, 2);
    std::vector<Real> c1(g.M * g.N), c2(g.M * g.N), c3(g.M * g.N);
    const int previous = omp_get_max_threads();
    omp_set_num_threads(1);
    gemm(g, a.data(), b.data(), c1.data());
    omp_set_num_threads(2);
    gemm(g, a.data(), b.data(), c2.data());
    gemm(g, a.data(), b.data(), c3.data());
    omp_set_num_threads(previous);
    INFO("M " << c.M << " N " << c.N << " K " << c.K);
    REQUIRE(c1 == c2);
    REQUIRE(c2 == c3);
  }
}
