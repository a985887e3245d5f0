// tests/io/test_results_file.cpp: the results file, format 2 (io/results.h): the thinned log,
// the settings stored once, every evaluation whole, its size, and format 1 still read.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "io/hdf5.h"
#include "io/results.h"
#include "tests/temp_dir.h"

using namespace ordo;
using ordo::testing::TempDir;

namespace {

// A run of `steps` steps, evaluated every 250 at the training range and at lengths 64 and
// 128, with accuracy by distance (as the order task records it).
RunRecord synthetic_run(uint64_t seed, int64_t steps, const std::string& lr = "0.001") {
  RunRecord r;
  r.task = "order";
  r.encoding = "rope";
  r.seed = seed;
  r.settings = {{"steps", std::to_string(steps)}, {"lr", lr}, {"seed", std::to_string(seed)},
                {"d-model", "64"}, {"encoding", "rope"}};
  for (int64_t s = 1; s <= steps; ++s) {
    r.log.step.push_back(s);
    r.log.train_loss.push_back(0.7 * std::exp(-0.002 * static_cast<double>(s)) + 0.01 * std::sin(0.37 * s + seed));
    r.log.lr.push_back(1e-3 * std::min(1.0, static_cast<double>(s) / 100));
    r.log.wall_time.push_back(0.05 * static_cast<double>(s));
  }
  for (int64_t len : {0, 64, 128}) {
    const size_t distances = len == 0 ? 32 : static_cast<size_t>(len);
    for (int64_t s = 0; s <= steps; s += 250) {
      EvalPoint p{s, 0.5 + 0.5 * static_cast<double>(s) / steps, static_cast<double>(s) / (3.0 * steps),
                  0.69 / (1.0 + static_cast<double>(s))};
      for (size_t d = 0; d < distances; ++d) {
        p.acc_by_distance.push_back(d == 0 ? std::nan("") : 1.0 / static_cast<double>(d + 2));
        p.count_by_distance.push_back(d == 0 ? 0 : static_cast<int64_t>(100 + d));
      }
      r.log.eval[len].push_back(std::move(p));
    }
  }
  r.log.total_wall_seconds = 0.05 * static_cast<double>(steps);
  return r;
}

void require_same_evals(const RunLog& a, const RunLog& b) {
  REQUIRE(a.eval.size() == b.eval.size());
  for (const auto& [len, points] : a.eval) {
    const std::vector<EvalPoint>& other = b.eval.at(len);
    REQUIRE(points.size() == other.size());
    for (size_t i = 0; i < points.size(); ++i) {
      CHECK(points[i].step == other[i].step);
      CHECK(std::memcmp(&points[i].acc, &other[i].acc, sizeof(double)) == 0);  // bit for bit, NaN too
      CHECK(std::memcmp(&points[i].exact, &other[i].exact, sizeof(double)) == 0);
      CHECK(std::memcmp(&points[i].loss, &other[i].loss, sizeof(double)) == 0);
      REQUIRE(points[i].acc_by_distance.size() == other[i].acc_by_distance.size());
      for (size_t d = 0; d < points[i].acc_by_distance.size(); ++d)
        CHECK(std::memcmp(&points[i].acc_by_distance[d], &other[i].acc_by_distance[d], sizeof(double)) == 0);
      CHECK(points[i].count_by_distance == other[i].count_by_distance);
    }
  }
}

}  // namespace

TEST_CASE("thin_run_log: entries of `every` steps keep the mean, extremes and the last lr and time", "[io]") {
  const RunRecord r = synthetic_run(0, 1998);
  const RunLog t = thin_run_log(r.log, 4);
  REQUIRE(t.step.size() == 500);  // 499 full entries and one of steps 1997..1998
  CHECK(t.step[0] == 4);
  CHECK(t.step[499] == 1998);
  for (size_t k : {size_t{0}, size_t{123}, size_t{498}}) {
    double sum = 0, lo = 1e9, hi = -1e9;
    for (size_t i = 4 * k; i < 4 * k + 4; ++i) {
      sum += r.log.train_loss[i];
      lo = std::min(lo, r.log.train_loss[i]);
      hi = std::max(hi, r.log.train_loss[i]);
    }
    CHECK(t.train_loss[k] == Approx(sum / 4).epsilon(1e-15));
    CHECK(t.train_loss_min[k] == lo);
    CHECK(t.train_loss_max[k] == hi);
    CHECK(t.lr[k] == r.log.lr[4 * k + 3]);
    CHECK(t.wall_time[k] == r.log.wall_time[4 * k + 3]);
  }
  CHECK(t.train_loss[499] == Approx((r.log.train_loss[1996] + r.log.train_loss[1997]) / 2).epsilon(1e-15));
  CHECK(t.eval.size() == r.log.eval.size());
  // Thinning what is thinned, or by one step, changes nothing.
  CHECK(thin_run_log(t, 4).step == t.step);
  CHECK(thin_run_log(r.log, 1).train_loss == r.log.train_loss);
  CHECK(thin_run_log(r.log, 1).train_loss_min.empty());
  CHECK(log_every_for(2000) == 4);
  CHECK(log_every_for(500) == 1);
  CHECK(log_every_for(501) == 2);
}

TEST_CASE("results format 2: evaluations whole, the log thinned, settings once, under 60 KB a run", "[io]") {
  TempDir dir;
  const std::string path = dir.file("results.h5");
  std::vector<RunRecord> runs;
  for (uint64_t seed = 0; seed < 10; ++seed) runs.push_back(synthetic_run(seed, 2000, seed < 5 ? "0.001" : "0.0003"));
  runs[3].log.stop_reason = "learned";
  runs[3].log.stop_step = 2000;
  runs[3].log.machines = {"from step 0: GenuineIntel family 6 model 85 stepping 7; built for avx512f; oneDNN 2.6.3 on "
                          "avx512_core_vnni",
                          "from step 1200: AuthenticAMD family 26 model 2 stepping 1 (AMD EPYC); built for avx512f; "
                          "oneDNN 2.6.3 on avx512_core_bf16"};
  for (size_t i = 0; i < runs.size(); ++i)
    if (i != 3 && i != 4) runs[i].log.machines = {"from step 0: x"};
  write_results(path, runs, {{"tasks", "order"}});

  // The size the issue asks for: at most 60 KB a run for 2000 steps and 3 evaluation lengths.
  const double per_run = static_cast<double>(std::filesystem::file_size(path)) / static_cast<double>(runs.size());
  INFO("bytes per run: " << per_run);
  CHECK(per_run <= 60e3);

  const std::vector<RunRecord> back = read_results(path);
  REQUIRE(back.size() == runs.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    CHECK(back[i].settings == runs[i].settings);  // shared ones from the root, the rest from the run
    require_same_evals(runs[i].log, back[i].log);
    const RunLog thinned = thin_run_log(runs[i].log, 4);
    REQUIRE(back[i].log.step == thinned.step);
    for (size_t k = 0; k < thinned.step.size(); k += 37) {
      CHECK(back[i].log.train_loss[k] == static_cast<double>(static_cast<float>(thinned.train_loss[k])));
      CHECK(back[i].log.train_loss_min[k] == static_cast<double>(static_cast<float>(thinned.train_loss_min[k])));
      CHECK(back[i].log.lr[k] == static_cast<double>(static_cast<float>(thinned.lr[k])));
    }
    CHECK(back[i].log.total_wall_seconds == runs[i].log.total_wall_seconds);
  }
  CHECK(back[3].log.stop_reason == "learned");
  CHECK(back[3].log.stop_step == 2000);
  CHECK(back[3].log.machines == runs[3].log.machines);  // two lines, in order
  CHECK(back[4].log.machines.empty());                   // a record from before they were kept

  // Stored once: the root holds what every run shares, a run only its own.
  h5::File f = h5::File::open(path);
  CHECK(f.attr_int64("format_version") == 2);
  CHECK(f.attr_string("setting.d-model") == "64");
  CHECK_FALSE(f.has_attr("setting.lr"));
  const h5::Group g = f.group("runs/order/rope/seed7");
  CHECK(g.attr_string("setting.lr") == "0.0003");
  CHECK_FALSE(g.has_attr("setting.d-model"));
  CHECK(g.attr_int64("log_every") == 4);
  CHECK(g.attr_string("machines") == "from step 0: x");
  CHECK_FALSE(f.group("runs/order/rope/seed4").has_attr("machines"));
  CHECK(g.dataset("train_loss").dtype() == h5::DType::f32);
  CHECK(g.dataset("eval/acc").dtype() == h5::DType::f64);
  // The root's settings are read with the runs, not as the study's shared attributes.
  const auto attributes = read_results_attributes(path);
  CHECK(attributes.count("tasks") == 1);
  CHECK(attributes.count("setting.d-model") == 0);
}

TEST_CASE("results format 1 (ordo before the compact format) still reads, and rewrites as format 2", "[io]") {
  // Written by `ordo compare --tasks order --encodings rope --seeds 1 --steps 30 --eval-every 10
  // --d-model 16 --heads 2 --layers 1 --d-ff 32 --eval-lens 48 --vary causal=false,true
  // --until-learned` at commit 793ebbe (results format_version 1, variable-length strings).
  const std::string old = std::string(ORDO_SOURCE_DIR) + "/tests/io/data/results_format1.h5";
  CHECK(h5::File::open(old).attr_int64("format_version") == 1);
  const std::vector<RunRecord> runs = read_results(old);
  REQUIRE(runs.size() == 2);
  const RunRecord& r = runs[1];
  CHECK(r.variant == "causal=true");
  CHECK(r.settings.at("causal") == "true");
  CHECK(r.settings.at("steps") == "30");
  CHECK(r.log.stop_reason == "max-steps");
  CHECK(r.log.stop_step == 30);
  REQUIRE(r.log.step.size() == 30);
  CHECK(r.log.train_loss[0] == 0.69401815533638);  // the values h5py reads from the file
  CHECK(r.log.lr[29] == 0.0003);
  REQUIRE(r.log.eval.at(0).size() == 4);
  CHECK(r.log.eval.at(0)[3].step == 30);
  CHECK(r.log.eval.at(48)[3].acc == 0.53125);
  CHECK(r.log.eval.at(48)[3].count_by_distance[1] == 18);
  CHECK(std::isnan(r.log.eval.at(48)[3].acc_by_distance[0]));

  TempDir dir;
  const std::string path = dir.file("results.h5");
  write_results(path, runs, {});
  const std::vector<RunRecord> back = read_results(path);
  REQUIRE(back.size() == runs.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    CHECK(back[i].variant == runs[i].variant);
    CHECK(back[i].settings == runs[i].settings);
    CHECK(back[i].log.step == runs[i].log.step);  // 30 steps: one entry a step, nothing thinned
    CHECK(back[i].log.train_loss_min.empty());
    require_same_evals(runs[i].log, back[i].log);
  }
}
