// tests/layers/test_posenc_transformer_xl.cpp: the Transformer-XL relative encoding (docs/spec.md
// §2.21) through its relative-keys hook, against an independent transcription of the authors'
// computation (the reshape trick that shifts the relative logits, as in the Transformer-XL
// paper's Appendix B and the code of Deletang et al. and Ruoss et al.), against the formula
// at randomized positions, and its initialisation. Gradients (float64) are in
// tests/gradcheck/test_posenc_grad.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "core/ops.h"
#include "layers/posenc/encoding.h"
#include "tests/test_tensors.h"

using namespace ordo;

namespace {

constexpr int64_t kHeads = 2, kHeadDim = 3, kWidth = kHeads * kHeadDim;

std::unique_ptr<PositionalEncoding> make_xl(int64_t layers = 2, uint64_t seed = 3) {
  EncodingConfig cfg;
  cfg.d_model = kWidth;
  cfg.n_heads = kHeads;
  cfg.n_layers = layers;
  cfg.seed = seed;
  REQUIRE_FALSE(encoding_info("transformer_xl").needs_logits);
  return make_encoding("transformer_xl", cfg);
}

// The relative keys of the encoding's softmax form for queries q (B, L, H, d_h) at `layer`.
RelativeKeyTerm relative_keys(PositionalEncoding& enc, Tape& t, Var q, const Positions& pos, int64_t layer) {
  const AttentionForm form = enc.form(t, LayerInput{Var{}, q, &pos, layer});
  REQUIRE(std::holds_alternative<SoftmaxForm>(form));
  const SoftmaxForm& softmax = std::get<SoftmaxForm>(form);
  REQUIRE(softmax.relative_keys);
  REQUIRE_FALSE(softmax.log_forget_gates);
  REQUIRE_FALSE(softmax.contextual);
  return *softmax.relative_keys;
}

// The authors' sinusoid (sines, then cosines) of position p, width D.
std::vector<double> sinusoid(double p, int64_t D) {
  std::vector<double> r(static_cast<size_t>(D));
  for (int64_t m = 0; m < D / 2; ++m) {
    const double a = p * std::pow(10000.0, -2.0 * double(m) / double(D));
    r[size_t(m)] = std::sin(a);
    r[size_t(D / 2 + m)] = std::cos(a);
  }
  return r;
}

struct Inputs {
  Tensor q, k;  // (B, H, L, d_h)
};

Inputs random_inputs(int64_t B, int64_t L, uint64_t stream) {
  return {test::uniform_tensor(Shape{B, kHeads, L, kHeadDim}, 41, stream),
          test::uniform_tensor(Shape{B, kHeads, L, kHeadDim}, 41, stream + 1)};
}

// The logits (B, H, L, L) of `layer` from the hook's three tensors, with plain loops:
// (content_q_t . k_u + queries_t . keys[pos(t) - pos(u) + offset]) / sqrt(d_h).
Tensor logits(PositionalEncoding& enc, const Inputs& in, const Positions& pos, int64_t layer) {
  const int64_t B = in.q.dim(0), L = in.q.dim(2);
  Tape t;
  const RelativeKeyTerm rel = relative_keys(enc, t, permute(t, t.input(in.q), {0, 2, 1, 3}), pos, layer);  // q as (B, L, H, d_h)
  REQUIRE(rel.keys.positions == pos.index);
  const Tensor &cq = t.value(rel.content_queries), &qr = t.value(rel.keys.queries), &keys = t.value(rel.keys.keys);
  REQUIRE(cq.shape() == (Shape{B, L, kHeads, kHeadDim}));
  REQUIRE(qr.shape() == cq.shape());
  Tensor out = Tensor::empty(Shape{B, kHeads, L, L});
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < kHeads; ++h)
      for (int64_t i = 0; i < L; ++i)
        for (int64_t j = 0; j < L; ++j) {
          const int64_t row = pos.at(i) - pos.at(j) + rel.keys.offset;
          REQUIRE(row >= 0);
          REQUIRE(row < keys.dim(0));
          double s = 0;
          for (int64_t c = 0; c < kHeadDim; ++c)
            s += double(cq[((b * L + i) * kHeads + h) * kHeadDim + c]) * in.k[((b * kHeads + h) * L + j) * kHeadDim + c] +
                 double(qr[((b * L + i) * kHeads + h) * kHeadDim + c]) * keys[(row * kHeads + h) * kHeadDim + c];
          out[((b * kHeads + h) * L + i) * L + j] = static_cast<Real>(s / std::sqrt(double(kHeadDim)));
        }
  return out;
}

}  // namespace

TEST_CASE("transformer_xl: the logits equal the authors' relative-shift computation, bidirectional", "[posenc][transformer_xl]") {
  auto enc = make_xl();
  const int64_t B = 2, L = 6, layer = 1;
  const Inputs in = random_inputs(B, L, 10);
  const std::vector<Parameter*> params = enc->parameters();  // per layer: W_R, u, v
  REQUIRE(params.size() == 6);
  const Tensor& W = params[3 * layer]->value;  // (D, H d_h)
  const Tensor &ub = params[3 * layer + 1]->value, &vb = params[3 * layer + 2]->value;
  REQUIRE(W.shape() == (Shape{kWidth, kWidth}));
  REQUIRE(ub.shape() == (Shape{kWidth}));  // head by head: a bias, rank 1
  // The authors take the sinusoid of u - t (key minus query) where ordo takes i - j = t - u,
  // as Transformer-XL writes it: the same once W_R's rows that meet the sines change sign.
  std::vector<double> w_authors(size_t(kWidth * kWidth));
  for (int64_t r = 0; r < kWidth; ++r)
    for (int64_t c = 0; c < kWidth; ++c) w_authors[size_t(r * kWidth + c)] = (r < kWidth / 2 ? -1.0 : 1.0) * W[r * kWidth + c];

  // Relative keys of the 2L table positions -L..L-1: (2L, H, d_h).
  const int64_t total = 2 * L;
  std::vector<double> rel_keys(size_t(total * kWidth), 0.0);
  for (int64_t p = 0; p < total; ++p) {
    const std::vector<double> r = sinusoid(double(p - L), kWidth);
    for (int64_t c = 0; c < kWidth; ++c)
      for (int64_t m = 0; m < kWidth; ++m) rel_keys[size_t(p * kWidth + c)] += r[size_t(m)] * w_authors[size_t(m * kWidth + c)];
  }
  const Tensor got = logits(*enc, in, Positions{B, L, {int32_t(L), int32_t(L)}}, layer);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < kHeads; ++h) {
      const Real* q = in.q.data() + (b * kHeads + h) * L * kHeadDim;
      const Real* k = in.k.data() + (b * kHeads + h) * L * kHeadDim;
      // rel_logits[t, p] = (q_t + v) . rel_keys[p], (L, 2L), then the shift: viewed flat as
      // (2L, L), drop its first row, view the rest as (L, 2L - 1), keep the first L columns.
      std::vector<double> rel(size_t(L * total));
      for (int64_t t = 0; t < L; ++t)
        for (int64_t p = 0; p < total; ++p) {
          double s = 0;
          for (int64_t c = 0; c < kHeadDim; ++c)
            s += (double(q[t * kHeadDim + c]) + vb[h * kHeadDim + c]) * rel_keys[size_t(p * kWidth + h * kHeadDim + c)];
          rel[size_t(t * total + p)] = s;
        }
      std::vector<double> dropped(rel.begin() + L, rel.end());  // (2L, L) without its first row
      for (int64_t t = 0; t < L; ++t)
        for (int64_t u = 0; u < L; ++u) {
          const double shifted = dropped[size_t(t * (total - 1) + u)];
          double content = 0;
          for (int64_t c = 0; c < kHeadDim; ++c)
            content += (double(q[t * kHeadDim + c]) + ub[h * kHeadDim + c]) * k[u * kHeadDim + c];
          const double want = (content + shifted) / std::sqrt(double(kHeadDim));
          INFO("b " << b << " h " << h << " t " << t << " u " << u);
          CHECK(got[((b * kHeads + h) * L + t) * L + u] == Approx(want).margin(1e-5));
        }
    }
}

TEST_CASE("transformer_xl: at randomized positions the term is the formula at the positions' distances", "[posenc][transformer_xl]") {
  auto enc = make_xl(1);
  const int64_t B = 1, L = 5;
  const Inputs in = random_inputs(B, L, 20);
  const std::vector<Parameter*> params = enc->parameters();
  const Tensor &W = params[0]->value, &ub = params[1]->value, &vb = params[2]->value;
  Positions pos{B, L, {int32_t(L)}};
  pos.index = {1, 4, 5, 9, 17};
  const Tensor got = logits(*enc, in, pos, 0);
  for (int64_t h = 0; h < kHeads; ++h)
    for (int64_t i = 0; i < L; ++i)
      for (int64_t j = 0; j < L; ++j) {
        const std::vector<double> r = sinusoid(double(pos.at(i) - pos.at(j)), kWidth);  // R_{i-j}
        double want = 0;
        for (int64_t c = 0; c < kHeadDim; ++c) {
          double key = 0;  // (W_R R)_{h, c}
          for (int64_t m = 0; m < kWidth; ++m) key += r[size_t(m)] * W[m * kWidth + h * kHeadDim + c];
          const double qc = in.q[(h * L + i) * kHeadDim + c], kc = in.k[(h * L + j) * kHeadDim + c];
          want += (qc + ub[h * kHeadDim + c]) * kc + (qc + vb[h * kHeadDim + c]) * key;
        }
        want /= std::sqrt(double(kHeadDim));
        INFO("h " << h << " i " << i << " j " << j);
        CHECK(got[(h * L + i) * L + j] == Approx(want).margin(1e-5));
      }
  // Only distances count: the same positions moved by 11 give the same logits.
  Positions moved = pos;
  for (int32_t& p : moved.index) p += 11;
  CHECK(test::bit_equal(logits(*enc, in, moved, 0), got));
  // Different gaps give other logits.
  Positions contiguous{B, L, {int32_t(L)}};
  CHECK_FALSE(test::bit_equal(logits(*enc, in, contiguous, 0), got));
}

TEST_CASE("transformer_xl: u and v start as N(0, 0.02^2) vectors, W_R as Haiku's truncated normal of std 1/sqrt(d)", "[posenc][transformer_xl]") {
  EncodingConfig cfg;
  cfg.d_model = 64;
  cfg.n_heads = 8;
  cfg.n_layers = 2;
  cfg.seed = 9;
  auto enc = make_encoding("transformer_xl", cfg);
  auto stats = [](const Tensor& x) {
    double s = 0, s2 = 0, top = 0;
    for (int64_t i = 0; i < x.numel(); ++i) s += x[i], s2 += double(x[i]) * x[i], top = std::max(top, std::fabs(double(x[i])));
    const double n = double(x.numel());
    return std::array<double, 3>{s / n, std::sqrt(s2 / n - (s / n) * (s / n)), top};
  };
  const std::vector<Parameter*> params = enc->parameters();
  REQUIRE(params.size() == 6);
  std::vector<Real> biases;  // u and v of both layers: 256 values
  for (int64_t l = 0; l < 2; ++l) {
    INFO("layer " << l);
    const auto w = stats(params[size_t(3 * l)]->value);  // 4096 values
    // A normal cut at 2 std keeps 0.880 of its std: 0.880 / 8 = 0.110.
    CHECK(w[1] == Approx(0.110).margin(0.004));
    CHECK(w[2] <= 2.0 / 8.0);
    CHECK(w[2] > 0.24);  // the cut is reached
    for (int k = 1; k <= 2; ++k) {
      const Tensor& b = params[size_t(3 * l + k)]->value;
      REQUIRE(b.shape() == (Shape{64}));  // rank 1: a bias, which weight decay leaves alone
      biases.insert(biases.end(), b.data(), b.data() + b.numel());
    }
    CHECK_FALSE(test::bit_equal(params[size_t(3 * l + 1)]->value, params[size_t(3 * l + 2)]->value));  // u != v
  }
  // Untruncated N(0, 0.02^2): the std within 0.0025 (about 3 standard errors of 256 draws),
  // and draws beyond 2.25 std, which a truncated init never makes.
  Tensor all = Tensor::empty(Shape{int64_t(biases.size())});
  std::copy(biases.begin(), biases.end(), all.data());
  const auto b = stats(all);
  CHECK(b[1] == Approx(0.02).margin(0.0025));
  CHECK(b[2] > 0.045);
  // The layers' tables differ (each a function of its own name).
  CHECK_FALSE(test::bit_equal(params[0]->value, params[3]->value));
}

TEST_CASE("transformer_xl: names the shapes it needs", "[posenc][transformer_xl]") {
  auto enc = make_xl(1);
  Tape t;
  const Positions pos{1, 4, {4}};
  Var heads_outer = t.input(Tensor::zeros(Shape{1, kHeads, 4, kHeadDim}));  // (B, H, L, d_h): not the layout
  Var q5 = t.input(Tensor::zeros(Shape{1, 5, kHeads, kHeadDim}));
  Var q = t.input(Tensor::zeros(Shape{1, 4, kHeads, kHeadDim}));
  CHECK_THROWS_WITH(relative_keys(*enc, t, heads_outer, pos, 0), Catch::Matchers::Contains("q must be (B, L, 2, 3)"));
  CHECK_THROWS_WITH(relative_keys(*enc, t, q5, pos, 0), Catch::Matchers::Contains("positions of length 4 for q of length 5"));
  CHECK_THROWS_WITH(relative_keys(*enc, t, q, pos, 1), Catch::Matchers::Contains("layer 1 of a model built for 1"));
}
