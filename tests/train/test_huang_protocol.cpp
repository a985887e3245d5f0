// tests/train/test_huang_protocol.cpp: what ordo adds to train at Huang et al. 2025's protocol
// (docs/spec.md §1.3, §2.13, §5.2, §5.5): random offsets per sequence, the linear schedule,
// stopping at the first evaluation at the threshold, tied embeddings, next-token tasks trained
// causal only, one training stream for every seed and held-out sets per seed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>

#include "data/eval.h"
#include "layers/model.h"
#include "tests/layers/model_fixtures.h"
#include "train/optimizer.h"
#include "train/random_positions.h"
#include "train/settings.h"
#include "train/stopping.h"
#include "train/trainer.h"

using namespace ordo;
using namespace ordo::testing;
using Catch::Contains;

namespace {

Tensor logits_with(EncoderModel& m, const TensorI32& tokens, const std::vector<int32_t>& lengths,
                   const std::vector<int32_t>& positions, const std::vector<int32_t>& offsets) {
  Tape t;
  NoGradGuard g(t);
  ForwardOptions fo;
  fo.positions = positions;
  fo.offsets = offsets;
  return t.value(m.forward(t, tokens, lengths, fo).logits).clone();
}

// Rows [first, first + count) of a (B, L, C) tensor, flattened.
std::vector<Real> rows(const Tensor& x, int64_t b, int64_t count) {
  const int64_t L = x.dim(1), C = x.dim(2);
  return std::vector<Real>(x.data() + b * L * C, x.data() + (b * L + count) * C);
}

void perturb(EncoderModel& m) {  // weights off their init, so that positions visibly matter
  CounterRng rng(4, 5);
  for (Parameter* p : m.parameters()) {
    for (int64_t i = 0; i < p->value.numel(); ++i) p->value[i] += static_cast<Real>(0.3 * rng.normal());
    p->project();
  }
}

}  // namespace

TEST_CASE("random offset: uniform in [0, N - n], a function of (seed, stream)", "[huang][random_positions]") {
  std::vector<int64_t> count(11, 0);  // n = 5, N = 15: offsets 0..10
  for (uint64_t s = 0; s < 11000; ++s) {
    const int32_t o = random_offset(3, s, 5, 15);
    REQUIRE((o >= 0 && o <= 10));
    ++count[static_cast<size_t>(o)];
    REQUIRE(random_offset(3, s, 5, 15) == o);
  }
  double chi2 = 0;
  for (int64_t c : count) chi2 += (c - 1000.0) * (c - 1000.0) / 1000.0;
  CHECK(chi2 < 29.6);  // 10 degrees of freedom, p = 0.001
  CHECK(random_offset(3, 1, 15, 15) == 0);
  CHECK_THROWS_WITH(random_offset(3, 1, 16, 15), Contains("16 tokens does not fit in 15 positions"));
}

TEST_CASE("random offset: learned and sinusoidal read o + t per sequence, and every encoding said invariant ignores it",
          "[huang][random_positions][layers]") {
  // Two sequences, 9 and 6 tokens, padded to 9; offsets 5 and 70 (past 64 positions: the
  // sinusoidal table's rows are kept per 64; past the learned table's 32 rows: clamped).
  const TensorI32 x = random_tokens(2, 9, 12, 71);
  const std::vector<int32_t> lengths{9, 6}, offsets{5, 70};
  for (const EncodingInfo& info : encodings()) {
    if (info.random_offset == RandomOffset::refused) continue;
    for (bool causal : {false, true}) {
      if (info.causal_only && !causal) continue;
      INFO("encoding " << info.name << ", causal " << causal);
      ModelConfig c = small_model(info.name, HeadType::Token, causal);
      c.posenc.max_len = 32;
      EncoderModel m(c);
      perturb(m);
      const Tensor plain = logits_with(m, x, lengths, {}, {});
      const Tensor moved = logits_with(m, x, lengths, {}, offsets);
      if (info.random_offset == RandomOffset::invariant) {
        CHECK(max_diff(moved.to_vector(), plain.to_vector()) <= 1e-5);
        continue;
      }
      // reads: each sequence as if alone at positions o..o+n-1 (the randomized-positions path).
      CHECK(max_diff(moved.to_vector(), plain.to_vector()) > 1e-4);
      for (int64_t b = 0; b < 2; ++b) {
        const int64_t n = lengths[static_cast<size_t>(b)];
        TensorI32 alone = TensorI32::empty(Shape{1, n});
        for (int64_t t = 0; t < n; ++t) alone[t] = x[b * 9 + t];
        std::vector<int32_t> at(static_cast<size_t>(n));
        for (int64_t t = 0; t < n; ++t) at[static_cast<size_t>(t)] = offsets[static_cast<size_t>(b)] + static_cast<int32_t>(t);
        const Tensor single = logits_with(m, alone, {static_cast<int32_t>(n)}, at, {});
        CHECK(max_diff(rows(moved, b, n), single.to_vector()) <= 1e-5);
      }
    }
  }
  CHECK(encoding_info("learned").random_offset == RandomOffset::reads);
  CHECK(encoding_info("sinusoidal").random_offset == RandomOffset::reads);
  CHECK(encoding_info("rbf").random_offset == RandomOffset::refused);
  CHECK(encoding_info("fire").random_offset == RandomOffset::refused);  // its query position is absolute
}

TEST_CASE("random offset: training draws a fresh offset per sequence, deterministically, and bad settings are refused",
          "[huang][random_positions][train]") {
  TrainConfig c = small_train_config("majority", "learned");
  c.model.causal = true;
  c.task.max_len = 10;
  c.eval_lens = {20};
  c.steps = 4;
  c.random_offset = 30;
  auto params_after = [](const TrainConfig& cfg) {
    Trainer t(cfg);
    for (int i = 0; i < 4; ++i) t.step_once();
    std::vector<Real> all;
    for (Parameter* p : t.model().parameters()) {
      const auto v = p->value.to_vector();
      all.insert(all.end(), v.begin(), v.end());
    }
    return all;
  };
  const auto a = params_after(c);
  CHECK(params_after(c) == a);
  TrainConfig plain = c;
  plain.random_offset = 0;
  CHECK(params_after(plain) != a);
  {
    Trainer t(c);
    CHECK(t.config().model.posenc.max_len == 30);  // the table has a row for every position an offset reaches
  }
  TrainConfig fire = c;
  fire.model.encoding = "fire";
  CHECK_THROWS_WITH(Trainer(fire), Contains("--random-offset: encoding fire") && Contains("learned"));
  TrainConfig short_table = c;
  short_table.random_offset = 12;  // the longest training sequence has 10 + 1 + 3 = 14 tokens
  CHECK_THROWS_WITH(Trainer(short_table), Contains("choose N >= 14"));
  TrainConfig both = c;
  both.random_positions = 64;
  CHECK_THROWS_WITH(Trainer(both), Contains("choose one"));
}

TEST_CASE("linear schedule: lr (S - s) / (S - w) after warmup, Hugging Face's", "[huang][train]") {
  CHECK(learning_rate(1.0, 0, 0, 100, Schedule::linear) == Approx(1.0));
  CHECK(learning_rate(1.0, 50, 0, 100, Schedule::linear) == Approx(0.5));
  CHECK(learning_rate(1.0, 99, 0, 100, Schedule::linear) == Approx(0.01));
  CHECK(learning_rate(1.0, 4, 10, 110, Schedule::linear) == Approx(0.5));  // warmup as for cosine
  CHECK(learning_rate(1.0, 10, 10, 110, Schedule::linear) == Approx(1.0));
  CHECK(learning_rate(1.0, 60, 10, 110, Schedule::linear) == Approx(0.5));
  CHECK(learning_rate(1.0, 50, 0, 100) == Approx(0.5 * (1 + std::cos(M_PI * 50 / 99.0))));  // cosine stays the default
  CHECK_THROWS_WITH(parse_schedule("step"), Contains("accepted: cosine, linear"));
}

TEST_CASE("stopping: --learned-evals 1 stops at the first evaluation at the threshold", "[huang][train][stopping]") {
  TrainConfig c;
  c.until_learned = true;
  c.learned_at = 1.0;
  c.learned_evals = 1;
  c.steps = 1000;
  c.eval_every = 100;
  RunLog log;
  log.eval[0] = {{0, 0.3, NAN, 1.0}, {100, 0.9995, NAN, 0.1}};
  CHECK(stop_decision(c, log, 100) == Stop::go);
  log.eval[0].push_back({200, 1.0, NAN, 0.01});
  CHECK(stop_decision(c, log, 200) == Stop::learned);
  log.eval[0] = {{0, 1.0, NAN, 1.0}};  // the untrained baseline never counts
  CHECK(stop_decision(c, log, 0) == Stop::go);
  TrainConfig fixed;
  fixed.learned_evals = 1;
  CHECK_THROWS_WITH(validate(fixed), Contains("--learned-evals needs --until-learned"));
  c.learned_evals = 0;
  CHECK_THROWS_WITH(validate(c), Contains("--learned-evals must be >= 1"));
}

TEST_CASE("tied embeddings: logits are h E^T, no head parameters, and are refused where classes are not tokens",
          "[huang][layers]") {
  ModelConfig c = small_model("learned", HeadType::Token, true);
  c.num_classes = c.vocab_size;
  c.tie_embeddings = true;
  EncoderModel m(c);
  perturb(m);
  for (Parameter* p : m.parameters()) CHECK(p->name.rfind("head.", 0) != 0);
  const TensorI32 x = random_tokens(2, 7, 12, 72);
  Tape t;
  NoGradGuard g(t);
  const ForwardResult r = m.forward(t, x, {7, 5});
  const Tensor& h = t.value(r.hidden);
  const Tensor& logits = t.value(r.logits);
  Parameter* table = nullptr;
  for (Parameter* p : m.parameters())
    if (p->name == "embed.table") table = p;
  REQUIRE(table != nullptr);
  const int64_t d = c.d_model, V = c.vocab_size;
  double worst = 0;
  for (int64_t row = 0; row < 2 * 7; ++row)
    for (int64_t v = 0; v < V; ++v) {
      double dot = 0;
      for (int64_t k = 0; k < d; ++k) dot += double(h[row * d + k]) * double(table->value[v * d + k]);
      worst = std::max(worst, std::fabs(dot - double(logits[row * V + v])));
    }
  CHECK(worst <= 1e-5);
  ModelConfig pooled = c;
  pooled.head = HeadType::Pooled;
  CHECK_THROWS_WITH(EncoderModel(pooled), Contains("--tie-embeddings"));
  ModelConfig classes = c;
  classes.num_classes = 3;
  CHECK_THROWS_WITH(EncoderModel(classes), Contains("3 classes and 12 token ids"));
}

TEST_CASE("next-token tasks: a bidirectional run is refused", "[huang][train]") {
  TrainConfig c = small_train_config("unique_copy", "rope");
  CHECK_THROWS_WITH(validate(c), Contains("task unique_copy predicts each next token") && Contains("--causal"));
  c.model.causal = true;
  CHECK_NOTHROW(validate(c));
}

namespace {

std::vector<Real> all_params(Trainer& t) {
  std::vector<Real> all;
  for (Parameter* p : t.model().parameters()) {
    const auto v = p->value.to_vector();
    all.insert(all.end(), v.begin(), v.end());
  }
  return all;
}

// `to`'s weights set to `from`'s: two runs then differ only in their draws.
void copy_weights(Trainer& from, Trainer& to) {
  const auto src = from.model().parameters(), dst = to.model().parameters();
  REQUIRE(src.size() == dst.size());
  for (size_t i = 0; i < src.size(); ++i) {
    REQUIRE(src[i]->value.numel() == dst[i]->value.numel());
    std::copy(src[i]->value.data(), src[i]->value.data() + src[i]->value.numel(), dst[i]->value.data());
  }
}

std::vector<int32_t> set_tokens(const EvalSet& s) {
  std::vector<int32_t> all;
  for (const Batch& b : s.batches) {
    const auto v = b.tokens.to_vector();
    all.insert(all.end(), v.begin(), v.end());
  }
  return all;
}

}  // namespace

TEST_CASE("train seed: seeds of one training stream differ only in initialisation, by default the run's seed",
          "[huang][train]") {
  TrainConfig c = small_train_config("majority", "learned");
  c.model.causal = true;
  c.model.dropout = 0.1;  // dropout is one of training's draws
  c.task.max_len = 10;
  c.eval_lens = {20};
  c.steps = 4;
  c.random_offset = 30;  // and so are the offsets
  auto trained = [](const TrainConfig& cfg, Trainer* weights_from) {
    auto t = std::make_unique<Trainer>(cfg);
    if (weights_from) copy_weights(*weights_from, *t);
    for (int i = 0; i < 4; ++i) t->step_once();
    return t;
  };
  TrainConfig s0 = c, s1 = c;
  s1.seed = 1;
  Trainer init0(s0);
  CHECK(all_params(init0) != all_params(*std::make_unique<Trainer>(s1)));  // the seed initialises
  TrainConfig s0_stream = s0;
  s0_stream.train_seed = 42;
  CHECK(all_params(*std::make_unique<Trainer>(s0_stream)) == all_params(init0));  // --train-seed does not
  // Same weights, default --train-seed: the seeds' streams differ, so do the trained weights.
  CHECK(all_params(*trained(s1, &init0)) != all_params(*trained(s0, nullptr)));
  // Same weights, one --train-seed: the same batches, offsets and dropout masks, the same bits.
  s0.train_seed = s1.train_seed = 42;
  CHECK(all_params(*trained(s1, &init0)) == all_params(*trained(s0, nullptr)));
  // --train-seed equal to --seed is the run without it.
  TrainConfig same = c;
  same.train_seed = 0;
  CHECK(all_params(*trained(same, nullptr)) == all_params(*trained(c, nullptr)));
  CHECK(to_settings(c).at("train-seed") == "seed");
  CHECK(from_settings(to_settings(s1)).train_seed == 42);
  TrainConfig bad;
  CHECK_THROWS_WITH(find_setting("train-seed")->set(bad, "-3"), Contains("'seed' or a non-negative whole number"));
}

TEST_CASE("eval sets per seed: each seed its own held-out sets, fixed by the eval seed and the seed", "[huang][train]") {
  TrainConfig c = small_train_config("majority", "none");
  c.model.causal = true;
  c.task.max_len = 10;
  c.eval_lens = {20};
  auto sets = [](const TrainConfig& cfg) {
    Trainer t(cfg);
    std::vector<std::vector<int32_t>> all;
    for (const EvalSet& s : t.eval_sets()) all.push_back(set_tokens(s));
    return all;
  };
  TrainConfig s1 = c;
  s1.seed = 1;
  const auto shared = sets(c);
  CHECK(sets(s1) == shared);  // by default every run is scored on the same sets
  TrainConfig p0 = c, p1 = s1;
  p0.eval_sets_per_seed = p1.eval_sets_per_seed = true;
  const auto own0 = sets(p0), own1 = sets(p1);
  REQUIRE(own0.size() == shared.size());
  for (size_t i = 0; i < shared.size(); ++i) {  // the training range's set and the length 20's
    CHECK(own0[i] != own1[i]);
    CHECK(own0[i] != shared[i]);
  }
  CHECK(sets(p0) == own0);
  TrainConfig p0_other = p0;
  p0_other.eval_seed = 7;
  CHECK(sets(p0_other) != own0);
  CHECK(p0.held_out_seed() != p1.held_out_seed());
}
