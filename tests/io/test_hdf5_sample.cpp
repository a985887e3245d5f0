// tests/io/test_hdf5_sample.cpp: hidden tests driven by tests/shell/test_h5_readers.sh.
//
// "[h5_sample]" writes a run-log file, a results file and a checkpoint into
// $ORDO_H5_SAMPLE_DIR, which the
// script then reads with h5dump and h5py; "[h5_foreign]" reads back a file h5py wrote there
// (no creation-order index, fixed-length strings), proving ordo reads other tools' files.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "io/results.h"
#include "io/run_log_file.h"
#include "io/checkpoint_file.h"
#include "train/checkpoint.h"
#include "io/hdf5.h"
#include "train/run_log.h"

using namespace ordo;

namespace {
std::string sample_dir() {
  const char* dir = std::getenv("ORDO_H5_SAMPLE_DIR");
  if (dir == nullptr) FAIL("set ORDO_H5_SAMPLE_DIR (run through tests/shell/test_h5_readers.sh)");
  return dir;
}
}  // namespace

TEST_CASE("hdf5 sample: write a run log and a checkpoint for external readers", "[.][h5_sample]") {
  const std::string dir = sample_dir();
  RunLog log;
  for (int64_t s = 0; s < 4; ++s) {
    log.step.push_back(s * 100);
    log.train_loss.push_back(2.0 - 0.5 * static_cast<double>(s));
    log.lr.push_back(1e-3);
    log.wall_time.push_back(static_cast<double>(s));
  }
  log.eval[0] = {{100, 0.5, 0.25, 1.0}, {300, 0.75}};
  log.eval[128] = {{300, 0.625}};
  log.total_wall_seconds = 3.5;
  h5::File f = h5::File::create(dir + "/runs.h5");
  f.set_attr("task", "order");
  f.set_attr("steps", 300);
  h5::Group run = f.require_group("runs/order/rope/seed0");
  write_run_log(run, log);
  f.close();

  // A results file (format 2) of two runs of 1000 steps: the log thinned to 500 entries of 2.
  std::vector<RunRecord> runs(2);
  for (uint64_t seed = 0; seed < 2; ++seed) {
    RunRecord& r = runs[seed];
    r.task = "order", r.encoding = "rope", r.seed = seed;
    r.settings = {{"steps", "1000"}, {"seed", std::to_string(seed)}, {"lr", "0.001"}};
    for (int64_t s = 1; s <= 1000; ++s) {
      r.log.step.push_back(s);
      r.log.train_loss.push_back(s % 2 ? 1.0 : 0.5);
      r.log.lr.push_back(1e-3);
      r.log.wall_time.push_back(0.25 * static_cast<double>(s));
    }
    r.log.eval[0] = {{0, 0.5}, {1000, 1.0, 1.0, 0.125}};
    r.log.eval[64] = {{1000, 0.75}};
    r.log.total_wall_seconds = 250;
  }
  write_results(dir + "/results.h5", runs, {{"tasks", "order"}});

  Checkpoint c;
  c.step = 300;
  c.config = {{"encoding", "rope"}, {"lr", "0.001"}};
  TensorF32 w = TensorF32::empty({3, 4});
  for (int64_t i = 0; i < w.numel(); ++i) w[i] = static_cast<float>(i) * 0.1f;
  c.params = {{"blocks.0.attn.w_q.weight", w}};
  c.optimizer = {{"m/blocks.0.attn.w_q.weight", TensorF32::zeros({3, 4})}};
  c.scalars = {{"adam_step", 300}};
  c.rng = {{std::numeric_limits<uint64_t>::max(), 2, 3, 4}};
  c.log = log;
  save_checkpoint(dir + "/ckpt.h5", c);
}

TEST_CASE("hdf5 sample: read a run log written by h5py", "[.][h5_foreign]") {
  const std::string dir = sample_dir();
  h5::File f = h5::File::open(dir + "/foreign.h5");
  CHECK(f.attr_string("fixed") == "abc");
  CHECK(f.attr_string("variable") == "déjà vu");
  CHECK(f.attr_int64("count") == 3);
  CHECK(f.group("runs").members() == std::vector<std::string>{"alibi", "rope"});  // by name
  RunLog log = read_run_log(f.group("runs/rope"));
  CHECK(log.step == std::vector<int64_t>{0, 10});
  CHECK(log.train_loss == std::vector<double>{2.5, 1.5});
  CHECK(log.total_wall_seconds == 2.0);
  REQUIRE(log.eval.count(0) == 1);
  REQUIRE(log.eval.count(64) == 1);
  CHECK(log.eval.at(64)[1].acc == 0.75);
  CHECK(std::isnan(log.eval.at(64)[1].exact));  // optional fields absent
  TensorF32 t = f.read_tensor<float>("runs/rope/w");
  CHECK(t.shape() == Shape{2, 2});
  CHECK(t.to_vector() == std::vector<float>{1, 2, 3, 4});
}
