// tests/layers/test_posenc_fox.cpp: FoX, the Forgetting Transformer (docs/spec.md §2.17).
// Its definition computed literally (loops over i and j, in double) against the attention
// layer's fused path, padded and packed; every gate 1 is `none` bit for bit; bidirectional
// and randomized positions are refused. The kernel's forget term is also held to its
// reference kernel and to finite differences (tests/core/test_fused_attention.cpp,
// tests/gradcheck/test_ops_fused_attention.cpp); the whole-model tests cover fox by registry.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/ops.h"
#include "core/rng.h"
#include "layers/attention.h"
#include "layers/masks.h"
#include "layers/posenc/encoding.h"
#include "tests/layers/model_fixtures.h"

using namespace ordo;
using namespace ordo::testing;
using Catch::Matchers::Contains;

namespace {

constexpr int64_t kHeads = 2, kModel = 8, kLayers = 2;

std::unique_ptr<PositionalEncoding> make_fox() {
  EncodingConfig cfg;
  cfg.d_model = kModel;
  cfg.n_heads = kHeads;
  cfg.n_layers = kLayers;
  cfg.causal = true;
  return make_encoding("fox", cfg);
}

// Every parameter's values spread (N(0, 0.5^2) by name), so gates differ from 0.5 and from
// each other.
void spread(const std::vector<Parameter*>& params) {
  for (Parameter* p : params) {
    CounterRng rng(5, hash64(p->name));
    for (int64_t i = 0; i < p->value.numel(); ++i) p->value[i] = static_cast<Real>(0.5 * rng.normal());
  }
}



}  // namespace

TEST_CASE("fox: the attention layer computes the forgetting attention as defined", "[layers][fox]") {
  // Layer 1 of a model (its own gate), a batch with padding, causal, padded and packed rows.
  auto fox = make_fox();
  spread(fox->parameters());
  MultiHeadAttention attn("blocks.1.attn", kModel, kHeads, 3, 0.02);
  std::vector<Parameter*> weights;
  attn.collect_parameters(weights);
  spread(weights);
  const std::vector<int32_t> lengths{9, 4};
  const int64_t B = 2, L = 9, dh = kModel / kHeads;
  Tensor x = Tensor::empty(Shape{B, L, kModel});
  CounterRng rng(7, 1);
  for (int64_t i = 0; i < x.numel(); ++i) x[i] = static_cast<Real>(rng.normal());

  // The definition: f_l = sigmoid(w_f . x_l + b_f), D_ij = sum_{l=j+1..i} log f_l,
  // logit = q_i . k_j / sqrt(d_h) + D_ij over j <= i < length, out = concat_h(softmax v) W_o + b_o.
  Parameter *wf = nullptr, *bf = nullptr;
  for (Parameter* p : fox->parameters()) {
    if (p->name == "posenc.fox.1.weight") wf = p;
    if (p->name == "posenc.fox.1.bias") bf = p;
  }
  REQUIRE((wf && bf));
  auto row = [&](int64_t b, int64_t t) {
    return std::vector<double>(x.data() + (b * L + t) * kModel, x.data() + (b * L + t + 1) * kModel);
  };
  Tensor expected = Tensor::zeros(Shape{B, L, kModel});
  for (int64_t b = 0; b < B; ++b) {
    const int64_t n = lengths[size_t(b)];
    std::vector<std::vector<double>> q, k, v, logf;
    for (int64_t t = 0; t < n; ++t) {
      q.push_back(affine(row(b, t), attn.w_q.weight, attn.w_q.bias));
      k.push_back(affine(row(b, t), attn.w_k.weight, attn.w_k.bias));
      v.push_back(affine(row(b, t), attn.w_v.weight, attn.w_v.bias));
      std::vector<double> gate = affine(row(b, t), *wf, *bf);
      for (double& g : gate) g = std::log(1 / (1 + std::exp(-g)));
      logf.push_back(gate);
    }
    for (int64_t i = 0; i < n; ++i) {
      std::vector<double> heads(static_cast<size_t>(kModel), 0.0);
      for (int64_t h = 0; h < kHeads; ++h) {
        std::vector<double> logit(static_cast<size_t>(i + 1));
        double top = -INFINITY;
        for (int64_t j = 0; j <= i; ++j) {
          double dot = 0, decay = 0;
          for (int64_t c = 0; c < dh; ++c) dot += q[size_t(i)][size_t(h * dh + c)] * k[size_t(j)][size_t(h * dh + c)];
          for (int64_t l = j + 1; l <= i; ++l) decay += logf[size_t(l)][size_t(h)];
          logit[size_t(j)] = dot / std::sqrt(double(dh)) + decay;
          top = std::max(top, logit[size_t(j)]);
        }
        double total = 0;
        for (double& z : logit) total += z = std::exp(z - top);
        for (int64_t j = 0; j <= i; ++j)
          for (int64_t c = 0; c < dh; ++c) heads[size_t(h * dh + c)] += logit[size_t(j)] / total * v[size_t(j)][size_t(h * dh + c)];
      }
      const std::vector<double> out = affine(heads, attn.w_o.weight, attn.w_o.bias);
      for (int64_t c = 0; c < kModel; ++c) expected[(b * L + i) * kModel + c] = static_cast<Real>(out[size_t(c)]);
    }
  }

  Positions pos = make_positions(L, lengths);
  for (bool packed : {false, true}) {
    INFO("packed " << packed);
    AttentionInputs in;
    in.positions = &pos;
    in.encoding = fox.get();
    in.visible = AttentionMask(true);
    in.layer = 1;
    in.packed = packed;
    Tape t;
    Var input = t.input(x);
    if (packed) input = pack_rows(t, input, lengths);
    Var out = attn.forward(t, input, in);
    if (packed) out = unpack_rows(t, out, lengths, L);
    const Tensor& got = t.value(out);
    for (int64_t b = 0; b < B; ++b)
      for (int64_t i = 0; i < lengths[size_t(b)]; ++i)
        for (int64_t c = 0; c < kModel; ++c) {
          INFO("b " << b << " i " << i << " c " << c);
          REQUIRE(std::fabs(double(got[(b * L + i) * kModel + c]) - double(expected[(b * L + i) * kModel + c])) <= 2e-5);
        }
  }
}

TEST_CASE("fox with every gate 1 is none, bit for bit", "[layers][fox]") {
  // w_f = 0 and b_f = 200: log sigmoid(200) = -log1p(e^-200) = 0 in float32, so F = 0.
  TensorI32 x = random_tokens(3, 11, 12, 121);
  const std::vector<int32_t> lengths{11, 6, 1};
  ModelConfig c = small_model("fox", HeadType::Token, true);
  EncoderModel fox(c);
  for (Parameter* p : fox.encoding().parameters())
    for (int64_t i = 0; i < p->value.numel(); ++i)
      p->value[i] = p->name.find(".bias") != std::string::npos ? Real(200) : Real(0);
  c.encoding = "none";
  EncoderModel none(c);
  Tape t1, t2;
  const Tensor a = t1.value(fox.forward(t1, x, lengths).logits).clone();
  const Tensor b = t2.value(none.forward(t2, x, lengths).logits).clone();
  CHECK(a.to_vector() == b.to_vector());
  // ...and the usual init (f = 0.5) is not.
  EncoderModel fresh(small_model("fox", HeadType::Token, true));
  Tape t3;
  const Tensor f = t3.value(fresh.forward(t3, x, lengths).logits).clone();
  CHECK(f.to_vector() != b.to_vector());
}

TEST_CASE("fox has one gate per layer and is refused bidirectionally", "[layers][fox]") {
  auto fox = make_fox();
  REQUIRE(fox->parameters().size() == 2 * kLayers);
  CHECK(fox->parameters()[0]->value.shape() == (Shape{kModel, kHeads}));
  CHECK(fox->parameters()[1]->value.shape() == (Shape{kHeads}));
  EncodingConfig cfg;
  cfg.d_model = kModel;
  cfg.n_heads = kHeads;
  cfg.causal = false;
  REQUIRE_THROWS_WITH(make_encoding("fox", cfg), Contains("causal attention only"));
  CHECK(!encoding_info("fox").takes_random_positions);
}
