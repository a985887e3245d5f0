// tests/report/test_figure_data.cpp: the numbers the learning-curve figures draw
// (report/figure_data.h), for runs of different lengths.
#include <catch2/catch.hpp>

#include "report/figure_data.h"

using namespace ordo;

namespace {

// A run of `steps` steps, loss 1/s at step s, evaluated at every step with accuracy acc[s].
RunRecord run(uint64_t seed, const std::vector<double>& acc, const std::string& stop = "") {
  RunRecord r;
  r.task = "order";
  r.encoding = "rope";
  r.seed = seed;
  const int64_t steps = static_cast<int64_t>(acc.size()) - 1;
  for (int64_t s = 1; s <= steps; ++s) {
    r.log.step.push_back(s);
    r.log.train_loss.push_back(1.0 / static_cast<double>(s));
    r.log.lr.push_back(1e-3);
    r.log.wall_time.push_back(0);
  }
  for (int64_t s = 0; s <= steps; ++s) r.log.eval[0].push_back(EvalPoint{s, acc[static_cast<size_t>(s)]});
  if (!stop.empty()) r.log.stop_reason = stop, r.log.stop_step = steps;
  return r;
}

}  // namespace

TEST_CASE("learning curves: a run that stopped early holds its last value, an unfinished one ends the series",
          "[report][figures]") {
  // Seed 0 learned and stopped at step 2; seed 1 trained to step 4.
  const CurveData c = learning_curves("order", {run(0, {0.5, 0.9, 1.0}, "learned"), run(1, {0.5, 0.6, 0.7, 0.8, 0.9})});
  REQUIRE(c.acc.size() == 1);
  const std::vector<Band>& acc = c.acc[0].points;
  REQUIRE(acc.size() == 5);  // to the longest run
  CHECK(acc[2].mean == Approx(0.85));
  CHECK(acc[4].x == 4);
  CHECK(acc[4].mean == Approx(0.95));  // (1.0 held + 0.9) / 2
  CHECK(acc[4].min == Approx(0.9));
  CHECK(acc[4].max == Approx(1.0));
  const std::vector<Band>& loss = c.loss[0].points;
  REQUIRE(loss.size() == 4);
  CHECK(loss[3].mean == Approx((1.0 / 2 + 1.0 / 4) / 2));  // seed 0 holds its last loss, 1/2
  CHECK(c.last_step == 4);

  // The same shorter run without a stop (an unfinished study): the series ends with it.
  const CurveData cut = learning_curves("order", {run(0, {0.5, 0.9, 1.0}), run(1, {0.5, 0.6, 0.7, 0.8, 0.9})});
  CHECK(cut.acc[0].points.size() == 3);
  CHECK(cut.loss[0].points.size() == 2);
}

TEST_CASE("learning curves: the fewest and the most seeds of the cells", "[report][figures]") {
  // rope with two seeds, none with three (--kept-seeds tries more seeds where runs fail).
  std::vector<RunRecord> runs{run(0, {0.5, 0.9}), run(1, {0.5, 0.8})};
  for (uint64_t seed = 0; seed < 3; ++seed) {
    runs.push_back(run(seed, {0.5, 0.6}));
    runs.back().encoding = "none";
  }
  const CurveData c = learning_curves("order", runs);
  CHECK(c.acc.size() == 2);
  CHECK(c.seeds == 3);
  CHECK(c.fewest_seeds == 2);
  const CurveData one = learning_curves("order", {run(0, {0.5, 0.9})});
  CHECK(one.seeds == 1);
  CHECK(one.fewest_seeds == 1);
}
