// tests/layers/test_model_invariances.cpp: docs/spec.md §4 (padding) and section 2
// (permutation invariance of NoPE, causality), for every registered encoding.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>

#include "core/ops.h"
#include "layers/model.h"
#include "layers/posenc/encoding.h"
#include "tests/layers/model_fixtures.h"

using namespace ordo;
using namespace ordo::testing;

namespace {

// Logits of a forward pass, as a plain tensor.
Tensor logits_of(EncoderModel& m, const TensorI32& tokens, const std::vector<int32_t>& lengths) {
  Tape t;
  NoGradGuard g(t);
  return t.value(m.forward(t, tokens, lengths).logits).clone();
}

// Rows [0, n) of sequence b of a token-head output (B, L, C), or row b of (B, C).
std::vector<Real> real_part(const Tensor& logits, int64_t b, int64_t n) {
  const int64_t C = logits.shape()[-1];
  if (logits.rank() == 2) return {logits.data() + b * C, logits.data() + (b + 1) * C};
  const int64_t L = logits.dim(1);
  return {logits.data() + (b * L) * C, logits.data() + (b * L + n) * C};
}



}  // namespace

TEST_CASE("padding and batching leave every encoding's real outputs unchanged (docs/spec.md §4)", "[layers][padding]") {
  for (const auto& info : encodings()) {
    for (HeadType head : {HeadType::Token, HeadType::Pooled, HeadType::Cls}) {
      for (bool causal : {false, true}) {
        if (info.causal_only && !causal) continue;  // refused bidirectionally (xpos)
        INFO("encoding " << info.name << ", head " << head_name(head) << ", causal " << causal);
        EncoderModel model(small_model(info.name, head, causal));
        const int64_t n = 7, L = 12;
        TensorI32 alone = random_tokens(1, n, 12, 1);
        Tensor ref = logits_of(model, alone, {int32_t(n)});

        // Padded to L with arbitrary (non-PAD, random) content after position n.
        TensorI32 padded = random_tokens(1, L, 12, 2);
        for (int64_t t = 0; t < n; ++t) padded[t] = alone[t];
        Tensor got = logits_of(model, padded, {int32_t(n)});
        CHECK(max_diff(real_part(got, 0, n), real_part(ref, 0, n)) <= 1e-5);

        // Batched (second in the batch) with a longer and a shorter sequence.
        TensorI32 batch = random_tokens(3, L, 12, 3);
        for (int64_t t = 0; t < n; ++t) batch[1 * L + t] = alone[t];
        Tensor together = logits_of(model, batch, {int32_t(L), int32_t(n), 4});
        CHECK(max_diff(real_part(together, 1, n), real_part(ref, 0, n)) <= 1e-5);
      }
    }
  }
}

TEST_CASE("with no encoding, bidirectional attention and mean pooling, order is invisible (docs/spec.md §2)", "[layers][nope]") {
  EncoderModel model(small_model("none", HeadType::Pooled));
  TensorI32 x = random_tokens(1, 9, 12, 5);
  Tensor ref = logits_of(model, x, {9});
  TensorI32 swapped = x.clone();
  int64_t other = 2;
  while (x[other] == x[1]) ++other;  // swap two different tokens
  std::swap(swapped[1], swapped[other]);
  REQUIRE(swapped[1] != x[1]);  // the swap really changes the sequence
  Tensor got = logits_of(model, swapped, {9});
  CHECK(max_diff(got.to_vector(), ref.to_vector()) <= 1e-6);

  // ...while any positional encoding sees it.
  EncoderModel rope(small_model("sinusoidal", HeadType::Pooled));
  CHECK(max_diff(logits_of(rope, swapped, {9}).to_vector(), logits_of(rope, x, {9}).to_vector()) > 1e-5);
}

TEST_CASE("causal attention: the output at t does not depend on inputs after t", "[layers][causal]") {
  for (const auto& info : encodings()) {
    INFO("encoding " << info.name);
    EncoderModel model(small_model(info.name, HeadType::Token, /*causal=*/true));
    const int64_t L = 10, changed = 6;
    TensorI32 x = random_tokens(1, L, 12, 7);
    Tensor ref = logits_of(model, x, {int32_t(L)});
    TensorI32 y = x.clone();
    y[changed] = x[changed] % 11 + 1;  // a different non-PAD token
    Tensor got = logits_of(model, y, {int32_t(L)});
    const int64_t C = 3;
    std::vector<Real> before_ref(ref.data(), ref.data() + changed * C), before_got(got.data(), got.data() + changed * C);
    CHECK(max_diff(before_got, before_ref) == 0.0);
    std::vector<Real> at_ref(ref.data() + changed * C, ref.data() + L * C), at_got(got.data() + changed * C, got.data() + L * C);
    CHECK(max_diff(at_got, at_ref) > 1e-6);
  }
}

TEST_CASE("parameters have hierarchical names and docs/spec.md §1 initial values", "[layers][model]") {
  EncoderModel model(small_model("t5", HeadType::Pooled));
  std::vector<std::string> names;
  for (Parameter* p : model.parameters()) names.push_back(p->name);
  auto has = [&](const std::string& n) { return std::find(names.begin(), names.end(), n) != names.end(); };
  CHECK(has("embed.table"));
  CHECK(has("blocks.0.attn.w_q.weight"));
  CHECK(has("blocks.1.ffn.fc2.bias"));
  CHECK(has("blocks.0.ln1.gamma"));
  CHECK(has("ln_f.beta"));
  CHECK(has("head.proj.weight"));
  CHECK(has("posenc.t5_bias"));
  CHECK(!has("head.cls"));  // only with the cls head
  std::sort(names.begin(), names.end());
  CHECK(std::adjacent_find(names.begin(), names.end()) == names.end());  // unique
  auto rms = [](const Parameter* p) {
    double s = 0;
    for (int64_t i = 0; i < p->value.numel(); ++i) s += double(p->value[i]) * p->value[i];
    return std::sqrt(s / p->value.numel());
  };
  for (Parameter* p : model.parameters()) {
    if (p->name.find("gamma") != std::string::npos) CHECK(p->value[0] == 1);
    if (p->name.find("bias") != std::string::npos && p->name != "posenc.t5_bias") CHECK(p->value[0] == 0);
    // Every weight N(0, 0.02), the output projections W_o and fc2 included (docs/spec.md §1); the
    // RMS of 256 or more values is within 15% of the std.
    if (p->name.ends_with(".weight") && p->value.numel() >= 256) {
      INFO(p->name);
      CHECK(rms(p) == Approx(0.02).epsilon(0.15));
    }
  }
  // The option: W_o and fc2 scaled by 1/sqrt(2 n_layers) = 1/2, nothing else.
  ModelConfig scaled_cfg = small_model("t5", HeadType::Pooled);
  scaled_cfg.scale_output_init = true;
  EncoderModel scaled(scaled_cfg);
  for (Parameter* p : scaled.parameters())
    if (p->name.ends_with(".weight") && p->value.numel() >= 256) {
      INFO(p->name);
      const bool output = p->name.ends_with("attn.w_o.weight") || p->name.ends_with("ffn.fc2.weight");
      CHECK(rms(p) == Approx(output ? 0.01 : 0.02).epsilon(0.15));
    }
}

TEST_CASE("scale-embed: the token table times sqrt(d) is the model with that table unscaled", "[layers][model]") {
  // sqrt(d) E with the unscaled model is E with the scaled one (docs/spec.md §1.1), for an
  // embedding-term encoding (the position term is added after the scaling, so not scaled) and
  // with the cls head (the cls vector is not scaled either).
  for (const char* encoding : {"sinusoidal", "learned", "rope"})
    for (HeadType head : {HeadType::Token, HeadType::Cls}) {
      INFO(encoding << ", head " << head_name(head));
      ModelConfig cfg = small_model(encoding, head);
      cfg.scale_embed = true;
      EncoderModel scaled(cfg);
      cfg.scale_embed = false;
      EncoderModel plain(cfg);
      for (Parameter* p : plain.parameters())
        if (p->name == "embed.table")
          for (int64_t i = 0; i < p->value.numel(); ++i) p->value[i] *= static_cast<Real>(std::sqrt(16.0));
      TensorI32 x = random_tokens(2, 9, 12, 4);
      const std::vector<Real> a = real_part(logits_of(scaled, x, {9, 6}), 0, 9);
      const std::vector<Real> b = real_part(logits_of(plain, x, {9, 6}), 0, 9);
      CHECK(max_diff(a, b) <= 1e-7);  // x 4 is exact in float: the same bits
      // And the scaling is not a no-op: the unscaled table gives other logits.
      EncoderModel unscaled(cfg);
      CHECK(max_diff(real_part(logits_of(unscaled, x, {9, 6}), 0, 9), a) > 1e-5);
    }
}

TEST_CASE("bad model settings are refused with the accepted values", "[layers][model]") {
  ModelConfig c = small_model("rope", HeadType::Pooled);
  c.n_heads = 3;
  REQUIRE_THROWS_WITH(EncoderModel(c), Catch::Contains("not divisible by --heads"));
  c = small_model("nope", HeadType::Pooled);
  REQUIRE_THROWS_WITH(EncoderModel(c), Catch::Contains("known:") && Catch::Contains("sinusoidal"));
  REQUIRE_THROWS_WITH(parse_head("mean"), Catch::Contains("token, pooled, cls"));
}

TEST_CASE("fused and unfused attention give the same model outputs and gradients", "[layers][fused]") {
  for (const auto& info : encodings()) {
    for (bool causal : {false, true}) {
      if (info.causal_only && !causal) continue;  // refused bidirectionally (xpos)
      INFO("encoding " << info.name << ", causal " << causal);
      ModelConfig c = small_model(info.name, HeadType::Token, causal);
      EncoderModel fused(c);
      c.fused_attention = false;
      EncoderModel unfused(c);
      TensorI32 x = random_tokens(3, 11, 12, 21);
      std::vector<int32_t> lengths{11, 6, 1};
      auto run = [&](EncoderModel& m) { return outputs_and_grads(m, x, lengths); };
      auto [out_f, grad_f] = run(fused);
      auto [out_u, grad_u] = run(unfused);
      CHECK(max_diff(out_f, out_u) <= 1e-5);
      CHECK(max_diff(grad_f, grad_u) <= 1e-5);
    }
  }
}

TEST_CASE("packed rows give the padded path's outputs and gradients", "[layers][pack]") {
  // The blocks on the real rows only (pack_sequences, the default) against the same model on
  // the padded rows with the output mask. Only sums over rows (bias, norm and weight
  // gradients) may associate differently.
  for (const auto& info : encodings()) {
    for (HeadType head : {HeadType::Token, HeadType::Pooled, HeadType::Cls}) {
      for (bool causal : {false, true}) {
        if (info.causal_only && !causal) continue;  // refused bidirectionally (xpos)
        INFO("encoding " << info.name << ", head " << head_name(head) << ", causal " << causal);
        ModelConfig c = small_model(info.name, head, causal);
        EncoderModel packed(c);
        c.pack_sequences = false;
        EncoderModel padded(c);
        TensorI32 x = random_tokens(4, 11, 12, 31);
        const std::vector<int32_t> lengths{11, 6, 1, 9};
        auto [out_p, grad_p] = outputs_and_grads(packed, x, lengths);
        auto [out_u, grad_u] = outputs_and_grads(padded, x, lengths);
        CHECK(max_diff(out_p, out_u) <= 1e-6);
        CHECK(max_diff(grad_p, grad_u) <= 1e-6);
      }
    }
  }
}

TEST_CASE("rope's partial and scaled forms: padding, batching, packing and the unfused path agree", "[layers][padding][rope]") {
  // The training length is 5, so sequences of 6 and more are scaled (s = n / 5, per
  // sequence): each sequence's scale comes from its own length, never from the padding.
  const std::vector<std::pair<std::string, std::string>> variants{
      {"rope-scaling", "pi"}, {"rope-scaling", "ntk"}, {"rope-scaling", "yarn"}, {"rope-fraction", "0.5"}};
  for (const auto& [option, value] : variants) {
    for (bool causal : {false, true}) {
      INFO("--" << option << " " << value << ", causal " << causal);
      ModelConfig c = small_model("rope", HeadType::Token, causal);
      c.posenc.train_positions = 5;
      c.posenc.options.set(option, value);
      EncoderModel model(c);
      const int64_t n = 7, L = 12;
      TensorI32 alone = random_tokens(1, n, 12, 41);
      Tensor ref = logits_of(model, alone, {int32_t(n)});
      TensorI32 batch = random_tokens(3, L, 12, 42);
      for (int64_t t = 0; t < n; ++t) batch[1 * L + t] = alone[t];
      const std::vector<int32_t> lengths{int32_t(L), int32_t(n), 4};
      CHECK(max_diff(real_part(logits_of(model, batch, lengths), 1, n), real_part(ref, 0, n)) <= 1e-5);

      c.pack_sequences = false;
      EncoderModel padded(c);
      c.fused_attention = false;
      EncoderModel unfused(c);
      auto [out_p, grad_p] = outputs_and_grads(model, batch, lengths);
      auto [out_u, grad_u] = outputs_and_grads(padded, batch, lengths);
      auto [out_r, grad_r] = outputs_and_grads(unfused, batch, lengths);
      CHECK(max_diff(out_p, out_u) <= 1e-6);
      CHECK(max_diff(grad_p, grad_u) <= 1e-6);
      CHECK(max_diff(out_p, out_r) <= 1e-5);
      CHECK(max_diff(grad_p, grad_r) <= 1e-5);
    }
  }
}

TEST_CASE("rope --rope-fraction 1 is rope and 0 is none (docs/spec.md §2.4)", "[layers][rope]") {
  TensorI32 x = random_tokens(2, 9, 12, 51);
  const std::vector<int32_t> lengths{9, 5};
  auto model = [](const ModelConfig& c) { return spread_model(c); };  // weights away from the init
  auto with = [](bool causal, const char* fraction) {
    ModelConfig c = small_model("rope", HeadType::Token, causal);
    c.posenc.options.set("rope-fraction", fraction);
    return c;
  };
  for (bool causal : {false, true}) {
    INFO("causal " << causal);
    const Tensor rope = logits_of(*model(small_model("rope", HeadType::Token, causal)), x, lengths);
    const Tensor none = logits_of(*model(small_model("none", HeadType::Token, causal)), x, lengths);
    CHECK(logits_of(*model(with(causal, "1")), x, lengths).to_vector() == rope.to_vector());  // the same bits
    CHECK(max_diff(logits_of(*model(with(causal, "0")), x, lengths).to_vector(), none.to_vector()) <= 1e-6);
    // ...and a half is neither.
    const Tensor half = logits_of(*model(with(causal, "0.5")), x, lengths);
    CHECK(max_diff(half.to_vector(), none.to_vector()) > 1e-3);
    CHECK(max_diff(half.to_vector(), rope.to_vector()) > 1e-3);
  }
}
