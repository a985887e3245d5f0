// tests/train/test_stopping.cpp: a run that trains until it has learned (--until-learned,
// train/stopping.h, docs/spec.md §5.5): the rule on hand-made logs, the run's bits against
// the same run of fixed --steps, resuming, the record in run logs, and bad settings refused.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

#include "io/checkpoint_file.h"
#include "io/hdf5.h"
#include "io/run_log_file.h"
#include "train/settings.h"
#include "train/stopping.h"
#include "train/trainer.h"
#include "tests/same_bits.h"
#include "tests/train/all_params.h"
#include "tests/temp_dir.h"

using namespace ordo;
using ordo::test::all_params;
using ordo::test::same_bits;
using ordo::testing::TempDir;
using Catch::Contains;

namespace {

// A log whose training-range set was scored at steps 0, 100, 200, ... with these accuracies
// and losses.
RunLog curve(const std::vector<double>& acc, const std::vector<double>& loss) {
  RunLog log;
  for (size_t i = 0; i < acc.size(); ++i) log.eval[0].push_back({static_cast<int64_t>(100 * i), acc[i], NAN, loss[i]});
  return log;
}

TrainConfig rule(int64_t patience = 0) {
  TrainConfig c;
  c.until_learned = true;
  c.learned_at = 0.99;
  c.patience = patience;
  c.steps = 1000;
  c.eval_every = 100;
  return c;
}

// shift with rope learns its training lengths within about 300 steps at this size
// (tests/train/test_learnability.cpp); evaluated every 50 steps.
TrainConfig shift_run(bool until_learned, int64_t steps) {
  TrainConfig c;
  c.task.name = "shift";
  c.model.encoding = "rope";
  c.model.d_model = 32;
  c.model.n_heads = 2;
  c.model.n_layers = 2;
  c.model.d_ff = 64;
  c.batch_size = 32;
  c.lr = 3e-3;
  c.steps = steps;
  c.eval_every = 50;
  c.eval_batch = 128;
  c.eval_sequences = 64;
  c.seed = 1;
  c.until_learned = until_learned;
  return c;
}

}  // namespace

TEST_CASE("stopping: learned at two evaluations in a row, the untrained baseline not one of them", "[train][stopping]") {
  const TrainConfig c = rule();
  // One evaluation at the threshold is not enough; the second in a row stops the run.
  CHECK(stop_decision(c, curve({0.5, 0.995}, {1, 0.1}), 100) == Stop::go);
  CHECK(stop_decision(c, curve({0.5, 0.995, 0.99}, {1, 0.1, 0.1}), 200) == Stop::learned);
  // Not in a row: the count starts again.
  CHECK(stop_decision(c, curve({0.5, 0.995, 0.98, 0.999}, {1, 0.1, 0.1, 0.1}), 300) == Stop::go);
  // A baseline already above the threshold (a trivial set) does not count.
  CHECK(stop_decision(c, curve({1.0, 0.999}, {1, 0.1}), 100) == Stop::go);
  // --learned-at is the threshold, inclusive.
  TrainConfig lower = c;
  lower.learned_at = 0.9;
  CHECK(stop_decision(lower, curve({0.5, 0.9, 0.91}, {1, 0.5, 0.4}), 200) == Stop::learned);
  // Decided only at an evaluation of this step.
  CHECK(stop_decision(c, curve({0.5, 0.995, 0.99}, {1, 0.1, 0.1}), 250) == Stop::go);
  // A run of fixed --steps never stops early.
  TrainConfig fixed = c;
  fixed.until_learned = false;
  CHECK(stop_decision(fixed, curve({0.5, 0.995, 0.99}, {1, 0.1, 0.1}), 200) == Stop::go);
  CHECK(stop_decision(fixed, curve({0.5}, {1}), 1000) == Stop::go);
}

TEST_CASE("stopping: no progress for --patience steps, progress by accuracy or by loss", "[train][stopping]") {
  const TrainConfig c = rule(300);
  // Accuracy stuck at 0.5 and loss flat from step 0: no progress since the baseline at 0.
  CHECK(stop_decision(c, curve({0.5, 0.5, 0.5}, {1, 1, 1}), 200) == Stop::go);
  CHECK(stop_decision(c, curve({0.5, 0.5, 0.5, 0.5}, {1, 1, 1, 1}), 300) == Stop::no_progress);
  // A gain of kProgressAccuracy (0.001) at step 100 is progress: the window runs from there.
  CHECK(stop_decision(c, curve({0.5, 0.501, 0.501, 0.501}, {1, 1, 1, 1}), 300) == Stop::go);
  CHECK(stop_decision(c, curve({0.5, 0.501, 0.501, 0.501, 0.501}, {1, 1, 1, 1, 1}), 400) == Stop::no_progress);
  // Less than that is not; nor is a loss drop under kProgressLoss (1%).
  CHECK(stop_decision(c, curve({0.5, 0.5009, 0.5, 0.5}, {1, 0.991, 1, 1}), 300) == Stop::no_progress);
  // A loss 1% below every earlier one is progress, with accuracy flat.
  CHECK(stop_decision(c, curve({0.5, 0.5, 0.5, 0.5}, {1, 1, 0.99, 0.99}), 300) == Stop::go);
  // Below the best, not below the last: a loss that rose and fell back is no progress.
  CHECK(stop_decision(c, curve({0.5, 0.5, 0.5, 0.5}, {1, 2, 1, 1}), 300) == Stop::no_progress);
  // NaN is never progress.
  CHECK(stop_decision(c, curve({0.5, NAN, NAN, NAN}, {1, NAN, NAN, NAN}), 300) == Stop::no_progress);
  // Learned wins over no progress at the same evaluation; patience 0 never stops.
  CHECK(stop_decision(c, curve({0.995, 0.995, 0.995, 0.995}, {0.1, 0.1, 0.1, 0.1}), 300) == Stop::learned);
  CHECK(stop_decision(rule(0), curve({0.5, 0.5, 0.5, 0.5}, {1, 1, 1, 1}), 300) == Stop::go);
}

TEST_CASE("stopping: the maximum, and the names as stored", "[train][stopping]") {
  const TrainConfig c = rule();
  CHECK(stop_decision(c, curve({0.5, 0.6}, {1, 0.9}), 1000) == Stop::max_steps);
  TrainConfig shorter = c;
  shorter.steps = 200;  // the last step is an evaluation: 2 in a row there is learned, not the maximum
  CHECK(stop_decision(shorter, curve({0.5, 0.995, 0.995}, {1, 0.1, 0.1}), 200) == Stop::learned);
  CHECK(stop_decision(shorter, curve({0.5, 0.6, 0.995}, {1, 0.5, 0.1}), 200) == Stop::max_steps);
  for (Stop s : {Stop::learned, Stop::no_progress, Stop::max_steps}) CHECK(parse_stop(stop_name(s)) == s);
  CHECK_THROWS_WITH(parse_stop("done"), Contains("accepted: learned, no-progress, max-steps"));
  RunLog log;
  CHECK(last_step(c, log) == 1000);
  log.stop_step = 350;
  CHECK(last_step(c, log) == 350);
}

TEST_CASE("stopping: a run that learned stops, with the bits of the fixed-step run up to there", "[train][stopping]") {
  Trainer until(shift_run(true, 600));
  until.run();
  const RunLog& log = until.log();
  REQUIRE(log.stop_reason == "learned");
  const int64_t stopped = log.stop_step;
  CHECK(stopped < 600);
  CHECK(stopped % 50 == 0);
  CHECK(until.step() == stopped);
  CHECK(until.trained());
  CHECK(until.finished());
  CHECK(static_cast<int64_t>(log.step.size()) == stopped);
  // Its last two training-range evaluations reached the threshold, and not the two before.
  const std::vector<EvalPoint>& train = log.eval.at(0);
  REQUIRE(train.size() >= 3);
  CHECK(train.back().step == stopped);
  CHECK(train.back().acc >= 0.99);
  CHECK(train[train.size() - 2].acc >= 0.99);
  CHECK(stop_decision(until.config(), log, stopped - 50) != Stop::learned);
  // The longer lengths were scored at the stopping step too.
  for (const auto& [len, points] : log.eval) CHECK(points.back().step == stopped);

  // The same run of fixed --steps 600 (the schedule spans the maximum either way), stopped
  // from outside at that step: the same parameters and losses, bit for bit.
  Trainer fixed(shift_run(false, 600));
  fixed.run([&](const StepInfo& s) { return s.step + 1 < stopped; });
  REQUIRE(fixed.step() == stopped);
  CHECK(same_bits(fixed.log().train_loss, log.train_loss));
  CHECK(same_bits(fixed.log().lr, log.lr));
  CHECK(all_params(fixed) == all_params(until));
  CHECK(fixed.log().stop_reason.empty());
  CHECK(eval_summary(log).find("learned, stopped at step " + std::to_string(stopped)) != std::string::npos);
}

TEST_CASE("stopping: a run stops at the maximum when it has not learned, and resumes to the same decision",
          "[train][stopping][resume]") {
  TempDir dir;
  TrainConfig c = shift_run(true, 150);
  c.learned_at = 1.0;  // every one of the 512 training-range sequences right: not within 150 steps at this lr
  c.lr = 1e-4;
  Trainer straight(c);
  straight.run();
  CHECK(straight.log().stop_reason == "max-steps");
  CHECK(straight.log().stop_step == 150);
  CHECK(eval_summary(straight.log()).find("not learned in 150 steps") != std::string::npos);

  const std::string path = dir.path + "/ck.h5";
  {
    Trainer first(c);
    first.run([](const StepInfo& s) { return s.step + 1 < 100; });
    CHECK(first.log().stop_reason.empty());
    save_checkpoint(path, first.checkpoint());
  }
  Trainer second(c);
  second.restore(load_checkpoint(path));
  second.run();
  CHECK(second.log().stop_reason == "max-steps");
  CHECK(same_bits(second.log().train_loss, straight.log().train_loss));

  // The record travels through a checkpoint and a run log, and a stopped run restores finished.
  save_checkpoint(path, second.checkpoint());
  Trainer third(c);
  third.restore(load_checkpoint(path));
  CHECK(third.log().stop_reason == "max-steps");
  CHECK(third.log().stop_step == 150);
  CHECK(third.finished());
}

TEST_CASE("stopping: a learned run's record in a run log, and a damaged record refused", "[train][stopping][io]") {
  TempDir dir;
  RunLog log;
  log.step = {1, 2, 3};
  log.train_loss = log.lr = log.wall_time = {1, 1, 1};
  log.stop_reason = "learned";
  log.stop_step = 3;
  const std::string path = dir.path + "/log.h5";
  {
    h5::File f = h5::File::create(path);
    h5::Group g = f.require_group("run");
    write_run_log(g, log);
    f.close();
  }
  {
    h5::File f = h5::File::open(path);
    const RunLog back = read_run_log(f.group("run"));
    CHECK(back.stop_reason == "learned");
    CHECK(back.stop_step == 3);
  }
  {
    h5::File f = h5::File::open(path, h5::Access::read_write);
    f.group("run").set_attr("stop_reason", "bored");
    f.close();
  }
  {
    h5::File f = h5::File::open(path);
    CHECK_THROWS_WITH(read_run_log(f.group("run")), Contains("stop_reason: unknown stop reason 'bored'"));
  }
  {
    h5::File f = h5::File::open(path, h5::Access::read_write);
    f.group("run").set_attr("stop_reason", "learned");
    f.group("run").set_attr("stop_step", 7);
    f.close();
  }
  h5::File f = h5::File::open(path);
  CHECK_THROWS_WITH(read_run_log(f.group("run")), Contains("stop_step 7 is not the run's last logged step 3"));
  // A run of fixed --steps writes no record at all.
  RunLog plain = log;
  plain.stop_reason.clear();
  plain.stop_step = 0;
  h5::File g = h5::File::create(dir.path + "/plain.h5");
  h5::Group run = g.require_group("run");
  write_run_log(run, plain);
  CHECK_FALSE(run.has_attr("stop_reason"));
  CHECK_FALSE(run.has_attr("stop_step"));
}

TEST_CASE("stopping: bad settings are refused, naming the accepted values", "[train][stopping][settings]") {
  TrainConfig c = rule(200);
  validate(c);
  auto refused = [](TrainConfig bad, const std::string& text) {
    CHECK_THROWS_WITH(validate(bad), Contains(text));
  };
  TrainConfig t = c;
  t.learned_at = 0;
  refused(t, "--learned-at must be in (0, 1], got 0");
  t.learned_at = 1.5;
  refused(t, "--learned-at must be in (0, 1], got 1.5");
  t = c;
  t.patience = 1200;
  refused(t, "--patience 1200 is longer than the maximum, --steps 1000; accepted: 0 (off) up to 1000");
  t.patience = -1;
  refused(t, "--patience must be >= 0");
  t = c;
  t.patience = 50;
  refused(t, "--patience 50 is shorter than --eval-every 100");
  t = c;
  t.eval_every = 0;
  t.patience = 0;
  refused(t, "--until-learned needs --eval-every > 0");
  t = c;
  t.until_learned = false;
  refused(t, "--patience needs --until-learned");
  t.patience = 0;
  t.learned_at = 0.9;
  refused(t, "--learned-at needs --until-learned");
  // --max-steps is --steps by another name, and is not recorded twice.
  TrainConfig m;
  find_setting("max-steps")->set(m, "4000");
  CHECK(m.steps == 4000);
  CHECK(to_settings(m).count("max-steps") == 0);
  CHECK(to_settings(m).at("steps") == "4000");
  CHECK(to_settings(m).at("until-learned") == "false");
}
