// tests/train/test_micro_batches.cpp: --micro-batches (docs/spec.md §5.4). A batch trained
// as M parts has the gradient and the loss of the whole batch (to float rounding: only the
// order of the sums changes), the same bits every time, and the MPI side of it is a job of
// one when no launcher started the process (cluster/cluster.h). The data-parallel bits across
// ranks are tests/shell/test_mpi.sh.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "cluster/cluster.h"
#include "data/task.h"
#include "tests/layers/model_fixtures.h"
#include "train/micro_batches.h"
#include "train/settings.h"
#include "train/trainer.h"

using namespace ordo;
using ordo::testing::small_train_config;

namespace {

// Every parameter's gradient after one step, flat (clip 0: the gradient as computed).
std::vector<double> gradients_after_one_step(TrainConfig cfg) {
  cfg.clip = 0;
  Trainer t(cfg);
  t.step_once();
  std::vector<double> g;
  for (const Parameter* p : t.model().parameters())
    for (int64_t i = 0; i < p->grad.numel(); ++i) g.push_back(p->grad.data()[i]);
  return g;
}

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

}  // namespace

TEST_CASE("slice takes sequences begin to end of a batch, padded as before", "[train][micro-batches]") {
  for (const char* name : {"periodic", "order"}) {  // a token head and a pooled head
    TaskConfig tc;
    tc.name = name;
    auto task = make_task(tc);
    const Batch b = task->batch(7, 3, 8, /*same_length=*/false);
    const Batch s = slice(b, 2, 5);
    REQUIRE(s.batch_size() == 3);
    REQUIRE(s.length() == b.length());
    CHECK(s.targets.shape().rank() == b.targets.shape().rank());
    const int64_t L = b.length(), per = b.targets.numel() / b.batch_size();
    for (int64_t i = 0; i < 3; ++i) {
      CHECK(s.lengths[i] == b.lengths[i + 2]);
      CHECK(s.distances[i] == b.distances[i + 2]);
      for (int64_t t = 0; t < L; ++t) CHECK(s.tokens.data()[i * L + t] == b.tokens.data()[(i + 2) * L + t]);
      for (int64_t t = 0; t < per; ++t) {
        CHECK(s.targets.data()[i * per + t] == b.targets.data()[(i + 2) * per + t]);
        CHECK(s.score.data()[i * per + t] == b.score.data()[(i + 2) * per + t]);
      }
    }
    CHECK_THROWS_WITH(slice(b, 5, 5), Catch::Contains("slice: sequences [5, 5)"));
    CHECK_THROWS_WITH(slice(b, 0, 9), Catch::Contains("of a batch of 8"));
  }
}

TEST_CASE("M parts of a batch have the whole batch's gradient, weighted by their scored targets",
          "[train][micro-batches]") {
  // periodic with padding: the parts hold different numbers of scored targets, so an
  // unweighted mean of the parts' losses would miss the batch's gradient.
  TrainConfig cfg = small_train_config("periodic", "rope");
  cfg.same_length = false;
  cfg.model.dropout = 0;
  cfg.micro_batches = 1;
  const std::vector<double> whole = gradients_after_one_step(cfg);
  for (int64_t m : {2, 4, 8}) {
    cfg.micro_batches = m;
    const std::vector<double> parts = gradients_after_one_step(cfg);
    REQUIRE(parts.size() == whole.size());
    double worst = 0;
    for (size_t i = 0; i < whole.size(); ++i) worst = std::max(worst, std::abs(parts[i] - whole[i]));
    INFO("M = " << m << ": max |g_M - g_1| = " << worst << ", max |g_1| = " << max_abs(whole));
    CHECK(worst <= 1e-5 * max_abs(whole));
    CHECK(worst > 0);  // the sums are in another order: the bits are not the whole batch's
  }
}

TEST_CASE("the loss of M parts is the batch's mean loss, and M parts give the same bits every time",
          "[train][micro-batches]") {
  TrainConfig cfg = small_train_config("shift", "alibi");
  cfg.model.dropout = 0.1;  // each part its own masks, fixed by (seed, step, part)
  cfg.steps = 5;
  cfg.eval_every = 0;
  cfg.eval_lens = {64};
  cfg.eval_batch = 16;
  cfg.micro_batches = 1;
  Trainer one(cfg);
  cfg.micro_batches = 4;
  Trainer a(cfg), b(cfg);
  one.run();
  a.run();
  b.run();
  for (size_t s = 0; s < 5; ++s) {
    INFO("step " << s + 1);
    CHECK(a.log().train_loss[s] == b.log().train_loss[s]);  // bit for bit
    if (s == 0) CHECK(a.log().train_loss[0] == Approx(one.log().train_loss[0]).epsilon(1e-4));  // dropout differs after
  }
  const auto pa = a.model().parameters(), pb = b.model().parameters();
  for (size_t i = 0; i < pa.size(); ++i)
    CHECK(std::equal(pa[i]->value.data(), pa[i]->value.data() + pa[i]->value.numel(), pb[i]->value.data()));
}

TEST_CASE("the micro-batch count must divide the batch, and a checkpoint from before it resumes as M = 1",
          "[train][micro-batches][settings]") {
  TrainConfig cfg = small_train_config("order", "none");
  cfg.micro_batches = 3;  // batch 8
  CHECK_THROWS_WITH(validate(cfg), Catch::Contains("--micro-batches must divide --batch 8 into equal parts, got 3"));
  cfg.micro_batches = 0;
  CHECK_THROWS_WITH(validate(cfg), Catch::Contains("--micro-batches"));

  cfg.micro_batches = 1;
  cfg.steps = 2;
  cfg.eval_lens = {64};
  Trainer t(cfg);
  Checkpoint old = t.checkpoint();
  old.config.erase("micro-batches");  // as written before the setting existed
  CHECK(from_settings(old.config).micro_batches == 1);
  Trainer same(cfg);
  CHECK_NOTHROW(same.restore(old));
  cfg.micro_batches = 2;
  Trainer other(cfg);
  CHECK_THROWS_WITH(other.restore(old), Catch::Contains("trained with --micro-batches 1, this run has --micro-batches 2"));
}

TEST_CASE("without mpirun the process is a job of one and never calls MPI", "[train][mpi]") {
  Cluster& world = cluster();
  CHECK(world.rank() == 0);
  CHECK(world.size() == 1);
  CHECK_FALSE(world.distributed());
  CHECK(world.min_over_ranks(5) == 5);
  CHECK_FALSE(world.poll().has_value());
  CHECK_THROWS_WITH(world.send(1, 3, "x"), Catch::Contains("no rank 1 in a job of one"));
  TrainConfig cfg = small_train_config("order", "none");
  cfg.eval_lens = {64};
  Trainer t(cfg);
  CHECK_NOTHROW(t.train_over(world));  // a job of one: nothing changes
}

TEST_CASE("the parts' gradients are summed as the left fold ((g0 + g1) + g2) + g3, in part order",
          "[train][micro-batches]") {
  // Values whose float sum depends on the order (big + 1 rounds to big): the fold in part
  // order gives -1 at element 0 and 1 at element 1, other orders other numbers, so a change
  // of order fails here.
  const Real big = 4 / std::numeric_limits<Real>::epsilon();
  const std::vector<std::vector<Real>> parts = {{big, 1, 3}, {1, big, -2}, {-big, -big, 0.5}, {-1, 1, 0.25}};
  auto fold = [&](const std::vector<int>& order) {
    std::vector<Real> sum = parts[static_cast<size_t>(order[0])];
    for (size_t k = 1; k < order.size(); ++k)
      for (size_t i = 0; i < sum.size(); ++i) sum[i] += parts[static_cast<size_t>(order[k])][i];
    return sum;
  };
  // Two parameters, so the flat sum crosses a parameter boundary.
  Parameter a("a", Tensor::zeros({2})), b("b", Tensor::zeros({1}));
  a.grad = Tensor::zeros({2});
  b.grad = Tensor::zeros({1});
  const std::vector<Parameter*> params = {&a, &b};
  TaskConfig tc;
  tc.name = "shift";
  const Batch batch = make_task(tc)->batch(1, 0, 8, /*same_length=*/true);
  const MicroBatches m{4, nullptr};
  std::vector<int64_t> seen;
  m.gradient(batch, params, [&](const Batch&, double, int64_t index) {
    const std::vector<Real>& g = parts[static_cast<size_t>(index)];
    a.grad.data()[0] = g[0], a.grad.data()[1] = g[1], b.grad.data()[0] = g[2];
    seen.push_back(index);
    return 0.0;
  });
  CHECK(seen == std::vector<int64_t>{0, 1, 2, 3});
  const std::vector<Real> want = fold({0, 1, 2, 3});
  CHECK(want[0] == -1);
  CHECK(want[1] == 1);
  CHECK(fold({0, 2, 1, 3})[0] != want[0]);  // the values do tell orders apart
  CHECK(a.grad.data()[0] == want[0]);
  CHECK(a.grad.data()[1] == want[1]);
  CHECK(b.grad.data()[0] == want[2]);
}
