// tests/layers/test_posenc_pope.cpp: PoPE, polar coordinate position embeddings (docs/spec.md
// §2.19). Its definition computed literally (loops over i, j and the frequencies, in double)
// against the attention layer's fused, packed and unfused paths; the score depends on the
// positions only through i - j; the key phase is clamped to [-2 pi, 0] and starts at 0 (or
// U(-2 pi, 0)). The polar op and the hook are checked against finite differences in
// tests/gradcheck/test_posenc_grad.cpp; the whole-model tests cover pope by registry.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "core/ops.h"
#include "core/rng.h"
#include "layers/attention.h"
#include "layers/masks.h"
#include "layers/posenc/encoding.h"
#include "tests/layers/model_fixtures.h"

using namespace ordo;
using namespace ordo::testing;

namespace {

constexpr int64_t kHeads = 2, kModel = 8;
constexpr double kTwoPi = 2 * std::numbers::pi;

std::unique_ptr<PositionalEncoding> make_pope(const std::string& init = "zero") {
  EncodingConfig cfg;
  cfg.d_model = kModel;
  cfg.n_heads = kHeads;
  cfg.seed = 3;
  cfg.options.set("pope-phase-init", init);
  return make_encoding("pope", cfg);
}

double at(const Parameter& p, int64_t i) { return static_cast<double>(p.value[i]); }


double softplus(double x) { return std::log1p(std::exp(x)); }

}  // namespace

TEST_CASE("pope: the attention layer computes the polar attention as defined", "[layers][pope]") {
  auto pope = make_pope("uniform");  // a phase that matters: U(-2 pi, 0)
  Parameter& delta = *pope->parameters().at(0);
  MultiHeadAttention attn("blocks.0.attn", kModel, kHeads, 3, 0.02);
  std::vector<Parameter*> weights;
  attn.collect_parameters(weights);
  for (Parameter* p : weights) {  // N(0, 0.5^2): scores well away from uniform
    CounterRng rng(5, hash64(p->name));
    for (int64_t i = 0; i < p->value.numel(); ++i) p->value[i] = static_cast<Real>(0.5 * rng.normal());
  }
  const std::vector<int32_t> lengths{9, 4};
  const int64_t B = 2, L = 9, dh = kModel / kHeads;
  Tensor x = Tensor::empty(Shape{B, L, kModel});
  CounterRng rng(7, 1);
  for (int64_t i = 0; i < x.numel(); ++i) x[i] = static_cast<Real>(rng.normal());
  auto row = [&](int64_t b, int64_t t) {
    return std::vector<double>(x.data() + (b * L + t) * kModel, x.data() + (b * L + t + 1) * kModel);
  };

  for (bool causal : {false, true}) {
    // The definition: theta_c = 10000^(-c/d_h), c < d_h; logit_ij = sum_c softplus(q_ic)
    // softplus(k_jc) cos((j - i) theta_c + delta_hc) / sqrt(d_h) over the visible j.
    Tensor expected = Tensor::zeros(Shape{B, L, kModel});
    for (int64_t b = 0; b < B; ++b) {
      const int64_t n = lengths[size_t(b)];
      std::vector<std::vector<double>> q, k, v;
      for (int64_t t = 0; t < n; ++t) {
        q.push_back(affine(row(b, t), attn.w_q.weight, attn.w_q.bias));
        k.push_back(affine(row(b, t), attn.w_k.weight, attn.w_k.bias));
        v.push_back(affine(row(b, t), attn.w_v.weight, attn.w_v.bias));
      }
      for (int64_t i = 0; i < n; ++i) {
        std::vector<double> heads(static_cast<size_t>(kModel), 0.0);
        const int64_t end = causal ? i + 1 : n;
        for (int64_t h = 0; h < kHeads; ++h) {
          std::vector<double> logit(static_cast<size_t>(end));
          double top = -INFINITY;
          for (int64_t j = 0; j < end; ++j) {
            double dot = 0;
            for (int64_t c = 0; c < dh; ++c) {
              const double theta = std::pow(10000.0, -double(c) / double(dh));
              dot += softplus(q[size_t(i)][size_t(h * dh + c)]) * softplus(k[size_t(j)][size_t(h * dh + c)]) *
                     std::cos(double(j - i) * theta + at(delta, h * dh + c));
            }
            logit[size_t(j)] = dot / std::sqrt(double(dh));
            top = std::max(top, logit[size_t(j)]);
          }
          double total = 0;
          for (double& z : logit) total += z = std::exp(z - top);
          for (int64_t j = 0; j < end; ++j)
            for (int64_t c = 0; c < dh; ++c)
              heads[size_t(h * dh + c)] += logit[size_t(j)] / total * v[size_t(j)][size_t(h * dh + c)];
        }
        const std::vector<double> out = affine(heads, attn.w_o.weight, attn.w_o.bias);
        for (int64_t c = 0; c < kModel; ++c) expected[(b * L + i) * kModel + c] = static_cast<Real>(out[size_t(c)]);
      }
    }

    Positions pos = make_positions(L, lengths);
    for (int path = 0; path < 3; ++path) {  // fused on padded rows, fused on packed rows, unfused
      INFO("causal " << causal << " path " << path);
      AttentionInputs in;
      in.positions = &pos;
      in.encoding = pope.get();
      in.visible = AttentionMask(causal);
      in.packed = path == 1;
      in.fused = path != 2;
      if (!in.fused) in.mask = attention_mask(pos, in.visible);
      Tape t;
      Var input = t.input(x);
      if (in.packed) input = pack_rows(t, input, lengths);
      Var out = attn.forward(t, input, in);
      if (in.packed) out = unpack_rows(t, out, lengths, L);
      const Tensor& got = t.value(out);
      for (int64_t b = 0; b < B; ++b)
        for (int64_t i = 0; i < lengths[size_t(b)]; ++i)
          for (int64_t c = 0; c < kModel; ++c) {
            INFO("b " << b << " i " << i << " c " << c);
            REQUIRE(std::fabs(double(got[(b * L + i) * kModel + c]) - double(expected[(b * L + i) * kModel + c])) <=
                    2e-5);
          }
    }
  }
}

TEST_CASE("pope's scores depend on the positions only through i - j", "[layers][pope]") {
  // Every position shifted by 37 (randomized positions, contiguous): the same logits up to
  // the rounding of the angle tables; positions with a gap: different logits.
  ModelConfig c = small_model("pope", HeadType::Token, true);
  c.posenc.options.set("pope-phase-init", "uniform");
  auto model = spread_model(c);
  TensorI32 x = random_tokens(2, 10, 12, 77);
  const std::vector<int32_t> lengths{10, 7};
  auto logits = [&](std::vector<int32_t> positions) {
    ForwardOptions fo;
    fo.positions = std::move(positions);
    Tape t;
    return t.value(model->forward(t, x, lengths, fo).logits).clone().to_vector();
  };
  std::vector<int32_t> from0(10), from37(10), gap(10);
  for (int32_t i = 0; i < 10; ++i) from0[size_t(i)] = i, from37[size_t(i)] = 37 + i, gap[size_t(i)] = i < 5 ? i : i + 3;
  const std::vector<Real> a = logits(from0), b = logits(from37), g = logits(gap);
  CHECK(max_diff(a, b) < 2e-5);
  CHECK(max_diff(a, g) > 1e-3);
}

TEST_CASE("pope's key phase starts at 0 or in U(-2 pi, 0) and is clamped to [-2 pi, 0]", "[layers][pope]") {
  auto zero = make_pope("zero");
  REQUIRE(zero->parameters().size() == 1);
  const Parameter& p0 = *zero->parameters()[0];
  CHECK(p0.name == "posenc.pope_phase");
  CHECK(p0.value.shape() == Shape{kModel});  // one per head and frequency: H d_h
  for (int64_t i = 0; i < p0.value.numel(); ++i) CHECK(p0.value[i] == 0);
  auto uniform = make_pope("uniform");
  const Parameter& pu = *uniform->parameters()[0];
  for (int64_t i = 0; i < pu.value.numel(); ++i) CHECK((pu.value[i] < 0 && pu.value[i] >= Real(-kTwoPi)));

  // A phase beyond a bound acts as the bound: the keys are the same bit for bit.
  const int64_t B = 1, L = 4;
  Tensor q = Tensor::full(Shape{B, L, kHeads, kModel / kHeads}, Real(0.3)), k = q.clone();
  auto keys = [&](Real phase) {
    Parameter& p = *uniform->parameters()[0];
    for (int64_t i = 0; i < p.value.numel(); ++i) p.value[i] = phase;
    Tape t;
    auto [qp, kp] = uniform->rotate(t, t.input(q), t.input(k), Positions{B, L, {4}});
    CHECK(t.shape(qp) == Shape{B, L, kHeads, 2 * kModel / kHeads});
    return t.value(kp).clone().to_vector();
  };
  CHECK(keys(1) == keys(0));
  CHECK(keys(-7) == keys(static_cast<Real>(-kTwoPi)));
  CHECK(keys(-1) != keys(0));
  REQUIRE_THROWS_WITH(make_pope("random"), Catch::Matchers::Contains("accepted: zero, uniform"));
}
