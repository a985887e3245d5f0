// tests/io/test_hdf5_run_log.cpp: the run log layout of docs/spec.md §7 round trips.
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "io/run_log_file.h"
#include "train/run_log.h"

#include "tests/temp_dir.h"
#include "tests/same_bits.h"

using namespace ordo;
using ordo::test::same_bits;
using Catch::Contains;

namespace {

using ordo::testing::TempDir;

RunLog sample_log() {
  RunLog log;
  for (int64_t s = 0; s < 5; ++s) {
    log.step.push_back(s * 10);
    log.train_loss.push_back(2.0 / (1.0 + static_cast<double>(s)) + 1e-17);
    log.lr.push_back(1e-3 * static_cast<double>(s) / 4.0);
    log.wall_time.push_back(0.123 * static_cast<double>(s));
  }
  log.eval[0] = {{0, 0.5, 0.1, 1.2}, {40, 0.9, 0.6, 0.3}};
  // By distance: nothing at distance 0, 2 rows at 1, 4 at 2 (the same sets at every evaluation).
  const double nan = std::nan("");
  log.eval[0][0].acc_by_distance = {nan, 0.5, 0.25};
  log.eval[0][1].acc_by_distance = {nan, 1.0, 0.75};
  log.eval[0][0].count_by_distance = log.eval[0][1].count_by_distance = {0, 2, 4};
  log.eval[128] = {{0, 0.25}, {40, 0.75}};  // exact and loss undefined: NaN
  log.eval[64] = {{40, 0.8, 0.5, 0.4}};
  log.total_wall_seconds = 12.5;
  log.machines = {"from step 0: a", "from step 30: b"};
  return log;
}

void require_same(const RunLog& a, const RunLog& b) {
  REQUIRE(a.step == b.step);
  REQUIRE(a.train_loss == b.train_loss);
  REQUIRE(a.lr == b.lr);
  REQUIRE(a.wall_time == b.wall_time);
  REQUIRE(a.total_wall_seconds == b.total_wall_seconds);
  REQUIRE(a.machines == b.machines);
  REQUIRE(a.eval.size() == b.eval.size());
  for (const auto& [length, points] : a.eval) {
    REQUIRE(b.eval.count(length));
    const auto& other = b.eval.at(length);
    REQUIRE(points.size() == other.size());
    for (size_t i = 0; i < points.size(); ++i) {
      CHECK(points[i].step == other[i].step);
      CHECK(same_bits(points[i].acc, other[i].acc));
      CHECK(same_bits(points[i].exact, other[i].exact));
      CHECK(same_bits(points[i].loss, other[i].loss));
      REQUIRE(points[i].acc_by_distance.size() == other[i].acc_by_distance.size());
      for (size_t d = 0; d < points[i].acc_by_distance.size(); ++d)
        CHECK(same_bits(points[i].acc_by_distance[d], other[i].acc_by_distance[d]));
      CHECK(points[i].count_by_distance == other[i].count_by_distance);
    }
  }
}

}  // namespace

TEST_CASE("run log: round trip through a run group, with the documented names", "[hdf5]") {
  TempDir dir;
  const std::string path = dir.file("runs.h5");
  const RunLog log = sample_log();
  {
    h5::File f = h5::File::create(path);
    h5::Group run = f.require_group("runs/order/rope/seed0");
    write_run_log(run, log);
    f.close();
  }
  h5::File f = h5::File::open(path);
  h5::Group run = f.group("runs/order/rope/seed0");
  require_same(log, read_run_log(run));
  // The names other tools rely on.
  CHECK(run.group("eval").members() == std::vector<std::string>{"train", "64", "128"});
  CHECK(f.read_vector<double>("runs/order/rope/seed0/eval/128/acc") == std::vector<double>{0.25, 0.75});
  CHECK(f.read_vector<int64_t>("runs/order/rope/seed0/eval/train/step") == std::vector<int64_t>{0, 40});
  CHECK(std::isnan(f.read_vector<double>("runs/order/rope/seed0/eval/128/exact")[1]));
  CHECK(run.attr_double("wall_seconds") == 12.5);
  CHECK(run.attr_string("machines") == "from step 0: a\nfrom step 30: b");  // one line each
  // acc_by_distance: one row per evaluation, one column per distance; only where recorded.
  const h5::Array<double> by_distance = f.read<double>("runs/order/rope/seed0/eval/train/acc_by_distance");
  CHECK(by_distance.dims == std::vector<int64_t>{2, 3});
  CHECK(by_distance.values[4] == 1.0);
  CHECK(f.read_vector<int64_t>("runs/order/rope/seed0/eval/train/count_by_distance") == std::vector<int64_t>{0, 2, 4});
  CHECK_FALSE(run.exists("eval/128/acc_by_distance"));
  for (const char* name : {"step", "train_loss", "lr", "wall_time"}) CHECK(run.has_dataset(name));
}

TEST_CASE("run log: rewriting replaces the previous log, empty logs work", "[hdf5]") {
  TempDir dir;
  const std::string path = dir.file("rewrite.h5");
  h5::File f = h5::File::create(path);
  h5::Group run = f.require_group("run");
  write_run_log(run, sample_log());
  RunLog shorter;
  shorter.step = {7};
  shorter.train_loss = {0.5};
  shorter.lr = {1e-4};
  shorter.wall_time = {3};
  shorter.eval[32] = {{7, 1.0, 1.0, 0.01}};
  write_run_log(run, shorter);
  require_same(shorter, read_run_log(run));  // eval/train, eval/64, eval/128 are gone
  h5::Group empty = f.require_group("empty");
  write_run_log(empty, RunLog{});
  require_same(RunLog{}, read_run_log(empty));
}

TEST_CASE("run log: inconsistent logs and bad eval names are refused", "[hdf5]") {
  TempDir dir;
  h5::File f = h5::File::create(dir.file("bad.h5"));
  h5::Group run = f.require_group("run");
  RunLog bad = sample_log();
  bad.lr.pop_back();
  REQUIRE_THROWS_WITH(write_run_log(run, bad), Contains("step has 5 entries but train_loss has 5, lr 4"));
  write_run_log(run, sample_log());
  run.require_group("eval/long");
  REQUIRE_THROWS_WITH(read_run_log(run), Contains("/run/eval/long"));
  REQUIRE(eval_group_name(0) == "train");
  REQUIRE(eval_group_name(256) == "256");
  REQUIRE(eval_group_length("256") == 256);
  REQUIRE_THROWS_WITH(eval_group_length("007"), Contains("neither \"train\" nor a sequence length"));
}
