// tests/layers/test_posenc_kerple.cpp: the KERPLE biases (docs/spec.md §2.9) against their
// formulas, the power form at r2 = 1 against ALiBi's bias, and the parameters' bounds
// through training.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/ops.h"
#include "layers/posenc/alibi.h"
#include "layers/posenc/encoding.h"
#include "tests/layers/model_fixtures.h"
#include "train/trainer.h"

using namespace ordo;
using namespace ordo::testing;

namespace {

EncodingConfig config(int64_t heads, bool causal = false) {
  EncodingConfig cfg;
  cfg.d_model = 8 * heads;
  cfg.n_heads = heads;
  cfg.causal = causal;
  cfg.seed = 11;
  return cfg;
}

// The full (H, L, L) bias of `enc`.
Tensor full_bias(PositionalEncoding& enc, int64_t H, int64_t L) {
  Tape t;
  auto b = enc.bias(t, Positions{1, L, {static_cast<int32_t>(L)}});
  REQUIRE(b.has_value());
  REQUIRE(b->relative);
  REQUIRE(t.shape(b->values) == Shape{H, 2 * L - 1});
  return t.value(expand_relative(t, b->values, L, L)).clone();
}

}  // namespace

TEST_CASE("kerple: the biases follow -r1 log(1 + r2 d) and -r1 d^r2 of d = |t - u|", "[posenc][kerple]") {
  const int64_t H = 3, L = 9;
  for (const char* name : {"kerple_log", "kerple_power"}) {
    INFO(name);
    auto enc = make_encoding(name, config(H));
    const Tensor r1 = parameter_named(*enc, "posenc.kerple_r1").value, r2 = parameter_named(*enc, "posenc.kerple_r2").value;
    REQUIRE(r1.shape() == Shape{H});
    const Tensor b = full_bias(*enc, H, L);
    for (int64_t h = 0; h < H; ++h)
      for (int64_t t = 0; t < L; ++t)
        for (int64_t u = 0; u < L; ++u) {
          const double d = std::fabs(double(t - u));
          const double want = std::string(name) == "kerple_log" ? -r1[h] * std::log(1 + r2[h] * d)
                                                                : -r1[h] * std::pow(d, double(r2[h]));
          INFO("h " << h << " t " << t << " u " << u);
          CHECK(b[(h * L + t) * L + u] == Approx(want).epsilon(1e-5).margin(1e-6));
        }
  }
}

TEST_CASE("kerple: initial parameters are distinct per head and inside their bounds", "[posenc][kerple]") {
  const int64_t H = 8;
  for (const char* name : {"kerple_log", "kerple_power"}) {
    INFO(name);
    auto enc = make_encoding(name, config(H));
    const bool power = std::string(name) == "kerple_power";
    for (const char* pname : {"posenc.kerple_r1", "posenc.kerple_r2"}) {
      const Parameter& p = parameter_named(*enc, pname);
      const double hi = (power && std::string(pname) == "posenc.kerple_r2") ? 2.0 : 1e30;
      CHECK(p.lower == Approx(0.01));
      CHECK(p.upper >= Real(hi));
      for (int64_t h = 0; h < H; ++h) {
        CHECK(p.value[h] >= Real(0.01));
        CHECK(p.value[h] <= Real(2.0));
      }
      CHECK(p.value[0] != p.value[1]);
    }
  }
}

TEST_CASE("kerple_power with r2 = 1 is an ALiBi-form bias of slope r1", "[posenc][kerple]") {
  for (bool causal : {false, true}) {
    const int64_t H = 4, L = 10;
    INFO("causal " << causal);
    auto enc = make_encoding("kerple_power", config(H, causal));
    const std::vector<double> slopes = alibi_slopes(H);
    for (int64_t h = 0; h < H; ++h) {
      parameter_named(*enc, "posenc.kerple_r1").value[h] = static_cast<Real>(slopes[h]);
      parameter_named(*enc, "posenc.kerple_r2").value[h] = Real(1);
    }
    const Tensor got = full_bias(*enc, H, L);
    auto alibi = make_encoding("alibi", config(H, causal));
    Tape t;
    auto ab = alibi->bias(t, Positions{1, L, {static_cast<int32_t>(L)}});
    const Tensor want = t.value(expand_relative(t, ab->values, L, L));
    for (int64_t h = 0; h < H; ++h)
      for (int64_t q = 0; q < L; ++q)
        for (int64_t k = 0; k <= (causal ? q : L - 1); ++k)  // above the diagonal is masked under causal
          CHECK(got[(h * L + q) * L + k] == Approx(want[(h * L + q) * L + k]).epsilon(1e-6).margin(1e-7));
  }
}

TEST_CASE("kerple: training keeps r1, r2 in their bounds (projected after every update)", "[posenc][kerple]") {
  for (const char* name : {"kerple_log", "kerple_power"}) {
    INFO(name);
    TrainConfig c = small_train_config("order", name);
    c.model.n_heads = 4;
    c.steps = 30;
    c.warmup = 0;
    c.lr = 0.5;  // large steps push parameters across their bounds
    c.clip = 0;
    c.eval_lens = {16};
    c.seed = 2;
    Trainer trainer(c);
    for (int i = 0; i < 30; ++i) trainer.step_once();
    int at_bound = 0;
    for (Parameter* p : trainer.model().parameters()) {
      if (p->name.rfind("posenc.kerple", 0) != 0) continue;
      REQUIRE(p->bounded());
      for (int64_t i = 0; i < p->value.numel(); ++i) {
        CHECK(p->value[i] >= p->lower);
        CHECK(p->value[i] <= p->upper);
        at_bound += (p->value[i] == p->lower || p->value[i] == p->upper) ? 1 : 0;
      }
    }
    CHECK(at_bound > 0);  // the projection was needed, not merely allowed
  }
}
