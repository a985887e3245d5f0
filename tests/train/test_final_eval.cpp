// tests/train/test_final_eval.cpp: the lengths of --eval-lens-final are scored after the last
// step only, on the same sets --eval-lens would build, with --eval-sequences sequences each
// (docs/spec.md §3.8).
#include <catch2/catch.hpp>

#include <cstring>

#include <memory>
#include <optional>

#include "data/eval.h"
#include "layers/posenc/table_cache.h"
#include "train/settings.h"
#include "train/trainer.h"
#include "tests/same_bits.h"

using namespace ordo;
using ordo::test::same_bits;

namespace {

TrainConfig parity_run() {
  TrainConfig c;
  c.task.name = "parity";
  c.task.max_len = 12;
  c.model.d_model = 16;
  c.model.n_heads = 2;
  c.model.n_layers = 1;
  c.model.d_ff = 32;
  c.batch_size = 16;
  c.steps = 40;
  c.warmup = 5;
  c.eval_every = 20;
  c.eval_sequences = 24;
  c.seed = 2;
  return c;
}

}  // namespace

TEST_CASE("final-only lengths: scored once, after the last step, as --eval-lens would score them", "[train][eval]") {
  TrainConfig every = parity_run(), final_only = parity_run();
  every.eval_lens = {20, 30, 31};
  final_only.eval_lens = {20};
  final_only.eval_lens_final = {31, 30};
  Trainer a(every), b(final_only);
  a.run();
  b.run();
  const RunLog &la = a.log(), &lb = b.log();
  // --eval-lens: at step 0, 20 and 40; --eval-lens-final: at step 40 alone.
  REQUIRE(lb.eval.at(20).size() == 3);
  for (int64_t len : {30, 31}) {
    INFO("length " << len);
    REQUIRE(la.eval.at(len).size() == 3);
    REQUIRE(lb.eval.at(len).size() == 1);
    const EvalPoint &pa = la.eval.at(len).back(), &pb = lb.eval.at(len).back();
    CHECK(pb.step == 40);
    CHECK(same_bits(pa.acc, pb.acc));  // the same set (built alone) and the same model
    CHECK(same_bits(pa.loss, pb.loss));
  }
  // A length in both lists is scored with --eval-lens, at every evaluation, once each time.
  TrainConfig both = final_only;
  both.eval_lens_final = {20, 30, 31};
  Trainer c(both);
  c.run();
  CHECK(c.log().eval.at(20).size() == 3);
  CHECK(c.log().eval.at(31).size() == 1);
  CHECK(same_bits(c.log().eval.at(31).back().acc, la.eval.at(31).back().acc));
  CHECK(a.eval_sets().size() == 4);  // the training range and the three lengths
  CHECK(b.eval_sets().size() == 2);  // the final-only sets are not kept
  for (const EvalSet& s : a.eval_sets()) CHECK(s.num_sequences() == (s.length == 0 ? kEvalTrainSequences : 24));
}

TEST_CASE("final-only lengths: a stop in the sweep keeps the lengths scored, and a resume scores the rest with the same bits",
          "[train][eval][checkpoint]") {
  TrainConfig c = parity_run();
  c.eval_lens = {20};
  c.eval_lens_final = {31, 30, 25};
  Trainer ref(c);
  ref.run();
  REQUIRE(ref.finished());
  CHECK(final_lengths_pending(c, ref.log()).empty());
  CHECK(final_lengths_pending(c, RunLog{}) == std::vector<int64_t>{31, 30, 25});

  // At the last step the sweep is still to come: a checkpoint there holds the trained weights.
  Trainer a(c);
  std::optional<Checkpoint> before_sweep;
  int lengths = 0;
  a.run(
      [&](const StepInfo& s) {
        if (s.step + 1 == s.total) {
          CHECK(!a.finished());
          CHECK(final_lengths_pending(c, a.log()).size() == 3);
          CHECK(a.log().eval.at(20).back().step == 40);  // --eval-lens scored first
          before_sweep = a.checkpoint();
        }
        return true;
      },
      [&] { return ++lengths < 1; });  // stopped after the first final length
  REQUIRE(before_sweep);
  CHECK(!a.finished());
  CHECK(a.step() == 40);
  CHECK(final_lengths_pending(c, a.log()) == std::vector<int64_t>{30, 25});

  auto same_as_ref = [&](const Trainer& t) {
    REQUIRE(t.finished());
    CHECK(t.log().step.size() == 40);  // no step trained twice
    for (int64_t len : {31, 30, 25}) {
      INFO("length " << len);
      REQUIRE(t.log().eval.at(len).size() == 1);  // none scored twice
      CHECK(same_bits(t.log().eval.at(len).back().acc, ref.log().eval.at(len).back().acc));
      CHECK(same_bits(t.log().eval.at(len).back().loss, ref.log().eval.at(len).back().loss));
    }
  };
  Trainer b(c);  // resumed from the stop: the two lengths left
  b.restore(a.checkpoint());
  b.run();
  same_as_ref(b);
  Trainer d(c);  // resumed from the checkpoint before the sweep (a kill during it): the whole sweep
  d.restore(*before_sweep);
  d.run([](const StepInfo&) {
    FAIL("a run trained to its last step trains no more");
    return true;
  });
  same_as_ref(d);
}

TEST_CASE("make_eval_set alone gives the bits of the same set in make_eval_sets", "[data][eval]") {
  auto task = make_task(TaskConfig{.name = "parity"});
  const std::vector<EvalSet> all = make_eval_sets(*task, 7, {50, 70}, 32, 64, 40);
  const EvalSet alone = make_eval_set(*task, 7, 70, 32, 40);
  REQUIRE(alone.batches.size() == all[2].batches.size());
  for (size_t i = 0; i < alone.batches.size(); ++i) {
    CHECK(alone.batches[i].tokens.to_vector() == all[2].batches[i].tokens.to_vector());
    CHECK(alone.batches[i].targets.to_vector() == all[2].batches[i].targets.to_vector());
  }
  CHECK(alone.num_sequences() == 40);
}

TEST_CASE("final-only lengths: bad lists are refused before training, naming the flag", "[train][eval]") {
  TrainConfig c = parity_run();
  c.eval_lens = {20};
  c.eval_lens_final = {30, 30};
  CHECK_THROWS_WITH(validate(c), Catch::Contains("listed twice"));
  c.eval_lens_final = {0};
  CHECK_THROWS_WITH(validate(c), Catch::Contains("must be positive"));
  c.eval_lens_final = {};
  c.eval_sequences = 0;
  CHECK_THROWS_WITH(validate(c), Catch::Contains("--eval-sequences"));
  TrainConfig counting = parity_run();
  counting.task.name = "counting";
  counting.task.max_len = 20;
  counting.eval_lens = {40};
  counting.eval_lens_final = {500};  // counting takes lengths <= 201
  CHECK_THROWS_WITH(Trainer(counting), Catch::Contains("--eval-lens-final"));
  TrainConfig order = parity_run();
  order.task.name = "order";
  order.task.max_len = 12;
  order.eval_sequences = 25;
  CHECK_THROWS_WITH(Trainer(order), Catch::Contains("--eval-sequences must be even"));
}

TEST_CASE("release_table_caches empties every live cache, and handles given out stay valid", "[train][eval]") {
  TableCache<int64_t, std::shared_ptr<int64_t>> a, b;
  const auto kept = a.get(5, [] { return std::make_shared<int64_t>(25); });
  b.get(7, [] { return std::make_shared<int64_t>(49); });
  b.get(8, [] { return std::make_shared<int64_t>(64); });
  REQUIRE(a.size() == 1);
  REQUIRE(b.size() == 2);
  release_table_caches();  // as the trainer does after each --eval-lens-final set
  CHECK(a.size() == 0);
  CHECK(b.size() == 0);
  CHECK(*kept == 25);
  int builds = 0;
  CHECK(*a.get(5, [&] { ++builds; return std::make_shared<int64_t>(25); }) == 25);
  CHECK(builds == 1);  // rebuilt on the next use
}
