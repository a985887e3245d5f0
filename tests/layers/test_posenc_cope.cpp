// tests/layers/test_posenc_cope.cpp: CoPE (docs/spec.md §2.12) through its contextual hook:
// open gates count tokens (p = i - j + 1), half-open gates count halves and interpolate,
// positions clamp at P - 1, keys after the query count nothing; gradients in the float64
// build are in tests/gradcheck/test_posenc_grad.cpp.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/ops.h"
#include "core/rng.h"
#include "layers/posenc/encoding.h"

using namespace ordo;
using Catch::Matchers::Contains;

namespace {

constexpr int64_t kHeads = 2, kHeadDim = 4, kLen = 7;

struct Cope {
  std::unique_ptr<PositionalEncoding> enc;
  Tensor e;  // layer 0's table (P, d_h), set to distinct values
};

Cope make_cope(int64_t P) {
  EncodingConfig cfg;
  cfg.d_model = kHeads * kHeadDim;
  cfg.n_heads = kHeads;
  cfg.n_layers = 2;
  cfg.causal = true;
  cfg.options.set("cope-positions", std::to_string(P));
  Cope c{make_encoding("cope", cfg), {}};
  REQUIRE(encoding_info("cope").needs_logits);
  REQUIRE(c.enc->parameters().size() == 2);  // one table per layer
  Parameter& table = *c.enc->parameters()[0];
  REQUIRE(table.value.shape() == (Shape{P, kHeadDim}));
  for (int64_t i = 0; i < table.value.numel(); ++i) table.value[i] = static_cast<Real>(std::sin(0.7 * double(i) + 0.3));
  c.e = table.value;
  return c;
}

// The contextual term of the encoding's softmax form at `layer`.
Var contextual(PositionalEncoding& enc, Tape& t, Var q, Var scores, const Positions& pos, int64_t layer) {
  const AttentionForm form = enc.form(t, LayerInput{Var{}, Var{}, &pos, layer});
  REQUIRE(std::holds_alternative<SoftmaxForm>(form));
  REQUIRE(std::get<SoftmaxForm>(form).contextual);
  return std::get<SoftmaxForm>(form).contextual(t, q, q, scores);
}

// The (1, H, L, L) term for queries q and logits filled with `logit`.
Tensor term(Cope& c, const Tensor& q, double logit) {
  Tape t;
  Tensor s = Tensor::empty(Shape{1, kHeads, kLen, kLen});
  for (int64_t i = 0; i < s.numel(); ++i) s[i] = static_cast<Real>(logit);
  return t.value(contextual(*c.enc, t, t.input(q), t.input(s), Positions{1, kLen, {int32_t(kLen)}}, 0)).clone();
}

Tensor random_q(uint64_t stream) {
  Tensor q = Tensor::empty(Shape{1, kHeads, kLen, kHeadDim});
  CounterRng rng(9, stream);
  for (int64_t i = 0; i < q.numel(); ++i) q[i] = static_cast<Real>(rng.normal());
  return q;
}

// q_(h, i) . e(p), e interpolated linearly between integer rows.
double q_dot_e(const Cope& c, const Tensor& q, int64_t h, int64_t i, double p) {
  const int64_t lo = static_cast<int64_t>(std::floor(p)), hi = static_cast<int64_t>(std::ceil(p));
  const double w = p - double(lo);
  double s = 0;
  for (int64_t k = 0; k < kHeadDim; ++k) {
    const double e = (1 - w) * c.e[lo * kHeadDim + k] + w * c.e[hi * kHeadDim + k];
    s += q[((h * kLen) + i) * kHeadDim + k] * e;
  }
  return s;
}

}  // namespace

TEST_CASE("cope: open gates count the tokens from j to i, clamped at P - 1", "[posenc][cope]") {
  Cope c = make_cope(5);
  const Tensor q = random_q(1);
  const Tensor got = term(c, q, 40.0);  // sigmoid(40) = 1 in float32
  for (int64_t h = 0; h < kHeads; ++h)
    for (int64_t i = 0; i < kLen; ++i)
      for (int64_t j = 0; j <= i; ++j) {
        INFO("h " << h << " i " << i << " j " << j);
        const double p = std::min<double>(double(i - j + 1), 4.0);
        CHECK(got[((h * kLen) + i) * kLen + j] == Approx(q_dot_e(c, q, h, i, p)).margin(1e-5));
      }
}

TEST_CASE("cope: half-open gates count halves, and the term interpolates between rows", "[posenc][cope]") {
  Cope c = make_cope(8);
  const Tensor q = random_q(2);
  const Tensor got = term(c, q, 0.0);  // every gate 0.5: p = (i - j + 1) / 2
  for (int64_t h = 0; h < kHeads; ++h)
    for (int64_t i = 0; i < kLen; ++i)
      for (int64_t j = 0; j <= i; ++j) {
        INFO("h " << h << " i " << i << " j " << j);
        CHECK(got[((h * kLen) + i) * kLen + j] == Approx(q_dot_e(c, q, h, i, 0.5 * double(i - j + 1))).margin(1e-5));
      }
}

TEST_CASE("cope: keys after the query add nothing to its positions", "[posenc][cope]") {
  Cope c = make_cope(8);
  const Tensor q = random_q(3);
  Tape t;
  Tensor s = Tensor::empty(Shape{1, kHeads, kLen, kLen});
  CounterRng rng(4, 4);
  for (int64_t i = 0; i < s.numel(); ++i) s[i] = static_cast<Real>(rng.normal());
  Tensor s2 = s.clone();
  for (int64_t h = 0; h < kHeads; ++h)
    for (int64_t i = 0; i < kLen; ++i)
      for (int64_t j = i + 1; j < kLen; ++j) s2[((h * kLen) + i) * kLen + j] = 50;  // future logits changed
  const Positions pos{1, kLen, {int32_t(kLen)}};
  const Tensor a = t.value(contextual(*c.enc, t, t.input(q), t.input(s), pos, 1)).clone();
  const Tensor b = t.value(contextual(*c.enc, t, t.input(q), t.input(s2), pos, 1)).clone();
  for (int64_t h = 0; h < kHeads; ++h)
    for (int64_t i = 0; i < kLen; ++i)
      for (int64_t j = 0; j <= i; ++j) CHECK(a[((h * kLen) + i) * kLen + j] == b[((h * kLen) + i) * kLen + j]);
}

TEST_CASE("cope is refused with bidirectional attention and with randomized positions", "[posenc][cope]") {
  EncodingConfig cfg;
  cfg.d_model = 8;
  cfg.n_heads = 2;
  CHECK_THROWS_WITH(make_encoding("cope", cfg), Contains("cope") && Contains("causal attention only"));
  CHECK_FALSE(encoding_info("cope").takes_random_positions);
}

TEST_CASE("cope: by default the table has the training length + 1 rows, as the authors size it", "[posenc][cope]") {
  EncodingConfig cfg;
  cfg.d_model = kHeads * kHeadDim;
  cfg.n_heads = kHeads;
  cfg.causal = true;
  cfg.train_positions = kLen;
  auto enc = make_encoding("cope", cfg);  // --cope-positions 0
  REQUIRE(enc->parameters()[0]->value.shape() == (Shape{kLen + 1, kHeadDim}));
  // Every gate open: p_ij = i - j + 1 reaches kLen at (kLen - 1, 0), its own row, unclamped.
  Parameter& table = *enc->parameters()[0];
  for (int64_t i = 0; i < table.value.numel(); ++i) table.value[i] = static_cast<Real>(std::sin(0.7 * double(i) + 0.3));
  Cope c{std::move(enc), table.value};
  const Tensor q = random_q(41);
  const Tensor out = term(c, q, 50.0);  // sigmoid(50) = 1 in float32
  for (int64_t h = 0; h < kHeads; ++h)
    for (int64_t i = 0; i < kLen; ++i)
      for (int64_t j = 0; j <= i; ++j)
        CHECK(out[((h * kLen) + i) * kLen + j] == Approx(q_dot_e(c, q, h, i, double(i - j + 1))).margin(1e-5));
}
