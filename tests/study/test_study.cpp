// tests/study/test_study.cpp: the study library (study/study.h) used directly, as a second
// front end would: every run checked before anything is written, the files it promises,
// and a resumed study that skips finished runs and returns the same records.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>

#include "data/task.h"
#include "layers/posenc/encoding.h"
#include "io/checkpoint_file.h"
#include "io/results.h"
#include "report/findings.h"
#include "report/rate_selection.h"
#include "study/study.h"
#include "tests/temp_dir.h"

using namespace ordo;
using ordo::testing::TempDir;
using Catch::Contains;
namespace fs = std::filesystem;

namespace {

StudySpec tiny_spec() {
  StudySpec spec;
  spec.base.steps = 12;
  spec.base.eval_every = 6;
  spec.base.batch_size = 8;
  spec.base.eval_batch = 16;
  spec.base.model.d_model = 16;
  spec.base.model.n_heads = 2;
  spec.base.model.n_layers = 1;
  spec.base.model.d_ff = 32;
  spec.tasks = {"order", "shift"};
  spec.encodings = {"none", "rope"};
  spec.seeds = 1;
  spec.task_steps = {{"shift", 6}};
  return spec;
}

}  // namespace

TEST_CASE("study: a bad run is an error naming it, before anything is written", "[study]") {
  TempDir dir;
  StudyOptions how;
  how.out = dir.path + "/grid";
  StudySpec spec = tiny_spec();
  spec.encodings = {"none", "ropee"};
  CHECK_THROWS_WITH(Study(spec, how), Contains("--encodings: unknown name 'ropee'") && Contains("rope"));
  spec = tiny_spec();
  spec.base.model.n_heads = 3;  // does not divide d_model 16
  CHECK_THROWS_WITH(Study(spec, how), Contains("order/none/seed0") && Contains("--heads"));
  CHECK_THROWS_WITH(parse_task_steps("order=0", {"order"}), Contains("at least 1 step"));
  CHECK_THROWS_WITH(parse_task_steps("copy=5", {"order"}), Contains("'copy' is not a task of this grid"));
  CHECK_FALSE(fs::exists(how.out));
}

TEST_CASE("study: --encodings all and --tasks all stand for every registered name", "[study]") {
  TempDir dir;
  StudyOptions how;
  how.out = dir.path + "/grid";
  StudySpec spec = tiny_spec();
  spec.tasks = {"order"};
  spec.task_steps = {};
  spec.encodings = {"all"};
  spec.base.model.posenc.options.set("grid-w", "4");  // fourier2d needs a grid
  {
    Study study(spec, how);
    REQUIRE(study.runs().size() == encodings().size());
    for (size_t i = 0; i < encodings().size(); ++i) {
      const StudyRun& r = study.runs()[i];
      CHECK(r.config.model.encoding == encodings()[i].name);
      // A bidirectional grid runs an encoding defined for causal attention only causal, labelled.
      CHECK(r.config.model.causal == encodings()[i].causal_only);
      CHECK(r.variant == (encodings()[i].causal_only ? "causal=true" : ""));
    }
  }
  spec.encodings = {"xpos", "none"};
  spec.vary = parse_vary({"causal=false,true"});
  {
    Study study(spec, how);  // xpos only in the causal=true cell
    REQUIRE(study.runs().size() == 3);
    CHECK(study.runs()[0].label() == "order/xpos/causal=true/seed0");
  }
  spec.vary = {};
  spec.encodings = {"all", "rope"};
  CHECK_THROWS_WITH(Study(spec, how), Contains("'all' stands for every name"));
  spec.encodings = {"none"};
  spec.tasks = {"all"};
  {
    Study study(spec, how);
    CHECK(study.runs().size() == task_names().size());
  }
  CHECK(parse_task_steps("copy=5", {"all"}).size() == 1);
  // A group is its tasks, in registry order: --tasks chomsky is Deletang et al.'s fifteen
  // (reverse and sort standing for reverse_string and bucket_sort).
  spec.tasks = {"chomsky"};
  {
    Study study(spec, how);
    std::vector<std::string> got;
    for (const auto& r : study.runs()) got.push_back(r.config.task.name);
    CHECK(got == std::vector<std::string>{"reverse", "sort", "even_pairs", "parity", "cycle_navigation",
                                          "modular_arithmetic", "stack_manipulation", "modular_arithmetic_brackets",
                                          "solve_equation", "duplicate_string", "missing_duplicate", "odds_first",
                                          "binary_addition", "binary_multiplication", "compute_sqrt"});
  }
  CHECK(parse_task_steps("parity=5", {"chomsky"}).size() == 1);
  CHECK_THROWS_WITH(parse_task_steps("order=5", {"chomsky"}), Contains("not a task of this grid"));
}

TEST_CASE("study: an --encodings entry E1+E2 is one encoding per layer, a series of its own", "[study]") {
  TempDir dir;
  StudyOptions how;
  how.out = dir.path + "/grid";
  StudySpec spec = tiny_spec();
  spec.tasks = {"order"};
  spec.task_steps = {};
  spec.base.model.n_layers = 2;
  spec.encodings = {"rope", "rope+none", "none+fox"};
  {
    Study study(spec, how);
    REQUIRE(study.runs().size() == 3);
    const StudyRun& rnope = study.runs()[1];
    CHECK(rnope.config.model.layer_encodings == std::vector<std::string>{"rope", "none"});
    CHECK(rnope.label() == "order/rope+none/seed0");
    CHECK(rnope.variant.empty());
    CHECK(study.runs()[0].config.model.layer_encodings.empty());
    // A causal-only part (fox) runs the pattern causal, labelled as for a single encoding.
    CHECK(study.runs()[2].label() == "order/none+fox/causal=true/seed0");
    CHECK(study.runs()[2].config.model.causal);
  }
  how.out = dir.path + "/refused";
  spec.encodings = {"rope+nope"};
  CHECK_THROWS_WITH(Study(spec, how), Contains("unknown name 'nope' in 'rope+nope'"));
  spec.encodings = {"rope++none"};
  CHECK_THROWS_WITH(Study(spec, how), Contains("'rope++none' has an empty part"));
  spec.encodings = {"rope+"};
  CHECK_THROWS_WITH(Study(spec, how), Contains("'rope+' has an empty part"));
  spec.encodings = {"rope+none+rope"};
  CHECK_THROWS_WITH(Study(spec, how), Contains("names 3 layers' encodings for a model of --layers 2"));
  spec.encodings = {"rope+none"};
  spec.vary = parse_vary({"layer-encodings=rope+rope,none+none"});
  CHECK_THROWS_WITH(Study(spec, how), Contains("drop one of them"));
  CHECK_FALSE(fs::exists(how.out));
}

TEST_CASE("study: runs the grid, writes its files, and a resumed study skips what is finished", "[study]") {
  TempDir dir;
  StudyOptions how;
  how.out = dir.path + "/grid";
  auto owner = std::make_unique<Study>(tiny_spec(), how);
  Study& study = *owner;
  REQUIRE(study.runs().size() == 4);
  CHECK(study.runs()[2].label() == "shift/none/seed0");
  CHECK(study.runs()[2].config.steps == 6);  // task_steps
  CHECK(study.steps_to_train() == 12 + 12 + 6 + 6);
  int messages = 0;
  StudyProgress show;
  show.message = [&](const std::string& line) { messages += line.rfind("[", 0) == 0; };  // "[k/4] <run>: ..."
  const StudyOutcome first = study.run(show);
  CHECK(first.trained == 4);
  CHECK(first.skipped == 0);
  CHECK(messages == 4);  // one per finished run (others: how many run at a time)
  REQUIRE(first.records.size() == 4);
  for (const char* f : {"results.h5", "summary.md", "checkpoints/order/rope/seed0.h5", "plots/shift_curves.dat"})
    CHECK(fs::exists(how.out + "/" + f));
  CHECK(read_results(first.results_path).size() == 4);
  // summary.md holds a table per task and the findings the study returned, word for word.
  std::ifstream md_file(first.summary_path);
  const std::string md((std::istreambuf_iterator<char>(md_file)), std::istreambuf_iterator<char>());
  CHECK(md.find("## order (chance 0.500)") != std::string::npos);
  CHECK(md.find("## shift (chance 0.500)") != std::string::npos);
  REQUIRE_FALSE(first.findings.empty());
  for (const Finding& f : first.findings) CHECK(md.find(f.text) != std::string::npos);

  // The same directory again: refused, unless resumed (then nothing is trained) or replaced;
  // and never while another study holds it, even in the same process.
  CHECK_THROWS_WITH(Study(tiny_spec(), how), Contains("already holds files"));
  how.existing = ExistingOutput::Resume;
  CHECK_THROWS_WITH(Study(tiny_spec(), how), Contains("is in use by another ordo (pid "));
  owner.reset();  // releases the directory
  const StudyOutcome again = Study(tiny_spec(), how).run();
  CHECK(again.trained == 0);
  CHECK(again.skipped == 4);
  REQUIRE(again.records.size() == 4);
  for (size_t i = 0; i < 4; ++i) {
    CHECK(again.records[i].log.train_loss == first.records[i].log.train_loss);
    CHECK(again.records[i].settings == first.records[i].settings);
  }
}

TEST_CASE("study: a run checkpointed before its final sweep is not finished, and a resumed study scores the sweep",
          "[study][eval]") {
  TempDir dir;
  StudyOptions how;
  how.out = dir.path + "/grid";
  StudySpec spec = tiny_spec();
  spec.tasks = {"shift"};
  spec.encodings = {"rope"};
  spec.base.eval_lens_final = {96, 80};
  const StudyOutcome first = Study(spec, how).run();
  REQUIRE(first.records.size() == 1);
  const RunLog& done = first.records[0].log;
  REQUIRE(done.eval.at(96).size() == 1);
  // The checkpoint a stop in the sweep leaves: trained, 80 not scored yet.
  const std::string ck_path = how.out + "/checkpoints/shift/rope/seed0.h5";
  Checkpoint ck = load_checkpoint(ck_path);
  ck.log.eval.erase(80);
  save_checkpoint(ck_path, ck);
  how.existing = ExistingOutput::Resume;
  Study resumed(spec, how);
  CHECK(resumed.steps_to_train() == 0);
  const StudyOutcome again = resumed.run();
  CHECK(again.trained == 1);  // not skipped as finished
  REQUIRE(again.records.size() == 1);
  const RunLog& log = again.records[0].log;
  CHECK(log.train_loss == done.train_loss);
  for (int64_t len : {96, 80}) {
    INFO("length " << len);
    REQUIRE(log.eval.at(len).size() == 1);
    CHECK(log.eval.at(len).back().acc == done.eval.at(len).back().acc);
    CHECK(log.eval.at(len).back().loss == done.eval.at(len).back().loss);
  }
}

TEST_CASE("study: a run that fails is named, its curve is kept, and a resumed study runs it again", "[study]") {
  TempDir dir;
  StudyOptions how;
  how.out = dir.path + "/grid";
  how.jobs = 1;  // one run at a time: the first run fails, the second never starts
  StudySpec spec = tiny_spec();
  spec.encodings = {"none"};
  spec.base.lr = 1e30;  // the loss is not finite within a few steps
  {
    Study failing(spec, how);
    CHECK_THROWS_WITH(failing.run(), Contains("order/none/seed0") && Contains("nan"));
  }
  const std::vector<RunRecord> kept = read_results(how.out + "/results.h5");
  REQUIRE(kept.size() == 1);  // the failed run's curve up to the fault
  CHECK(kept[0].task == "order");
  CHECK_FALSE(kept[0].log.step.empty());

  spec.base.lr = 1e-3;  // fixed; the same directory, resumed
  how.existing = ExistingOutput::Resume;
  const StudyOutcome fixed = Study(spec, how).run();
  CHECK(fixed.trained == 2);
  CHECK(read_results(how.out + "/results.h5").size() == 2);
}

TEST_CASE("study: --vary sweeps settings as a Cartesian product, one results group per variant", "[study][vary]") {
  const std::vector<Variation> vary = parse_vary({"causal=false,true", "layers=1,2"});
  const auto all = variants(vary);
  REQUIRE(all.size() == 4);  // the last variation fastest
  CHECK(variant_label(all[0]) == "causal=false,layers=1");
  CHECK(variant_label(all[1]) == "causal=false,layers=2");
  CHECK(variant_label(all[3]) == "causal=true,layers=2");
  CHECK(variants({}).size() == 1);  // no sweep: one empty variant
  CHECK(variant_label(variants({}).front()).empty());

  TempDir dir;
  StudySpec spec = tiny_spec();
  spec.tasks = {"order"};
  spec.task_steps = {};
  spec.vary = parse_vary({"causal=false,true"});
  StudyOptions how;
  how.out = dir.path + "/sweep";
  StudyOutcome done;
  {
    Study study(spec, how);
    REQUIRE(study.runs().size() == 4);  // none, rope x two variants
    CHECK(study.runs()[1].label() == "order/none/causal=true/seed0");
    CHECK(study.runs()[1].config.model.causal);
    CHECK_FALSE(study.runs()[0].config.model.causal);
    done = study.run();
  }
  CHECK(fs::exists(how.out + "/checkpoints/order/rope/causal=true/seed0.h5"));
  const std::vector<RunRecord> back = read_results(done.results_path);
  REQUIRE(back.size() == 4);
  CHECK(back[1].variant == "causal=true");
  CHECK(back[1].settings.at("causal") == "true");
  CHECK(back[0].settings.at("causal") == "false");
  // The variants train differently (the mask changes the model), and summary.md shows both.
  CHECK(back[0].log.train_loss != back[1].log.train_loss);
  std::ifstream md_file(done.summary_path);
  const std::string md((std::istreambuf_iterator<char>(md_file)), std::istreambuf_iterator<char>());
  CHECK(md.find("| encoding | varied |") != std::string::npos);
  CHECK(md.find("| rope | causal=true |") != std::string::npos);
  CHECK(md.find("| rope | causal=false |") != std::string::npos);
  // Resumed: every variant's run is found finished.
  how.existing = ExistingOutput::Resume;
  CHECK(Study(spec, how).run().skipped == 4);

  CHECK_THROWS_WITH(parse_vary({"seed=1,2"}), Contains("use --seeds"));
  CHECK_THROWS_WITH(parse_vary({"layers=1/2,3"}), Contains("cannot name a results group"));
  spec.given["causal"] = "true";
  how.existing = ExistingOutput::Replace;
  CHECK_THROWS_WITH(Study(spec, how), Contains("--causal is both given and varied"));
}

TEST_CASE("study: a run that stops early frees its worker for the next run at once", "[study][stopping]") {
  // Two workers, four runs in grid order: order/none with --learned-at 1 (cannot stop early:
  // 120 steps), order/none with --learned-at 0.01 (learned at its second evaluation, step
  // 12), then the same two for rope. When the short run stops, the next run (rope, long)
  // must start while the first long run still trains: two runs at once, one already done.
  TempDir dir;
  StudySpec spec = tiny_spec();
  spec.tasks = {"order"};
  spec.task_steps.clear();
  spec.base.steps = 120;
  spec.base.until_learned = true;
  spec.vary = {{"learned-at", {"1", "0.01"}}};
  StudyOptions how;
  how.out = dir.path + "/grid";
  how.jobs = 2;
  int most_at_once = 0, at_once_after_a_stop = 0;
  int64_t last_done = 0, last_total = 0;
  StudyProgress show;
  show.update = [&](int64_t done, int64_t total, const std::string& line, double) {
    int running = 0;
    for (size_t at = line.find(" | "); at != std::string::npos; at = line.find(" | ", at + 1)) ++running;
    most_at_once = std::max(most_at_once, running);
    if (line.rfind("runs 1/4 done", 0) == 0) at_once_after_a_stop = std::max(at_once_after_a_stop, running);
    last_done = done, last_total = total;
  };
  auto study = std::make_unique<Study>(spec, how);
  REQUIRE(study->runs().size() == 4);
  CHECK(study->runs()[1].label() == "order/none/learned-at=0.01/seed0");
  const StudyOutcome out = study->run(show);
  study.reset();  // releases the directory
  CHECK(out.trained == 4);
  CHECK(most_at_once == 2);          // never more runs than workers
  CHECK(at_once_after_a_stop == 2);  // the stopped run's worker took the next run
  CHECK(last_total == 4 * 120);
  REQUIRE(out.records.size() == 4);
  CHECK(out.records[0].log.stop_reason == "max-steps");
  CHECK(out.records[1].log.stop_reason == "learned");
  CHECK(out.records[1].log.stop_step == 12);
  CHECK(out.records[1].log.step.size() == 12);
  CHECK(last_done <= last_total);
  // summary.md says why and when each run stopped.
  std::ifstream md_file(out.summary_path);
  const std::string md((std::istreambuf_iterator<char>(md_file)), std::istreambuf_iterator<char>());
  CHECK_THAT(md, Contains("| stopped |"));
  CHECK_THAT(md, Contains("learned 1 at 12"));
  CHECK_THAT(md, Contains("max-steps 1 at 120"));
  // Resumed: every run is finished, the stopped ones too, so nothing is trained again.
  how.existing = ExistingOutput::Resume;
  const StudyOutcome again = Study(spec, how).run();
  CHECK(again.trained == 0);
  CHECK(again.skipped == 4);
}

TEST_CASE("study: --kept-seeds trains further seeds until a cell has N learned runs, at most --max-seeds",
          "[study][kept_seeds]") {
  // run_learned: stopped 'learned', or a last training-range accuracy at the threshold.
  RunLog log;
  log.eval[0] = {{0, 0.2, NAN, 1.0}, {6, 0.95, NAN, 0.1}};
  CHECK(run_learned(log, 0.9));
  CHECK_FALSE(run_learned(log, 0.99));
  log.stop_reason = "learned";
  CHECK(run_learned(log, 0.99));
  RunLog baseline_only;
  baseline_only.eval[0] = {{0, 1.0, NAN, 1.0}};
  CHECK_FALSE(run_learned(baseline_only, 0.5));  // the untrained baseline is not learning

  // Two cells by --vary learned-at: at 0.01 every run learns at its first evaluation; at 1.0
  // within 12 steps none does. --seeds 1 --kept-seeds 2 --max-seeds 3: the first cell adds one
  // seed (two learned), the second two (three tried, none learned).
  TempDir dir;
  StudySpec spec = tiny_spec();
  spec.tasks = {"order"};
  spec.encodings = {"rope"};
  spec.task_steps = {};
  spec.base.until_learned = true;
  spec.vary = parse_vary({"learned-at=0.01,1.0"});
  spec.kept_seeds = 2;
  spec.max_seeds = 3;
  spec.base.eval_lens_final = {48};
  StudyOptions how;
  how.out = dir.path + "/kept";
  StudyOutcome done;
  {
    Study study(spec, how);
    CHECK(study.runs().size() == 2);  // the grid's own seeds first
    done = study.run();
  }
  CHECK(done.trained == 5);
  std::vector<std::string> seeds;
  for (const RunRecord& r : done.records) seeds.push_back(r.variant + "/" + std::to_string(r.seed));
  CHECK(seeds == std::vector<std::string>{"learned-at=0.01/0", "learned-at=1.0/0", "learned-at=0.01/1",
                                          "learned-at=1.0/1", "learned-at=1.0/2"});
  CHECK(read_results(done.results_path).size() == 5);
  CHECK(fs::exists(how.out + "/checkpoints/order/rope/learned-at=1.0/seed2.h5"));
  // Resumed: the same rounds are found finished; nothing trains, the records are the same.
  how.existing = ExistingOutput::Resume;
  const StudyOutcome again = Study(spec, how).run();
  CHECK(again.trained == 0);
  REQUIRE(again.records.size() == 5);
  for (size_t i = 0; i < 5; ++i) CHECK(again.records[i].log.train_loss == done.records[i].log.train_loss);
  // A run resumed from a partial checkpoint in the first round is finished for the later ones:
  // learned-at=0.01/seed0 left before its final sweep is scored once, not trained again in the
  // round that finds seed1 and the other cell's seeds 1 and 2 finished.
  const std::string partial = how.out + "/checkpoints/order/rope/learned-at=0.01/seed0.h5";
  Checkpoint ck = load_checkpoint(partial);
  ck.log.eval.erase(48);
  save_checkpoint(partial, ck);
  const StudyOutcome resumed = Study(spec, how).run();
  CHECK(resumed.trained == 1);
  REQUIRE(resumed.records.size() == 5);
  CHECK(resumed.records[0].log.eval.at(48).back().acc == done.records[0].log.eval.at(48).back().acc);
  // Bad settings are refused before anything runs.
  how.existing = ExistingOutput::Replace;
  spec.max_seeds = 1;
  CHECK_THROWS_WITH(Study(spec, how), Contains("--max-seeds 1 is below"));
  spec.kept_seeds = 0;
  CHECK_THROWS_WITH(Study(spec, how), Contains("--max-seeds needs --kept-seeds"));
}

TEST_CASE("study: --lr-seeds trains every rate on the first N seeds and only each cell's chosen rate on the rest",
          "[study][lr_seeds]") {
  TempDir dir;
  StudySpec spec = tiny_spec();
  // shift, 80 steps without warm-up: at 1e-2 the training-range accuracy reached 0.94 (one of
  // two seeds learned) where 1e-9 stayed at 0.52 (measured on the AVX-512 VM, 2026-12-03).
  spec.tasks = {"shift"};
  spec.encodings = {"rope"};
  spec.task_steps = {};
  spec.base.steps = 80;
  spec.base.eval_every = 40;
  spec.base.warmup = 0;
  spec.vary = parse_vary({"lr=1e-9,1e-2"});  // the rate that trains listed second: not the tie-break's pick
  spec.seeds = 3;
  spec.lr_seeds = 1;
  StudyOptions how;
  how.out = dir.path + "/lr";
  StudyOutcome done;
  {
    Study study(spec, how);
    CHECK(study.runs().size() == 2);  // seed 0 at each rate first
    done = study.run();
  }
  // The choice on seed 0 alone, by the rule the report applies: 1e-2 trains, 1e-9 hardly moves.
  std::vector<RunRecord> first;
  for (const RunRecord& r : done.records)
    if (r.seed == 0) first.push_back(r);
  REQUIRE(first.size() == 2);
  const RateSelection on_first = select_learning_rates(first);
  REQUIRE(on_first.choices.size() == 1);
  const RateChoice& c = on_first.choices[0];
  CHECK(c.rates[c.selected].lr == "1e-2");
  CHECK(c.rates[1].train_acc > c.rates[0].train_acc + 0.2);
  // Then seeds 1 and 2 at 1e-2 only.
  CHECK(done.trained == 4);
  std::vector<std::string> runs;
  for (const RunRecord& r : done.records) runs.push_back(r.variant + "/" + std::to_string(r.seed));
  CHECK(runs == std::vector<std::string>{"lr=1e-9/0", "lr=1e-2/0", "lr=1e-2/1", "lr=1e-2/2"});
  CHECK(read_results(done.results_path).size() == 4);
  CHECK(read_results_attributes(done.results_path).at("lr-seeds") == "1");
  std::ifstream md_file(done.summary_path);
  const std::string md((std::istreambuf_iterator<char>(md_file)), std::istreambuf_iterator<char>());
  CHECK(md.find("every learning rate on the first 1 and each cell's chosen rate on all (--lr-seeds 1)") !=
        std::string::npos);
  CHECK(md.find("| rope | 0.01 |") != std::string::npos);  // the Learning rates table: the study's choice
  CHECK(md.find("Every rate is scored on seeds below 1 only") != std::string::npos);
  CHECK(md.find("## The literature's view: best of every rate on the seeds they share") != std::string::npos);

  // Resumed: both rounds found finished, from the checkpoints and then from results.h5 alone.
  how.existing = ExistingOutput::Resume;
  const StudyOutcome again = Study(spec, how).run();
  CHECK(again.trained == 0);
  REQUIRE(again.records.size() == 4);
  for (size_t i = 0; i < 4; ++i) CHECK(again.records[i].log.train_loss == done.records[i].log.train_loss);
  fs::remove_all(how.out + "/checkpoints");
  {
    Study study(spec, how);
    CHECK(study.runs().size() == 4);
    CHECK(study.steps_to_train() == 0);
  }
  // Another --lr-seeds, or none, is another protocol: refused on resume.
  spec.lr_seeds = 2;
  CHECK_THROWS_WITH(Study(spec, how), Contains("was run with --lr-seeds 1, this command has --lr-seeds 2"));
  spec.lr_seeds = 0;
  CHECK_THROWS_WITH(Study(spec, how), Contains("this command has no --lr-seeds"));

  // Bad settings are refused before anything runs.
  how.existing = ExistingOutput::Replace;
  spec.lr_seeds = 3;
  CHECK_THROWS_WITH(Study(spec, how), Contains("--lr-seeds 3 must be below --seeds 3"));
  spec.lr_seeds = 1;
  spec.kept_seeds = 2;
  CHECK_THROWS_WITH(Study(spec, how), Contains("give one of them"));
  spec.kept_seeds = 0;
  spec.vary = parse_vary({"causal=false,true"});
  CHECK_THROWS_WITH(Study(spec, how), Contains("this study sweeps none; add --lrs"));
}

TEST_CASE("study: a task given fewer --task-steps than --patience runs without patience", "[study][stopping]") {
  TempDir dir;
  StudySpec spec = tiny_spec();  // order 12 steps, shift 6 (--task-steps)
  spec.base.until_learned = true;
  spec.base.patience = 8;
  StudyOptions how;
  how.out = dir.path + "/patience";
  Study study(spec, how);
  for (const StudyRun& r : study.runs()) {
    INFO(r.label());
    CHECK(r.config.patience == (r.config.task.name == "shift" ? 0 : 8));
    CHECK(r.settings.at("patience") == (r.config.task.name == "shift" ? "0" : "8"));
  }
  spec.task_steps = {};
  spec.base.steps = 6;  // a patience above the grid's own --steps is still refused
  how.out = dir.path + "/refused";
  CHECK_THROWS_WITH(Study(spec, how), Contains("--patience 8 is longer than the maximum, --steps 6"));
}

TEST_CASE("study: a resumed study whose checkpoints are gone takes its finished runs from results.h5",
          "[study][kept_seeds]") {
  // docs/results/ keeps a study's results.h5 without its checkpoints; a study resumed there
  // (a machine that lost its run directory) trains only what results.h5 does not hold finished.
  TempDir dir;
  StudySpec spec = tiny_spec();
  spec.tasks = {"order"};
  spec.encodings = {"rope"};
  spec.task_steps = {};
  spec.base.until_learned = true;
  spec.vary = parse_vary({"learned-at=0.01,1.0"});
  spec.kept_seeds = 2;
  spec.max_seeds = 3;
  spec.base.eval_lens_final = {48};
  StudyOptions how;
  how.out = dir.path + "/kept";
  const StudyOutcome done = Study(spec, how).run();
  REQUIRE(done.trained == 5);
  const std::string results = how.out + "/results.h5";
  // The file's records in the grid's order (it stores them by name).
  auto in_grid_order = [&] {
    std::vector<RunRecord> out;
    for (const RunRecord& r : done.records)
      for (const RunRecord& f : read_results(results))
        if (f.variant == r.variant && f.seed == r.seed) out.push_back(f);
    return out;
  };
  const std::vector<RunRecord> recorded = in_grid_order();
  REQUIRE(recorded.size() == 5);
  std::map<std::string, std::string> attributes = read_results_attributes(results);
  CHECK(attributes.at("encodings_revision") == std::to_string(kEncodingsRevision));
  for (const char* written : {"format", "format_version", "ordo_version"}) attributes.erase(written);
  fs::remove_all(how.out + "/checkpoints");

  // Every run finished: nothing trains, the --kept-seeds rounds included (claimed at once, so
  // the file never loses them), and the records are the file's.
  how.existing = ExistingOutput::Resume;
  {
    Study study(spec, how);
    CHECK(study.runs().size() == 5);
    CHECK(study.steps_to_train() == 0);
    const StudyOutcome again = study.run();
    CHECK(again.trained == 0);
    CHECK(again.skipped == 5);
    REQUIRE(again.records.size() == 5);
    for (size_t i = 0; i < 5; ++i) {
      INFO(i);
      CHECK(again.records[i].log.train_loss == recorded[i].log.train_loss);
      CHECK(again.records[i].log.stop_reason == recorded[i].log.stop_reason);
      CHECK(again.records[i].log.eval.at(48).back().acc == recorded[i].log.eval.at(48).back().acc);
    }
    CHECK(read_results(results).size() == 5);
  }

  // A record whose final sweep was cut short, or whose run failed in its last evaluation
  // (its checkpoint lost), trains again from the start, to the same numbers; the others
  // stay skipped, and the file keeps all five.
  std::vector<RunRecord> cut = recorded;
  cut[0].log.eval.erase(48);
  for (auto& [len, points] : cut[1].log.eval) points.pop_back();
  cut[1].log.stop_reason.clear(), cut[1].log.stop_step = 0;
  write_results(results, cut, attributes);
  {
    const StudyOutcome again = Study(spec, how).run();
    CHECK(again.trained == 2);
    REQUIRE(again.records.size() == 5);
    for (size_t i : {0, 1}) {
      INFO(i);
      CHECK(again.records[i].log.eval.at(48).back().acc == recorded[i].log.eval.at(48).back().acc);
      CHECK(again.records[i].log.stop_reason == recorded[i].log.stop_reason);
    }
    CHECK(read_results(results).size() == 5);
  }

  // A finished record of other settings, or of an encoding that changed since the file was
  // written, is refused as its checkpoint would be; a file from before the attribute reads
  // as revision 1, which an unchanged encoding passes.
  fs::remove_all(how.out + "/checkpoints");
  std::vector<RunRecord> other = recorded;
  other[1].settings["lr"] = "0.5";
  write_results(results, other, attributes);
  CHECK_THROWS_WITH(Study(spec, how), Contains("order/rope/learned-at=1.0/seed0") &&
                                          Contains("its record in results.h5 (no checkpoint)") &&
                                          Contains("trained with --lr 0.5"));
  write_results(results, recorded, attributes);
  StudySpec longer = spec;
  longer.base.steps = 14;
  CHECK_THROWS_WITH(Study(longer, how), Contains("trained with --steps 12, this run has --steps 14"));
  std::map<std::string, std::string> old = attributes;
  old.erase("encodings_revision");
  write_results(results, recorded, old);
  CHECK_NOTHROW(Study(spec, how));
  std::vector<RunRecord> fire = recorded;
  for (RunRecord& r : fire) r.encoding = r.settings["encoding"] = "fire";
  old["encodings"] = "fire";
  write_results(results, fire, old);
  StudySpec with_fire = spec;
  with_fire.encodings = {"fire"};
  CHECK_THROWS_WITH(Study(with_fire, how), Contains("order/fire/") && Contains("predates a change to fire (revision 2)"));
  old["encodings_revision"] = std::to_string(kEncodingsRevision);
  write_results(results, fire, old);
  CHECK_NOTHROW(Study(with_fire, how));
  // A results.h5 that cannot be read is named, with the way out.
  {
    std::ofstream(results, std::ios::trunc) << "not hdf5";
  }
  CHECK_THROWS_WITH(Study(spec, how), Contains("--resume: ") && Contains("move " + results + " away"));
}

TEST_CASE("study: a record of a long run (its log thinned in results.h5) stands for its checkpoint", "[study]") {
  TempDir dir;
  StudySpec spec = tiny_spec();
  spec.tasks = {"order"};
  spec.encodings = {"none"};
  spec.task_steps = {};
  spec.base.steps = 2 * kLogEntries + 3;  // buckets of 3 steps, the last one short
  spec.base.eval_every = kLogEntries;
  StudyOptions how;
  how.out = dir.path + "/long";
  const StudyOutcome done = Study(spec, how).run();
  const std::vector<RunRecord> recorded = read_results(done.results_path);
  REQUIRE(recorded.size() == 1);
  REQUIRE_FALSE(recorded[0].log.train_loss_min.empty());  // thinned
  CHECK(recorded[0].log.step.back() == spec.base.steps);
  fs::remove_all(how.out + "/checkpoints");
  how.existing = ExistingOutput::Resume;
  const StudyOutcome again = Study(spec, how).run();
  CHECK(again.trained == 0);
  REQUIRE(again.records.size() == 1);
  CHECK(again.records[0].log.train_loss == recorded[0].log.train_loss);
  CHECK(read_results(done.results_path)[0].log.train_loss_max == recorded[0].log.train_loss_max);
}
