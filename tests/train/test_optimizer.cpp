// tests/train/test_optimizer.cpp: AdamW, SGD, the schedule and clipping against hand values.
#include <catch2/catch.hpp>

#include <cmath>

#include "tests/test_tensors.h"
#include "train/optimizer.h"

using namespace ordo;

TEST_CASE("AdamW first steps match the formula, with decay only on rank 2 and up", "[train][optimizer]") {
  Parameter w("w", Tensor::from(Shape{1, 2}, {1.0f, -2.0f}));
  Parameter b("b", Tensor::from(Shape{2}, {0.5f, 0.5f}));
  OptimizerConfig cfg;  // adamw, wd 0.01 (train/optimizers/adamw.cpp)
  auto opt = make_optimizer(cfg, {&w, &b});
  w.grad = Tensor::from(Shape{1, 2}, {0.1f, -0.3f});
  b.grad = Tensor::from(Shape{2}, {0.2f, 0.0f});
  opt->step(0.1);
  // Step 1: m_hat = g, v_hat = g^2, so the update is lr * g / (|g| + eps) = lr * sign(g).
  CHECK(w.value[0] == Approx(1.0 * (1 - 0.1 * 0.01) - 0.1).epsilon(1e-5));
  CHECK(w.value[1] == Approx(-2.0 * (1 - 0.1 * 0.01) + 0.1).epsilon(1e-5));
  CHECK(b.value[0] == Approx(0.5 - 0.1).epsilon(1e-5));  // no decay on a bias
  CHECK(b.value[1] == Approx(0.5).epsilon(1e-5));        // zero gradient, no decay: unchanged
  // Step 2 with the same gradient: still lr * sign(g) after bias correction.
  opt->step(0.1);
  CHECK(b.value[0] == Approx(0.3).epsilon(1e-5));
  CHECK(opt->steps() == 2);
}

TEST_CASE("SGD with momentum", "[train][optimizer]") {
  Parameter b("b", Tensor::from(Shape{1}, {1.0f}));
  OptimizerConfig cfg;
  cfg.name = "sgd";
  auto opt = make_optimizer(cfg, {&b});
  b.grad = Tensor::from(Shape{1}, {1.0f});
  opt->step(0.1);  // u = 1
  CHECK(b.value[0] == Approx(0.9));
  opt->step(0.1);  // u = 1.9
  CHECK(b.value[0] == Approx(0.71));
  REQUIRE_THROWS_WITH(make_optimizer(OptimizerConfig{.name = "adam"}, {&b}), Catch::Contains("unknown optimizer 'adam'; known: adamw, sgd"));
}

TEST_CASE("warmup is linear, then cosine reaches 0 at the last step", "[train][schedule]") {
  CHECK(learning_rate(1.0, 0, 100, 2000) == Approx(0.01));
  CHECK(learning_rate(1.0, 49, 100, 2000) == Approx(0.5));
  CHECK(learning_rate(1.0, 99, 100, 2000) == Approx(1.0));
  CHECK(learning_rate(1.0, 100, 100, 2000) == Approx(1.0));
  CHECK(learning_rate(1.0, 1999, 100, 2000) == Approx(0.0).margin(1e-12));
  const int64_t mid = 100 + (2000 - 1 - 100) / 2;
  CHECK(learning_rate(1.0, mid, 100, 2000) == Approx(0.5).epsilon(1e-3));
  for (int64_t s = 101; s < 2000; ++s) REQUIRE(learning_rate(1.0, s, 100, 2000) <= learning_rate(1.0, s - 1, 100, 2000));
}

TEST_CASE("global-norm clipping scales every gradient by max/norm", "[train][clip]") {
  Parameter a("a", Tensor::zeros(Shape{2})), b("b", Tensor::zeros(Shape{1, 1}));
  a.grad = Tensor::from(Shape{2}, {3.0f, 0.0f});
  b.grad = Tensor::from(Shape{1, 1}, {4.0f});
  CHECK(clip_grad_norm({&a, &b}, 1.0) == Approx(5.0));
  CHECK(a.grad[0] == Approx(0.6));
  CHECK(b.grad[0] == Approx(0.8));
  CHECK(clip_grad_norm({&a, &b}, 10.0) == Approx(1.0));  // under the limit: unchanged
  CHECK(a.grad[0] == Approx(0.6));
}

TEST_CASE("global-norm clipping over many blocks: a plain double sum, the same bits on 1 and 2 threads",
          "[train][clip]") {
  // 3 parameters, 1,000,003 elements in ~980 blocks of 1024 (with partial last blocks).
  const std::vector<Shape> shapes{Shape{1000, 999}, Shape{2000}, Shape{3, 1}};
  auto run = [&](int threads) {
    std::vector<Parameter> ps;
    for (size_t i = 0; i < shapes.size(); ++i) {
      ps.emplace_back(std::vector<std::string>{"p0", "p1", "p2"}[i], Tensor::zeros(shapes[i]));
      ps.back().grad = test::uniform_tensor(shapes[i], 41, i);
    }
    std::vector<Parameter*> ptrs;
    for (Parameter& p : ps) ptrs.push_back(&p);
    double want = 0;
    for (const Parameter& p : ps)
      for (int64_t e = 0; e < p.grad.numel(); ++e) want += static_cast<double>(p.grad[e]) * p.grad[e];
    want = std::sqrt(want);
    double norm = 0;
    test::with_threads(threads, [&] { norm = clip_grad_norm(ptrs, 1.0); });
    REQUIRE(norm == Approx(want).epsilon(1e-12));
    double after = 0;
    for (const Parameter& p : ps)
      for (int64_t e = 0; e < p.grad.numel(); ++e) after += static_cast<double>(p.grad[e]) * p.grad[e];
    REQUIRE(std::sqrt(after) == Approx(1.0).epsilon(1e-5));  // scaled to the limit
    return std::make_pair(norm, ps[0].grad.clone());
  };
  const auto one = run(1), two = run(2);
  REQUIRE(one.first == two.first);  // bit for bit
  REQUIRE(test::bit_equal(one.second, two.second));
}
