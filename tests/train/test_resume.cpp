// tests/train/test_resume.cpp: same seed -> same curve; checkpoint + resume -> same bits.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>

#include "core/machine.h"
#include "io/checkpoint_file.h"
#include "train/checkpoint.h"
#include "train/trainer.h"
#include "tests/same_bits.h"
#include "tests/train/all_params.h"

using namespace ordo;
using ordo::test::all_params;
using ordo::test::same_bits;

namespace {

TrainConfig small_run(const std::string& task, const std::string& encoding, int64_t steps) {
  TrainConfig c;
  c.task.name = task;
  c.model.encoding = encoding;
  c.model.d_model = 32;
  c.model.n_heads = 2;
  c.model.n_layers = 1;
  c.model.d_ff = 64;
  c.batch_size = 16;
  c.steps = steps;
  c.warmup = 20;
  c.eval_every = 50;
  c.eval_batch = 64;
  c.eval_lens = {48};
  c.model.dropout = 0.1;  // dropout masks must resume too
  c.seed = 3;
  return c;
}

}  // namespace

TEST_CASE("the same seed gives identical curves and parameters", "[train][determinism]") {
  Trainer a(small_run("order", "rope", 60)), b(small_run("order", "rope", 60));
  a.run();
  b.run();
  CHECK(same_bits(a.log().train_loss, b.log().train_loss));
  CHECK(all_params(a) == all_params(b));
  Trainer c([] { auto cfg = small_run("order", "rope", 60); cfg.seed = 4; return cfg; }());
  c.run();
  CHECK(!same_bits(a.log().train_loss, c.log().train_loss));
}

TEST_CASE("200 straight steps equal 100 + checkpoint + resume + 100, bit for bit", "[train][resume]") {
  for (const char* encoding : {"t5", "learned"}) {  // learned tables in the optimizer state
    INFO("encoding " << encoding);
    Trainer straight(small_run("shift", encoding, 200));
    straight.run();

    const std::string path = (std::filesystem::temp_directory_path() / ("ordo_resume_" + std::string(encoding) + ".h5")).string();
    {
      Trainer first(small_run("shift", encoding, 200));
      first.run([](const StepInfo& s) { return s.step + 1 < 100; });
      REQUIRE(first.step() == 100);
      save_checkpoint(path, first.checkpoint());
    }
    Trainer second(small_run("shift", encoding, 200));
    second.restore(load_checkpoint(path));
    REQUIRE(second.step() == 100);
    second.run();
    std::filesystem::remove(path);

    CHECK(same_bits(straight.log().train_loss, second.log().train_loss));
    CHECK(all_params(straight) == all_params(second));
    REQUIRE(straight.log().eval.size() == second.log().eval.size());
    for (const auto& [len, points] : straight.log().eval) {
      const auto& other = second.log().eval.at(len);
      REQUIRE(points.size() == other.size());
      for (size_t i = 0; i < points.size(); ++i) {
        CHECK(points[i].step == other[i].step);
        CHECK(points[i].acc == other[i].acc);
      }
    }
  }
}

TEST_CASE("a checkpoint of another configuration is refused, naming the setting", "[train][resume]") {
  Trainer a(small_run("shift", "rope", 20));
  a.run([](const StepInfo& s) { return s.step + 1 < 5; });
  Checkpoint ck = a.checkpoint();
  auto other = small_run("shift", "rope", 20);
  other.model.d_model = 16;
  Trainer b(other);
  REQUIRE_THROWS_WITH(b.restore(ck), Catch::Contains("--d-model"));
}

TEST_CASE("a setting added after a checkpoint was written reads as its default", "[train][resume]") {
  // As a checkpoint of the version before --modulus existed: the setting is absent. A run at
  // the default continues it; one that changes the setting is refused, naming it.
  Trainer a(small_run("shift", "rope", 20));
  a.run([](const StepInfo& s) { return s.step + 1 < 5; });
  Checkpoint ck = a.checkpoint();
  REQUIRE(ck.config.erase("modulus") == 1);
  Trainer same(small_run("shift", "rope", 20));
  CHECK_NOTHROW(same.restore(ck));
  auto other = small_run("shift", "rope", 20);
  other.task.options.set("modulus", "7");
  Trainer b(other);
  CHECK_THROWS_WITH(b.restore(ck), Catch::Contains("trained with --modulus 5, this run has --modulus 7"));
}

TEST_CASE("a checkpoint whose step disagrees with its log and optimizer is refused", "[train][resume]") {
  Trainer a(small_run("shift", "rope", 20));
  a.run([](const StepInfo& s) { return s.step + 1 < 5; });
  Checkpoint ck = a.checkpoint();
  Trainer b(small_run("shift", "rope", 20));
  CHECK_NOTHROW(b.restore(ck));  // as written: 5 steps everywhere
  ck.step = 6;                   // the /step attribute edited
  Trainer c(small_run("shift", "rope", 20));
  CHECK_THROWS_WITH(c.restore(ck), Catch::Contains("its step is 6, but its log holds 5 steps and its optimizer took 5"));
}

TEST_CASE("a run names the machine its steps were taken on, and a resume on another one adds a line", "[train][resume]") {
  const std::string here = machine_description();
  CHECK(here.find('\n') == std::string::npos);
  CHECK(here.find("; built for ") != std::string::npos);
  Trainer a(small_run("shift", "rope", 20));
  a.run([](const StepInfo& s) { return s.step + 1 < 5; });
  REQUIRE(a.log().machines == std::vector<std::string>{"from step 0: " + here});
  Checkpoint ck = a.checkpoint();

  Trainer same(small_run("shift", "rope", 20));  // resumed here: still one machine
  same.restore(ck);
  same.run();
  CHECK(same.log().machines == std::vector<std::string>{"from step 0: " + here});

  ck.log.machines = {"from step 0: elsewhere"};  // as if trained on another CPU
  Trainer moved(small_run("shift", "rope", 20));
  moved.restore(ck);
  moved.run();
  CHECK(moved.log().machines == std::vector<std::string>{"from step 0: elsewhere", "from step 5: " + here});
  CHECK(moved.log().train_loss == same.log().train_loss);  // a note, not a change to the run

  ck.log.machines.clear();  // a checkpoint from before ordo kept them: the record starts at the resume
  Trainer old(small_run("shift", "rope", 20));
  old.restore(ck);
  old.run();
  CHECK(old.log().machines == std::vector<std::string>{"from step 5: " + here});

  Trainer done(small_run("shift", "rope", 20));  // a finished run run again adds nothing
  done.restore(moved.checkpoint());
  done.run();
  CHECK(done.log().machines == moved.log().machines);
}

TEST_CASE("a data-parallel run names its ranks' machine, or each machine with its ranks", "[train][resume]") {
  // Every rank on one CPU type: the entry a one-process run writes (test_mpi.sh compares the
  // two runs' files in every value but the wall times).
  CHECK(ranks_machine({"A"}) == "A");
  CHECK(ranks_machine({"A", "A", "A"}) == "A");
  // Mixed: each machine once, in the order of its first rank, with every rank that ran on it.
  CHECK(ranks_machine({"A", "B", "A"}) == "A (ranks 0, 2) + B (rank 1)");
  CHECK(ranks_machine({"B", "A", "A", "C"}) == "B (rank 0) + A (ranks 1, 2) + C (rank 3)");
  RunLog log;
  note_machine(log, 0, ranks_machine({"A", "B"}));
  note_machine(log, 10, ranks_machine({"B", "A"}));  // resumed with the ranks' hosts swapped: a new stretch
  note_machine(log, 20, ranks_machine({"B", "A"}));
  CHECK(log.machines == std::vector<std::string>{"from step 0: A (rank 0) + B (rank 1)",
                                                 "from step 10: B (rank 0) + A (rank 1)"});
}
