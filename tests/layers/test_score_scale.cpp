// tests/layers/test_score_scale.cpp: Scalable-Softmax (--score-scale log-length,
// ModelConfig::log_length_scale; docs/spec.md §2.16) in a whole model: its parameter, and the
// fused, packed and unfused paths agreeing with it, alone and with a window.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/ops.h"
#include "layers/model.h"
#include "tests/layers/model_fixtures.h"
#include "train/settings.h"

using namespace ordo;
using namespace ordo::testing;
using Catch::Matchers::Contains;


TEST_CASE("SSMax adds one learned s per layer and head, init 1, without weight decay", "[layers][ssmax]") {
  ModelConfig c = small_model("rope", HeadType::Token);
  c.log_length_scale = true;
  EncoderModel m(c);
  int found = 0;
  for (Parameter* p : m.parameters())
    if (p->name.find("ssmax_s") != std::string::npos) {
      ++found;
      REQUIRE(p->value.shape() == Shape{c.n_heads});
      for (int64_t h = 0; h < c.n_heads; ++h) CHECK(p->value[h] == 1);
    }
  CHECK(found == c.n_layers);
  c.log_length_scale = false;
  EncoderModel plain(c);
  CHECK(plain.parameters().size() + static_cast<size_t>(c.n_layers) == m.parameters().size());
}

TEST_CASE("SSMax: the fused, packed and unfused paths agree", "[layers][ssmax][pack]") {
  TensorI32 x = random_tokens(4, 11, 12, 111);
  const std::vector<int32_t> lengths{11, 6, 1, 9};
  for (const char* enc : {"none", "rope", "alibi", "t5", "cope"})
    for (int64_t window : {0, 4})
      for (bool causal : {false, true}) {
        if (encoding_info(enc).causal_only && !causal) continue;
        INFO(enc << ", window " << window << ", causal " << causal);
        ModelConfig c = small_model(enc, HeadType::Token, causal);
        c.log_length_scale = true;
        c.window = window;
        EncoderModel packed(c);
        // s away from 1, differently per head, so that a wrong head or row shows.
        auto spread = [](EncoderModel& m) {
          for (Parameter* p : m.parameters())
            if (p->name.find("ssmax_s") != std::string::npos)
              for (int64_t h = 0; h < p->value.numel(); ++h) p->value[h] = Real(0.5) + Real(0.7) * Real(h);
        };
        spread(packed);
        c.pack_sequences = false;
        EncoderModel padded(c);
        spread(padded);
        c.fused_attention = false;
        EncoderModel unfused(c);
        spread(unfused);
        auto [out_p, grad_p] = outputs_and_grads(packed, x, lengths);
        auto [out_d, grad_d] = outputs_and_grads(padded, x, lengths);
        auto [out_u, grad_u] = outputs_and_grads(unfused, x, lengths);
        CHECK(relative_diff(out_p, out_d) <= 1e-6);
        CHECK(relative_diff(grad_p, grad_d) <= 1e-6);
        CHECK(relative_diff(out_d, out_u) <= 1e-5);
        CHECK(relative_diff(grad_d, grad_u) <= 1e-5);
      }
}

TEST_CASE("the score-scale setting takes none and log-length only", "[layers][ssmax]") {
  TrainConfig c;
  find_setting("score-scale")->set(c, "log-length");
  CHECK(c.model.log_length_scale);
  find_setting("score-scale")->set(c, "none");
  CHECK(!c.model.log_length_scale);
  REQUIRE_THROWS_WITH(find_setting("score-scale")->set(c, "log"), Contains("accepted: none, log-length"));
}
