// tests/train/test_random_positions.cpp: randomized positions (docs/spec.md §2.13): the
// sample is sorted, distinct, in range, uniform and a function of (seed, stream); every
// encoding that takes them reads them (0..L-1 given explicitly changes no bit, relative
// encodings ignore a common shift, padding changes nothing); training with them is
// deterministic.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "core/ops.h"
#include "layers/model.h"
#include "tests/layers/model_fixtures.h"
#include "train/random_positions.h"
#include "train/trainer.h"

using namespace ordo;
using namespace ordo::testing;
using Catch::Matchers::Contains;

namespace {

Tensor logits_at(EncoderModel& m, const TensorI32& tokens, const std::vector<int32_t>& lengths,
                 const std::vector<int32_t>& positions) {
  Tape t;
  NoGradGuard g(t);
  ForwardOptions fo;
  fo.positions = positions;
  return t.value(m.forward(t, tokens, lengths, fo).logits).clone();
}

double max_diff(const Tensor& a, const Tensor& b) {
  REQUIRE(a.numel() == b.numel());
  double m = 0;
  for (int64_t i = 0; i < a.numel(); ++i) m = std::max(m, std::fabs(double(a[i]) - double(b[i])));
  return m;
}

}  // namespace

TEST_CASE("random positions: sorted, distinct, in 0..N-1, deterministic per (seed, stream)", "[random_positions]") {
  for (auto [n, N] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {5, 5}, {8, 64}, {32, 256}, {63, 64}}) {
    INFO("n " << n << " N " << N);
    for (uint64_t stream = 0; stream < 50; ++stream) {
      const std::vector<int32_t> p = random_positions(7, stream, n, N);
      REQUIRE(static_cast<int64_t>(p.size()) == n);
      for (size_t i = 0; i < p.size(); ++i) {
        CHECK(p[i] >= 0);
        CHECK(p[i] < N);
        if (i > 0) CHECK(p[i] > p[i - 1]);
      }
      CHECK(random_positions(7, stream, n, N) == p);
    }
  }
  CHECK(random_positions(7, 1, 8, 64) != random_positions(7, 2, 8, 64));
  CHECK(random_positions(7, 1, 8, 64) != random_positions(8, 1, 8, 64));
  CHECK_THROWS_WITH(random_positions(7, 1, 9, 8), Contains("9 distinct positions from [0, 8)"));
}

TEST_CASE("random positions: every position is drawn with probability n / N", "[random_positions]") {
  const int64_t n = 8, N = 32, draws = 20000;
  std::vector<int64_t> count(N, 0);
  for (int64_t s = 0; s < draws; ++s)
    for (int32_t p : random_positions(3, static_cast<uint64_t>(s), n, N)) ++count[static_cast<size_t>(p)];
  const double expect = double(draws) * n / N;  // 5000
  double chi2 = 0;
  for (int64_t c : count) chi2 += (c - expect) * (c - expect) / expect;
  // 31 degrees of freedom (the counts are not independent: each draw adds exactly n, so
  // this is conservative): P(chi2 > 61.1) = 0.001.
  CHECK(chi2 < 61.1);
}

TEST_CASE("every encoding that takes random positions reads them, and padding still changes nothing", "[random_positions][layers]") {
  const TensorI32 x = random_tokens(1, 9, 12, 61);
  std::vector<int32_t> identity(9), shifted(9), sparse{0, 3, 4, 10, 17, 18, 25, 29, 31};
  for (int32_t i = 0; i < 9; ++i) identity[i] = i, shifted[i] = i + 11;
  for (const EncodingInfo& info : encodings()) {
    if (!info.takes_random_positions) continue;
    for (bool causal : {false, true}) {
      if (info.causal_only && !causal) continue;
      INFO("encoding " << info.name << ", causal " << causal);
      ModelConfig c = small_model(info.name, HeadType::Token, causal);
      c.posenc.max_len = 64;
      EncoderModel m(c);
      CounterRng rng(4, 5);  // weights off their init, so that positions visibly matter
      for (Parameter* p : m.parameters()) {
        for (int64_t i = 0; i < p->value.numel(); ++i) p->value[i] += static_cast<Real>(0.3 * rng.normal());
        p->project();
      }
      const Tensor plain = logits_at(m, x, {9}, {});
      CHECK(logits_at(m, x, {9}, identity).to_vector() == plain.to_vector());  // 0..L-1 given: the same bits
      const Tensor at_sparse = logits_at(m, x, {9}, sparse);
      if (info.name != "none") CHECK(max_diff(at_sparse, plain) > 1e-4);  // the positions are read
      // Relative encodings see only differences: a common shift changes nothing.
      const bool relative = info.name == "none" || info.name == "rope" || info.name == "alibi" || info.name == "t5" ||
                            info.name == "kerple_log" || info.name == "kerple_power" || info.name == "xpos";
      if (relative) CHECK(max_diff(logits_at(m, x, {9}, shifted), plain) <= 1e-5);
      // Padding: the sequence in a batch padded to 12, with the positions extended.
      TensorI32 batch = random_tokens(2, 12, 12, 62);
      for (int64_t t = 0; t < 9; ++t) batch[12 + t] = x[t];
      std::vector<int32_t> longer = sparse;
      for (int32_t p : {33, 40, 47}) longer.push_back(p);
      const Tensor together = logits_at(m, batch, {12, 9}, longer);
      const int64_t C = 3;
      std::vector<Real> row(together.data() + 12 * C, together.data() + 21 * C);
      CHECK(max_diff(Tensor::from(Shape{9 * C}, row), Tensor::from(Shape{9 * C}, at_sparse.to_vector())) <= 1e-5);
    }
  }
}

TEST_CASE("training with --random-positions is deterministic and differs from training without", "[random_positions][train]") {
  TrainConfig c = small_train_config("order", "rope");
  c.steps = 10;
  c.eval_lens = {40};
  c.random_positions = 64;
  auto params_after = [](const TrainConfig& cfg) {
    Trainer t(cfg);
    for (int i = 0; i < 10; ++i) t.step_once();
    std::vector<Real> all;
    for (Parameter* p : t.model().parameters()) {
      auto v = p->value.to_vector();
      all.insert(all.end(), v.begin(), v.end());
    }
    return all;
  };
  const auto a = params_after(c), b = params_after(c);
  CHECK(a == b);
  c.random_positions = 0;
  CHECK(params_after(c) != a);
  c.random_positions = 40;  // not above the evaluation length 40
  CHECK_THROWS_WITH(Trainer(c), Contains("--random-positions 40 must exceed every evaluation length"));
}
