// tests/layers/test_layer_encodings.cpp: one encoding per layer (ModelConfig::layer_encodings,
// --layer-encodings) and the sliding window (ModelConfig::window, --window) in a whole
// model: docs/spec.md §2.15 and §4.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>

#include "core/ops.h"
#include "layers/model.h"
#include "layers/posenc/encoding.h"
#include "tests/layers/model_fixtures.h"

using namespace ordo;
using namespace ordo::testing;
using Catch::Matchers::Contains;


TEST_CASE("layer encodings E,E are the encoding E bit for bit, for every encoding", "[layers][layer-encodings]") {
  // The layers naming one encoding share its one instance, so this holds for a parametrised
  // encoding (t5, fire, cope, ...) as for rope and alibi.
  TensorI32 x = random_tokens(3, 11, 12, 61);
  const std::vector<int32_t> lengths{11, 6, 1};
  for (const auto& info : encodings())
    for (bool causal : {false, true}) {
      if (info.causal_only && !causal) continue;
      INFO("encoding " << info.name << ", causal " << causal);
      ModelConfig one = small_model(info.name, HeadType::Token, causal);
      ModelConfig per_layer = one;
      per_layer.encoding = "none";  // not used when layer_encodings is given
      per_layer.layer_encodings = {info.name, info.name};
      EncoderModel a(one), b(per_layer);
      REQUIRE(a.parameters().size() == b.parameters().size());
      auto [out_a, grad_a] = outputs_and_grads(a, x, lengths);
      auto [out_b, grad_b] = outputs_and_grads(b, x, lengths);
      CHECK(out_a == out_b);
      CHECK(grad_a == grad_b);
    }
}

TEST_CASE("layer encodings give each layer its own encoding", "[layers][layer-encodings]") {
  TensorI32 x = random_tokens(2, 9, 12, 71);
  const std::vector<int32_t> lengths{9, 5};
  auto logits = [&](ModelConfig c) {
    auto m = spread_model(c);
    Tape t;
    NoGradGuard g(t);
    return t.value(m->forward(t, x, lengths).logits).to_vector();
  };
  for (bool causal : {false, true}) {
    INFO("causal " << causal);
    ModelConfig c = small_model("rope", HeadType::Token, causal);
    const auto rope = logits(c);
    c.encoding = "none";
    const auto none = logits(c);
    c.layer_encodings = {"rope", "none"};
    EncoderModel hybrid(c);
    CHECK(hybrid.encoding(0).name() == "rope");
    CHECK(hybrid.encoding(1).name() == "none");
    const auto rnope = logits(c);
    CHECK(max_diff(rnope, rope) > 1e-3);
    CHECK(max_diff(rnope, none) > 1e-3);
    c.layer_encodings = {"none", "rope"};
    CHECK(max_diff(logits(c), rnope) > 1e-3);  // the order of the layers matters
  }
}

TEST_CASE("mixed layer encodings keep padding, packing and the unfused path's results", "[layers][layer-encodings][pack]") {
  const std::vector<std::vector<std::string>> mixes = {{"rope", "none"}, {"t5", "alibi"}, {"sinusoidal", "kerple_log"},
                                                      {"cope", "rope"}, {"fox", "rope"}, {"none", "path"}};
  TensorI32 x = random_tokens(4, 11, 12, 81);
  const std::vector<int32_t> lengths{11, 6, 1, 9};
  for (const auto& mix : mixes)
    for (bool causal : {false, true}) {
      if (!causal && (encoding_info(mix[0]).causal_only || encoding_info(mix[1]).causal_only)) continue;
      INFO(mix[0] << "+" << mix[1] << ", causal " << causal);
      ModelConfig c = small_model("none", HeadType::Token, causal);
      c.layer_encodings = mix;
      EncoderModel packed(c);
      c.pack_sequences = false;
      EncoderModel padded(c);
      c.fused_attention = false;
      EncoderModel unfused(c);
      auto [out_p, grad_p] = outputs_and_grads(packed, x, lengths);
      auto [out_d, grad_d] = outputs_and_grads(padded, x, lengths);
      auto [out_u, grad_u] = outputs_and_grads(unfused, x, lengths);
      CHECK(max_diff(out_p, out_d) <= 1e-6);
      CHECK(max_diff(grad_p, grad_d) <= 1e-6);
      CHECK(max_diff(out_d, out_u) <= 1e-5);
      CHECK(max_diff(grad_d, grad_u) <= 1e-5);
    }
}

TEST_CASE("a per-layer encoding has parameters in the blocks that use it only, with their values",
          "[layers][layer-encodings]") {
  for (const char* enc : {"cope", "fox", "path"})
    for (int64_t used : {0, 1}) {
      INFO(enc << " in block " << used);
      ModelConfig c = small_model(enc, HeadType::Token, true, 2);
      EncoderModel everywhere(c);
      c.layer_encodings = {"none", "none"};
      c.layer_encodings[static_cast<size_t>(used)] = enc;
      EncoderModel mixed(c);
      PositionalEncoding& e = mixed.encoding(used);
      REQUIRE(e.name() == enc);
      std::vector<Parameter*> all = everywhere.encoding(0).parameters(), some = e.parameters();
      REQUIRE(!some.empty());
      CHECK(2 * some.size() == all.size());
      const std::string mine = std::string("posenc.") + enc + "." + std::to_string(used);
      for (Parameter* p : some) {
        INFO(p->name);
        CHECK(p->name.rfind(mine, 0) == 0);  // posenc.<enc>.<block>...
        for (Parameter* q : all)
          if (q->name == p->name) CHECK(q->value.to_vector() == p->value.to_vector());  // made as under --encoding
      }
    }
}

TEST_CASE("layer encodings parse E1,E2 and E1+E2 alike and print E1+E2", "[layers][layer-encodings]") {
  const LayerEncodings commas = LayerEncodings::parse("rope,none,rope", "--layer-encodings");
  const LayerEncodings pluses = LayerEncodings::parse("rope+none+rope", "--layer-encodings");
  CHECK(commas == pluses);
  CHECK(commas == LayerEncodings{"rope", "none", "rope"});
  CHECK(commas.str() == "rope+none+rope");
  CHECK(LayerEncodings::parse(commas.str(), "x") == commas);  // printing and parsing round-trip
  CHECK(LayerEncodings::parse("", "x").empty());
  CHECK(LayerEncodings{}.str().empty());
  CHECK(LayerEncodings::parse("alibi", "x") == LayerEncodings{"alibi"});
  for (const char* bad : {"rope,,none", "rope+", "+rope", ",", "rope++none"})
    CHECK_THROWS_WITH(LayerEncodings::parse(bad, "--flag"),
                      Contains(std::string("--flag: '") + bad + "' has an empty part"));
  CHECK_THROWS_WITH(LayerEncodings::parse("rope+none,rope", "--flag"), Contains("mixes '+' and ','"));
}

TEST_CASE("bad layer encodings are refused, naming the problem", "[layers][layer-encodings]") {
  ModelConfig c = small_model("none", HeadType::Token, false, 2);
  c.layer_encodings = {"rope"};
  REQUIRE_THROWS_WITH(EncoderModel(c), Contains("names 1 encodings for --layers 2"));
  c.layer_encodings = {"rope", "nope"};
  REQUIRE_THROWS_WITH(EncoderModel(c), Contains("nope") && Contains("known"));
  c.layer_encodings = {"kerple_log", "kerple_power"};  // both call their tables posenc.kerple_r1
  REQUIRE_THROWS_WITH(EncoderModel(c), Contains("both have a parameter 'posenc.kerple_r1'"));
  c.layer_encodings = {"rope", "xpos"};
  REQUIRE_THROWS_WITH(EncoderModel(c), Contains("causal"));
  c.causal = true;
  c.log_length_scale = true;  // SSMax scales a softmax, which stick-breaking replaces
  c.layer_encodings = {"rope", "stickbreaking"};
  REQUIRE_THROWS_WITH(EncoderModel(c), Contains("stickbreaking has no softmax"));
  c.layer_encodings = {"rope", "path"};  // PaTH keeps its softmax
  CHECK_NOTHROW(EncoderModel(c));
}

TEST_CASE("a sliding window in the model: the unfused mask and the fused kernel agree, W >= L is no window",
          "[layers][window]") {
  TensorI32 x = random_tokens(4, 11, 12, 91);
  const std::vector<int32_t> lengths{11, 6, 1, 9};
  for (const char* enc : {"rope", "alibi", "t5", "cope"})
    for (bool causal : {false, true}) {
      if (encoding_info(enc).causal_only && !causal) continue;
      INFO(enc << ", causal " << causal);
      ModelConfig c = small_model(enc, HeadType::Token, causal);
      auto [out_all, grad_all] = outputs_and_grads(*spread_model(c), x, lengths);
      c.window = 11;
      auto [out_wide, grad_wide] = outputs_and_grads(*spread_model(c), x, lengths);
      CHECK(out_wide == out_all);
      CHECK(grad_wide == grad_all);
      c.window = 3;
      auto [out_p, grad_p] = outputs_and_grads(*spread_model(c), x, lengths);
      CHECK(max_diff(out_p, out_all) > 1e-3);
      c.pack_sequences = false;
      auto [out_d, grad_d] = outputs_and_grads(*spread_model(c), x, lengths);
      c.fused_attention = false;
      auto [out_u, grad_u] = outputs_and_grads(*spread_model(c), x, lengths);
      CHECK(relative_diff(out_p, out_d) <= 1e-5);
      CHECK(relative_diff(grad_p, grad_d) <= 1e-5);
      CHECK(relative_diff(out_d, out_u) <= 1e-5);
      CHECK(relative_diff(grad_d, grad_u) <= 1e-5);
    }
}

TEST_CASE("a causal window of W: with one layer, the output at t depends on tokens t - W + 1 .. t only",
          "[layers][window]") {
  ModelConfig c = small_model("rope", HeadType::Token, true, 1);
  c.window = 3;
  auto m = spread_model(c);
  TensorI32 x = random_tokens(1, 10, 12, 101);
  auto logits = [&](const TensorI32& tokens) {
    Tape t;
    NoGradGuard g(t);
    return t.value(m->forward(t, tokens, {10}).logits).clone();
  };
  const Tensor before = logits(x);
  TensorI32 changed = x.clone();
  changed[4] = changed[4] % 11 + 1;  // another token at position 4
  const Tensor after = logits(changed);
  const int64_t C = before.dim(2);
  for (int64_t t = 0; t < 10; ++t) {
    double diff = 0;
    for (int64_t k = 0; k < C; ++k) diff += std::fabs(double(after[t * C + k] - before[t * C + k]));
    INFO("position " << t);
    CHECK((diff > 0) == (t >= 4 && t <= 6));
  }
}
