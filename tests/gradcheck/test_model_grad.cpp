// tests/gradcheck/test_model_grad.cpp: d loss / d every parameter of a whole 1-layer model
// against central differences, for every encoding and the pooled and token heads (float64).
#include <catch2/catch.hpp>

#include "core/gradcheck.h"
#include "core/ops.h"
#include "layers/model.h"
#include "layers/posenc/encoding.h"
#include "tests/layers/model_fixtures.h"

using namespace ordo;
using namespace ordo::testing;

TEST_CASE("whole-model gradients match finite differences for every encoding", "[gradcheck][model]") {
  for (const auto& info : encodings()) {
    for (HeadType head : {HeadType::Pooled, HeadType::Token}) {
      // Each composition through one head: the production one (fused attention, GEMM
      // epilogues) and the reference one (unfused attention; linear, gelu, add and the rotate
      // hook as separate ops) that test_production_grads.cpp compares float32 against.
      const bool fused = head == HeadType::Token;
      INFO("encoding " << info.name << ", head " << head_name(head) << ", fused " << fused);
      ModelConfig c = small_model(info.name, head, /*causal=*/info.causal_only, /*layers=*/1);
      c.fused_attention = fused;
      c.fused_epilogues = fused;
      c.d_model = 8;
      c.d_ff = 12;
      c.vocab_size = 7;
      EncoderModel model(c);
      // Make LayerNorm gains, biases and tables non-trivial so every path carries gradient.
      CounterRng rng(5, 6);
      for (Parameter* p : model.parameters()) {
        for (int64_t i = 0; i < p->value.numel(); ++i) p->value[i] += static_cast<Real>(0.3 * rng.normal());
        p->project();  // bounded parameters (kerple, fire) stay where training keeps them
      }

      const int64_t B = 2, L = 5;
      TensorI32 tokens = random_tokens(B, L, 7, 8);
      std::vector<int32_t> lengths{5, 3};
      const int64_t rows = head == HeadType::Token ? B * L : B;
      TensorI32 targets = TensorI32::empty(Shape{rows});
      Tensor score = Tensor::empty(Shape{rows});
      for (int64_t r = 0; r < rows; ++r) {
        targets[r] = static_cast<int32_t>(r % 3);
        score[r] = head == HeadType::Token ? Real((r % L) < lengths[r / L] ? 1 : 0) : Real(1);
      }
      auto loss = [&](Tape& t) {
        Var logits = model.forward(t, tokens, lengths).logits;
        return cross_entropy(t, reshape(t, logits, Shape{rows, 3}), targets, score);
      };
      GradCheckResult r = check_parameter_gradients(loss, model.parameters());
      INFO(r.worst);
      CHECK(r.ok);
      CHECK(r.checked > 500);
    }
  }
}
