// tests/layers/test_score_scale.cpp: Scalable-Softmax (--score-scale log-length,
// ModelConfig::log_length_scale; docs/spec.md §2.16) in a whole model: its parameter, and the
// fused, packed and unfused paths agreeing with it, alone and with a window; on PaTH's
// softmax, each query's weights raised to s_h log n_t.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/ops.h"
#include "layers/attention.h"
#include "layers/masks.h"
#include "layers/model.h"
#include "layers/posenc/encoding.h"
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
  for (const char* enc : {"none", "rope", "alibi", "t5", "cope", "path"})
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

TEST_CASE("SSMax on PaTH: each query's weights are its plain weights to the power s_h log n_t, renormalised",
          "[layers][ssmax][path]") {
  // softmax(f z) = p^f / sum p^f for p = softmax(z): the definition, read off the maps of two
  // layers with the same weights, one with SSMax (s away from 1, per head) and one without.
  const int64_t B = 2, L = 7, D = 8, H = 2;
  EncodingConfig cfg;
  cfg.d_model = D, cfg.n_heads = H, cfg.n_layers = 2, cfg.causal = true, cfg.seed = 4;
  auto path = make_encoding("path", cfg);
  for (Parameter* p : path->parameters()) {  // away from the tiny init: reflections that matter
    CounterRng rng(9, hash64(p->name));
    for (int64_t i = 0; i < p->value.numel(); ++i) p->value[i] = static_cast<Real>(0.4 * rng.normal());
  }
  MultiHeadAttention plain("blocks.1.attn", D, H, 3, 0.02, false), scaled("blocks.1.attn", D, H, 3, 0.02, true);
  const double s[H] = {0.6, 1.3};
  for (int64_t h = 0; h < H; ++h) scaled.log_length_scale->value[h] = static_cast<Real>(s[h]);
  Tensor x = Tensor::empty(Shape{B, L, D});
  CounterRng rng(31, 5);
  for (int64_t i = 0; i < x.numel(); ++i) x[i] = static_cast<Real>(rng.normal());
  const std::vector<int32_t> lengths{7, 4};
  Positions pos = make_positions(L, lengths);
  for (int64_t window : {0, 3}) {
    INFO("window " << window);
    AttentionInputs in;
    in.positions = &pos;
    in.encoding = path.get();
    in.visible = AttentionMask(true, window);
    in.layer = 1;
    in.fused = false;
    Tape t;
    Var plain_maps, scaled_maps;
    plain.forward(t, t.input(x), in, &plain_maps);
    scaled.forward(t, t.input(x), in, &scaled_maps);
    const Tensor &p = t.value(plain_maps), &q = t.value(scaled_maps);
    REQUIRE(q.shape() == Shape{B, H, L, L});
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t i = 0; i < lengths[size_t(b)]; ++i) {
          const int64_t lo = in.visible.key_begin(i), hi = in.visible.key_end(i, lengths[size_t(b)]);
          const double f = s[h] * std::log(double(hi - lo));
          double total = 0;
          for (int64_t j = lo; j < hi; ++j) total += std::pow(double(p[((b * H + h) * L + i) * L + j]), f);
          for (int64_t j = lo; j < hi; ++j) {
            INFO("b " << b << " h " << h << " i " << i << " j " << j);
            const double want = std::pow(double(p[((b * H + h) * L + i) * L + j]), f) / total;
            CHECK(std::fabs(double(q[((b * H + h) * L + i) * L + j]) - want) <= 2e-5);
          }
        }
  }
}
