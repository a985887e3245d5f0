// tests/report/test_summary.cpp: aggregation over seeds, findings computed from the numbers
// (changing the fixture changes them), and the summary table.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "data/eval.h"
#include "report/figure_data.h"
#include "report/findings.h"
#include "report/summary.h"
#include "train/config.h"

using namespace ordo;

namespace {

// A run whose training-range accuracy curve is `train_curve` (evaluated every 100 steps) and
// whose final accuracies at 64 and 128 are `at64`, `at128`. Its training loss is 1 / step
// (still falling: 1/271..1/300 is half of 1/121..1/150), or ln 2 at every step with `flat`.
RunRecord run(const std::string& enc, uint64_t seed, std::vector<double> train_curve, double at64, double at128,
              double wall, bool flat = false) {
  RunRecord r;
  r.task = "order";
  r.encoding = enc;
  r.seed = seed;
  r.settings = {{"min-len", "8"}, {"max-len", "32"}, {"vocab", "8"}};
  const int64_t steps = 100 * static_cast<int64_t>(train_curve.size() - 1);
  for (int64_t s = 1; s <= steps; ++s) {
    r.log.step.push_back(s);
    r.log.train_loss.push_back(flat ? std::log(2.0) : 1.0 / s);
    r.log.lr.push_back(1e-3);
    r.log.wall_time.push_back(0.01 * s);
  }
  for (size_t i = 0; i < train_curve.size(); ++i) r.log.eval[0].push_back(EvalPoint{100 * int64_t(i), train_curve[i]});
  r.log.eval[64].push_back(EvalPoint{steps, at64});
  r.log.eval[128].push_back(EvalPoint{steps, at128});
  r.log.total_wall_seconds = wall;
  return r;
}

// none: chance; rope: solves, extrapolates to 2x only; alibi: solves first, extrapolates to 4x.
std::vector<RunRecord> fixture() {
  return {
      run("none", 0, {0.5, 0.5, 0.5, 0.5}, 0.5, 0.5, 10, true),
      run("none", 1, {0.5, 0.5, 0.49, 0.51}, 0.5, 0.5, 12, true),
      run("rope", 0, {0.5, 0.8, 0.995, 1.0}, 0.96, 0.6, 11),
      run("rope", 1, {0.5, 0.7, 0.9, 0.998}, 0.94, 0.62, 11),
      run("alibi", 0, {0.5, 0.991, 0.999, 0.999}, 0.97, 0.93, 9),
      run("alibi", 1, {0.5, 0.992, 0.998, 0.997}, 0.97, 0.95, 9),
  };
}

// Whether a finding's line ("order: Solved by ...") contains `text`.
bool has(const std::vector<Finding>& notes, const std::string& text) {
  return std::any_of(notes.begin(), notes.end(), [&](const Finding& n) { return n.line().find(text) != std::string::npos; });
}

std::string joined(const std::vector<Finding>& notes) {
  std::string s;
  for (const auto& n : notes) s += n.line() + "\n";
  return s;
}

}  // namespace

TEST_CASE("summary: aggregates over seeds", "[compare]") {
  const auto tasks = summarize(fixture());
  REQUIRE(tasks.size() == 1);
  const TaskSummary& t = tasks[0];
  CHECK(t.task == "order");
  CHECK(t.min_len == 8);
  CHECK(t.max_len == 32);
  CHECK(t.chance == 0.5);
  CHECK(t.lengths == std::vector<int64_t>{0, 64, 128});
  REQUIRE(t.rows.size() == 3);
  CHECK(t.rows[0].encoding == "none");
  const EncodingSummary& rope = t.rows[1];
  CHECK(rope.seeds == 2);
  CHECK(rope.acc.at(0).mean == Approx(0.999));
  CHECK(rope.acc.at(64).mean == Approx(0.95));
  CHECK(rope.acc.at(64).spread() == Approx(0.01));
  CHECK(rope.seeds_solved == 2);
  CHECK(rope.first_solved_step.mean == Approx(250));  // steps 200 and 300
  CHECK(rope.first_solved_step.min == 200);
  CHECK(t.rows[0].seeds_solved == 0);
  CHECK(t.rows[0].wall_seconds.mean == Approx(11));
  CHECK(t.rows[0].wall_seconds.spread() == Approx(1));
}

TEST_CASE("summary: rows ranked by accuracy at the longest length, then on the training lengths", "[compare]") {
  auto runs = fixture();
  const auto before = summarize(runs);
  auto ranked = ranked_rows(before[0]);
  REQUIRE(ranked.size() == 3);
  CHECK(ranked[0]->encoding == "alibi");  // 0.94 at 128
  CHECK(ranked[1]->encoding == "rope");   // 0.61
  CHECK(ranked[2]->encoding == "none");   // 0.50
  for (auto& r : runs)
    if (r.encoding == "alibi") r.log.eval[128].back().acc = 0.5;  // ties none at 128: training accuracy decides
  const auto tasks = summarize(runs);
  ranked = ranked_rows(tasks[0]);
  CHECK(ranked[0]->encoding == "rope");
  CHECK(ranked[1]->encoding == "alibi");
  CHECK(ranked[2]->encoding == "none");
}

TEST_CASE("summary: findings follow the numbers", "[compare]") {
  auto notes = findings(summarize(fixture()));
  INFO(joined(notes));
  CHECK(has(notes, "order: Solved by alibi and rope."));
  CHECK(has(notes, "order: At chance (0.500): none."));
  CHECK(has(notes, "order: Holds up to 4x (128): alibi."));
  CHECK(has(notes, "order: Holds up to 2x (64) only: rope."));
  CHECK(has(notes, "order: Fastest to 0.99: alibi (step 100, mean of 2 seeds); with 2 vs 2 runs no permutation test "
                   "tells it from the next, rope (step 250)."));
  CHECK_FALSE(has(notes, "Not solved"));
  CHECK(findings_legend(summarize(fixture())).find("Each sentence holds in every seed unless it gives a count.") == 0);

  SECTION("alibi no longer extrapolates to 4x when its 128 accuracy drops") {
    auto runs = fixture();
    for (auto& r : runs)
      if (r.encoding == "alibi") r.log.eval[128].back().acc = 0.5;
    notes = findings(summarize(runs));
    INFO(joined(notes));
    CHECK(has(notes, "order: Holds up to 2x (64) only: rope and alibi."));
    CHECK_FALSE(has(notes, "up to 4x"));
  }
  SECTION("none leaves chance when it learns something") {
    auto runs = fixture();
    for (auto& r : runs)
      if (r.encoding == "none") r.log.eval[0].back().acc = 0.7;
    notes = findings(summarize(runs));
    INFO(joined(notes));
    CHECK_FALSE(has(notes, "At chance"));
    CHECK(has(notes, "order: Not solved, converged: none."));
  }
  SECTION("one rope seed never reaching 0.99 makes alibi the only fastest candidate and rope unsolved") {
    auto runs = fixture();
    runs[3].log.eval[0] = {EvalPoint{0, 0.5}, EvalPoint{100, 0.6}, EvalPoint{200, 0.7}, EvalPoint{300, 0.8}};
    const auto tasks = summarize(runs);
    CHECK(tasks[0].rows[1].seeds_solved == 1);
    CHECK(render_task_table(tasks[0]).find("200 (1/2 seeds)") != std::string::npos);
    notes = findings(tasks);
    INFO(joined(notes));
    CHECK(has(notes, "order: Solved by alibi."));
    CHECK(has(notes, "order: Solved by some seeds only: rope (1 of 2)."));
    CHECK(has(notes, "order: Fastest to 0.99: alibi"));
  }
  SECTION("an encoding that reached 0.99 first but ends below it is not the fastest: it is not solved") {
    auto runs = fixture();
    for (auto& r : runs)
      if (r.encoding == "alibi") r.log.eval[0].back().acc = 0.95;  // 0.99 at step 100, then down
    const auto tasks = summarize(runs);
    CHECK(tasks[0].rows[2].seeds_solved == 2);
    notes = findings(tasks);
    INFO(joined(notes));
    CHECK(has(notes, "Fastest to 0.99: rope"));
    CHECK_FALSE(has(notes, "Fastest to 0.99: alibi"));
  }
  SECTION("the table's first-step column follows the threshold summarize was given") {
    const auto tasks = summarize(fixture(), 0.9);
    CHECK(render_task_table(tasks[0]).find("first step >= 0.90 |") != std::string::npos);
    CHECK(render_summary_markdown(tasks, {}, "", {}).find("at or above 0.90") != std::string::npos);
  }
  SECTION("at chance but with the loss still falling is not solved yet, never 'at chance'") {
    auto runs = fixture();
    for (auto& r : runs)
      if (r.encoding == "none")
        for (size_t i = 0; i < r.log.train_loss.size(); ++i) r.log.train_loss[i] = 1.0 - 0.001 * double(i);
    notes = findings(summarize(runs));
    INFO(joined(notes));
    CHECK(has(notes, "order: Not solved, still improving at 300 steps: none."));
    CHECK_FALSE(has(notes, "At chance"));
  }
  SECTION("a loss that fell over the second half but is flat over the last tenths (the cosine schedule's end) "
          "is still improving") {
    auto runs = fixture();
    for (auto& r : runs)
      if (r.encoding == "none")
        for (size_t i = 0; i < r.log.train_loss.size(); ++i) r.log.train_loss[i] = std::max(0.6, 0.7 - 0.0005 * double(i));
    notes = findings(summarize(runs));
    INFO(joined(notes));
    CHECK(has(notes, "order: Not solved, still improving at 300 steps: none."));
  }
  SECTION("still improving in one seed of two is counted") {
    auto runs = fixture();
    for (size_t i = 0; i < runs[0].log.train_loss.size(); ++i) runs[0].log.train_loss[i] = 1.0 - 0.001 * double(i);
    notes = findings(summarize(runs));
    INFO(joined(notes));
    CHECK(has(notes, "order: Not solved, still improving at 300 steps: none (1 of 2 seeds)."));
  }
  SECTION("at chance in one seed while another seed solved it: 'some seeds only', not 'at chance'") {
    auto runs = fixture();
    runs[1].log.eval[0] = {EvalPoint{0, 0.5}, EvalPoint{100, 0.6}, EvalPoint{200, 0.995}, EvalPoint{300, 1.0}};
    notes = findings(summarize(runs));
    INFO(joined(notes));
    CHECK(has(notes, "order: Solved by alibi and rope."));
    CHECK(has(notes, "order: Solved by some seeds only: none (1 of 2)."));
    CHECK_FALSE(has(notes, "At chance"));
    CHECK_FALSE(has(notes, "converged"));
  }
  SECTION("an extrapolation only some seeds reach is qualified") {
    auto runs = fixture();
    runs[5].log.eval[128].back().acc = 0.5;  // alibi seed 1 at 4x
    notes = findings(summarize(runs));
    INFO(joined(notes));
    CHECK(has(notes, "order: Holds up to 2x (64) only: alibi (4x (128) in 1 of 2 seeds) and rope."));
  }
  SECTION("a stricter threshold changes who solves it") {
    FindingThresholds th;
    th.solved = 0.9999;
    notes = findings(summarize(fixture()), th);
    INFO(joined(notes));
    CHECK(has(notes, "order: Solved by some seeds only: rope (1 of 2)."));
    th.solved = 1.5;
    notes = findings(summarize(fixture()), th);
    CHECK(has(notes, "order: Solved by no encoding in any seed within 300 steps; highest: rope at 0.999, its seeds' "
                     "range overlapping alibi."));
  }
  SECTION("encodings tied for the fastest are all named") {
    auto runs = fixture();
    for (auto& r : runs)
      if (r.encoding == "rope") r.log.eval[0] = {EvalPoint{0, 0.5}, EvalPoint{100, 0.995}, EvalPoint{200, 1.0}, EvalPoint{300, 1.0}};
    notes = findings(summarize(runs));
    INFO(joined(notes));
    CHECK(has(notes, "order: Fastest to 0.99: alibi and rope (tied at step 100, mean of 2 seeds)."));
  }
  SECTION("a sentence names at most five encodings, then points to the table") {
    std::vector<RunRecord> runs;
    for (const char* e : {"e1", "e2", "e3", "e4", "e5", "e6", "e7"})
      for (uint64_t seed : {0, 1}) runs.push_back(run(e, seed, {0.5, 0.5, 0.5, 0.5}, 0.5, 0.5, 10, true));
    notes = findings(summarize(runs));
    INFO(joined(notes));
    CHECK(has(notes, "order: At chance (0.500): e1, e2, e3, e4, e5 and 2 more (see the table)."));
  }
}

TEST_CASE("summary: findings across tasks", "[compare]") {
  auto runs = fixture();
  for (RunRecord r : fixture()) {
    r.task = "shift";
    if (r.encoding == "rope") r.log.eval[0].back().acc = 0.8;
    runs.push_back(r);
  }
  const auto notes = findings(summarize(runs));
  INFO(joined(notes));
  CHECK(has(notes, "across tasks: Solves all 2 tasks: alibi."));
  CHECK(has(notes, "shift: Solved by alibi."));
  CHECK(has(notes, "shift: Not solved, still improving at 300 steps: rope."));
}

TEST_CASE("summary: across tasks, an encoding still improving where it has not solved is not ranked below", "[compare]") {
  auto runs = fixture();  // order: rope and alibi solve it
  for (RunRecord r : fixture()) {
    r.task = "shift";  // alibi solves it, rope is still improving (its loss is 1 / step)
    if (r.encoding == "rope") r.log.eval[0].back().acc = 0.8;
    runs.push_back(r);
  }
  for (RunRecord r : fixture()) {
    r.task = "periodic";  // neither: both converged
    if (r.encoding != "none") {
      r.log.eval[0].back().acc = 0.6;
      std::fill(r.log.train_loss.begin(), r.log.train_loss.end(), 1.2);
    }
    runs.push_back(r);
  }
  const auto notes = findings(summarize(runs));
  INFO(joined(notes));
  CHECK(has(notes, "across tasks: No encoding solves all 3 tasks; most solved (2 of 3): alibi."));
  CHECK(has(notes, "across tasks: Not ranked below them, being still improving (or solved by some seeds) where not "
                   "solved: rope."));
}

TEST_CASE("summary: a one-seed grid says so in its findings", "[compare]") {
  auto runs = fixture();
  runs.erase(std::remove_if(runs.begin(), runs.end(), [](const RunRecord& r) { return r.seed != 0; }), runs.end());
  const auto tasks = summarize(runs);
  const auto notes = findings(tasks);
  INFO(joined(notes));
  CHECK(findings_legend(tasks).find("One seed per cell: each sentence is one run's result, not a rate.") == 0);
  CHECK(has(notes, "order: Solved by alibi and rope."));
  CHECK(has(notes, "order: At chance (0.500): none."));
  CHECK(has(notes, "order: Fastest to 0.99: alibi (step 100); with 1 vs 1 runs no permutation test tells it from the "
                   "next, rope (step 200)."));
  CHECK_FALSE(has(notes, "seeds"));
}

TEST_CASE("summary: the overview ranks rows by how far they generalise, on a scale from chance", "[compare]") {
  auto runs = fixture();
  for (RunRecord r : fixture()) {
    r.task = "shift";
    runs.push_back(r);
  }
  const auto tasks = summarize(runs);
  const Overview ov = overview(tasks);
  REQUIRE(ov.columns.size() == 6);  // 2 tasks x (train, 2x, 4x)
  CHECK(ov.columns[0].label == "order · train (8-32)");
  CHECK(ov.columns[0].bar == 0.99);
  CHECK(ov.columns[2].bar == 0.9);
  CHECK(ov.columns[5].label == "shift · 4x (128)");
  REQUIRE(ov.rows.size() == 3);
  CHECK(ov.rows[0].label == "alibi");
  CHECK(ov.rows[1].label == "rope");
  CHECK(ov.rows[2].label == "none");
  const OverviewCell& none_train = ov.rows[2].cells[0];  // 0.505 on a chance of 0.5
  CHECK(none_train.score == Approx(0.01));
  CHECK_FALSE(none_train.held);
  const OverviewCell& alibi_4x = ov.rows[0].cells[2];  // 0.93 and 0.95 >= 0.9
  CHECK(alibi_4x.held);
  CHECK(alibi_4x.acc.mean == Approx(0.94));
  CHECK(alibi_4x.score == Approx(0.88));
  CHECK_FALSE(ov.rows[1].cells[2].held);  // rope at 4x
  CHECK(ov.rows[1].cells[0].held);        // rope on the training lengths: 0.998 and 1.0
}

TEST_CASE("summary: table and markdown", "[compare]") {
  const auto tasks = summarize(fixture());
  const std::string table = render_task_table(tasks[0]);
  INFO(table);
  CHECK(table.find("| # | encoding | seeds learned | acc 4x (128) | acc 2x (64) | acc train (8-32) | first step >= 0.99 | "
                   "wall s |") == 0);
  // Means with their 95% bootstrap intervals: of two seeds {a, b}, a resample's mean is a, the
  // midpoint or b with chances 1/4, 1/2, 1/4, so the 2.5% and 97.5% quantiles are a and b.
  CHECK(table.find("| 3 | none | 0/2 | 0.500 [0.500, 0.500] | 0.500 [0.500, 0.500] | 0.505 [0.500, 0.510] | never | "
                   "11.0 [10.0, 12.0] |") != std::string::npos);
  CHECK(table.find("| 2 | rope | 2/2 | 0.610 [0.600, 0.620] | 0.950 [0.940, 0.960] | 0.999 [0.998, 1.000] | "
                   "250 [200, 300] | 11.0 [11.0, 11.0] |") != std::string::npos);
  CHECK(std::count(table.begin(), table.end(), '\n') == 5);  // header, alignment, 3 rows

  const std::string md = render_summary_markdown(tasks, findings(tasks), "Grid: test.",
                                                 {{"order", {"plots/order_curves.png"}}}, "plots/overview.png");
  CHECK(md.find("# ordo compare: summary\n\n![overview") == 0);
  CHECK(md.find("](plots/overview.png)") != std::string::npos);
  CHECK(md.find("## order (chance 0.500)\n\nacc: share of sequences whose A-before-B answer is right.\n\n- Solved by "
                "alibi and rope.\n") != std::string::npos);
  CHECK(md.find("Grid: test.") != std::string::npos);
  CHECK(md.find("![order](plots/order_curves.png)") != std::string::npos);
  CHECK(md.find("\n| # | encoding |") != std::string::npos);
}

TEST_CASE("summary: chance levels and labels", "[compare]") {
  CHECK(chance_level("order", {}) == 0.5);
  CHECK(chance_level("shift", {}) == 0.5);
  CHECK(chance_level("periodic", {}) == 0.125);
  CHECK(chance_level("periodic", {{"target", "complete"}, {"vocab", "10"}}) == Approx(0.1));
  CHECK(chance_level("periodic", {{"target", "period"}, {"p-min", "2"}, {"p-max", "5"}}) == Approx(0.25));
  CHECK(chance_level("copy", {}) == 0.125);
  CHECK(chance_level("recall", {{"values", "4"}}) == 0.25);
  CHECK(std::isnan(chance_level("duplicate", {})));  // not a task
  TaskSummary t;
  t.min_len = 16;
  t.max_len = 64;
  CHECK(length_label(t, 0) == "train (16-64)");
  CHECK(length_label(t, 128) == "2x (128)");
  CHECK(length_label(t, 100) == "100");
  Stat one;
  one.add_all({0.25});
  CHECK(format_stat(one) == "0.250");
  CHECK(format_stat(Stat{}) == "-");
}

TEST_CASE("summary: a sweep of many lengths is shown as its ends and its mean", "[compare]") {
  // Two seeds of rope swept over 9 extrapolation lengths 64..72: seed 0 scores 0.5 + 0.01 k
  // at length 64 + k, seed 1 0.1 less; the means are 0.54 and 0.44.
  std::vector<RunRecord> runs = {run("rope", 0, {0.5, 1.0}, 0.5, 0.5, 1), run("rope", 1, {0.5, 1.0}, 0.4, 0.4, 1)};
  for (size_t s = 0; s < runs.size(); ++s) {
    runs[s].log.eval.erase(128);
    for (int k = 0; k < 9; ++k) runs[s].log.eval[64 + k] = {EvalPoint{100, 0.5 + 0.01 * k - 0.1 * static_cast<double>(s)}};
  }
  const std::vector<TaskSummary> tasks = summarize(runs);
  REQUIRE(tasks.size() == 1);
  const TaskSummary& t = tasks[0];
  CHECK(t.lengths.size() == 10);
  CHECK(t.shown() == std::vector<int64_t>{0, 64, 72, kMeanBeyond});
  const Stat& mean = t.rows.at(0).acc.at(kMeanBeyond);
  CHECK(mean.n == 2);
  CHECK(mean.max == Approx(0.54));
  CHECK(mean.min == Approx(0.44));
  CHECK(length_label(t, kMeanBeyond) == "mean 64-72 (9 lengths)");
  const auto table = task_table(t);
  CHECK(table[0] == std::vector<std::string>{"#", "encoding", "seeds learned", "acc mean 64-72 (9 lengths)", "acc 72",
                                             "acc 2x (64)", "acc train (8-32)", "first step >= 0.99", "wall s"});
  CHECK(table[1][3] == "0.490 [0.440, 0.540]");
  const Overview ov = overview(tasks);
  CHECK(ov.columns.size() == 4);
  CHECK(ov.columns.back().label == "order · mean 64-72 (9 lengths)");
  // Eight lengths are still one column each.
  for (RunRecord& r : runs) r.log.eval.erase(72);
  CHECK(summarize(runs)[0].shown().size() == 9);
}

TEST_CASE("summary: a setting's long list of lengths is written as ranges", "[compare]") {
  std::string sweep;
  for (int len = 41; len <= 500; ++len) {
    if (!sweep.empty()) sweep += ',';  // (one append at a time: GCC 12 warns -Wrestrict at "a" + b here)
    sweep += std::to_string(len);
  }
  CHECK(compact_setting(sweep) == "41:500:1");
  CHECK(compact_setting("64,128,192,256,300") == "64:256:64,300");
  CHECK(compact_setting("80,160") == "80,160");
  CHECK(compact_setting("5,1,2,3") == "5,1:3:1");
  CHECK(compact_setting("1,2,4,8,16") == "1,2,4,8,16");
  CHECK(compact_setting("rope,none") == "rope,none");
  CHECK(compact_setting("") == "");
  CHECK(compact_setting("0.5,1.5,2.5") == "0.5,1.5,2.5");
}

TEST_CASE("summary: a task whose lengths count input symbols says so", "[compare]") {
  std::vector<RunRecord> runs = {run("rope", 0, {0.5, 1.0}, 0.5, 0.5, 1)};
  const std::vector<TaskSummary> order = summarize(runs);
  CHECK(order.at(0).length_unit == "tokens");
  runs[0].task = "parity";
  const std::vector<TaskSummary> parity = summarize(runs);
  CHECK(parity.at(0).length_unit == "input symbols");
  CHECK(render_summary_markdown(parity, {}, "", {}).find("Lengths count input symbols, not tokens.") != std::string::npos);
  CHECK(render_summary_markdown(order, {}, "", {}).find("Lengths count") == std::string::npos);
  CHECK(order.at(0).distance_name == "distance");
  runs[0].task = "passkey";
  runs[0].settings["min-len"] = "16";  // passkey takes lengths from 12
  CHECK(summarize(runs).at(0).distance_name == "depth");  // its distance is the key's depth
}

TEST_CASE("summary: where a constant answer beats chance, findings and the overview measure from it", "[compare]") {
  // modular_arithmetic_brackets' answers are skewed to 0 (a product with a digit 0 is 0): the
  // share of the answer 0 in the evaluation sets (rebuilt from the settings, as the runs built
  // them) is above the chance level of 0.2.
  auto three = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return std::string(buf);
  };
  auto brackets = [](const std::string& enc, uint64_t seed, double train, double beyond) {
    RunRecord r = run(enc, seed, {0.2, train}, beyond, beyond, 1, true);
    r.task = "modular_arithmetic_brackets";
    r.settings = {{"min-len", "1"}, {"max-len", "40"}, {"eval-sequences", "32"}};
    r.log.eval.erase(64), r.log.eval.erase(128);
    r.log.eval[80] = {EvalPoint{100, beyond}};
    r.log.eval[160] = {EvalPoint{100, beyond}};
    return r;
  };
  const TaskSummary probe = summarize({brackets("none", 0, 0.2, 0.2)}).at(0);
  auto task = make_task(TaskConfig{.name = "modular_arithmetic_brackets", .min_len = 1, .max_len = 40});
  const TrainConfig defaults;
  const double floor = answer_share(make_eval_set(*task, defaults.eval_seed, 0, 128, 512), 0);
  const double at80 = answer_share(make_eval_set(*task, defaults.eval_seed, 80, 128, 32), 0);
  const double at160 = answer_share(make_eval_set(*task, defaults.eval_seed, 160, 128, 32), 0);
  INFO("the answer 0: training " << floor << ", 80 " << at80 << ", 160 " << at160);
  REQUIRE(floor > 0.25);
  CHECK(probe.commonest_answer == 0);
  CHECK(probe.skewed(0.02));
  CHECK(commonest_curve(probe, 0.02).size() == 3);  // training, 80, 160
  CHECK(probe.commonest.at(0) == floor);
  CHECK(probe.commonest.at(80) == at80);  // 32 sequences, as --eval-sequences says
  CHECK(probe.commonest.at(kMeanBeyond) == Approx((at80 + at160) / 2));
  CHECK(probe.floor_at(0, 0.02) == floor);
  CHECK(probe.floor_at(0, 1.0) == 0.2);  // within the margin: chance
  // Another --eval-seed gives other sets.
  RunRecord other = brackets("none", 0, 0.2, 0.2);
  other.settings["eval-seed"] = "7";
  CHECK(summarize({other}).at(0).commonest.at(0) != floor);
  // Runs scored on different sets have no common baseline; a setting this build does not
  // know does not take it away.
  RunRecord fewer = brackets("rope", 0, 0.2, 0.2);
  fewer.settings["eval-sequences"] = "16";
  CHECK(summarize({brackets("none", 0, 0.2, 0.2), fewer}).at(0).commonest.empty());
  RunRecord older = brackets("none", 0, 0.2, 0.2);
  older.settings["a-setting-of-another-version"] = "1";
  CHECK(summarize({older}).at(0).commonest.at(0) == floor);
  // Sets drawn per seed: one run's are its own; two seeds' differ, so no common baseline.
  auto own_sets = [&brackets](const std::string& enc, uint64_t seed) {
    RunRecord r = brackets(enc, seed, 0.2, 0.2);
    r.settings["eval-sets-per-seed"] = "true", r.settings["seed"] = std::to_string(seed);
    return r;
  };
  TrainConfig drawn;
  drawn.eval_sets_per_seed = true, drawn.seed = 3;
  CHECK(summarize({own_sets("none", 3)}).at(0).commonest.at(0) ==
        answer_share(make_eval_set(*task, drawn.held_out_seed(), 0, 128, 512), 0));
  CHECK(summarize({own_sets("none", 3)}).at(0).commonest.at(0) != floor);
  CHECK(summarize({own_sets("none", 3), own_sets("none", 4)}).at(0).commonest.empty());

  // none sits at the constant answer's share (above chance), rope 0.1 above it; beyond the
  // training lengths both give the constant answer.
  const double beyond = (at80 + at160) / 2;
  const std::vector<RunRecord> runs = {brackets("none", 0, floor, beyond), brackets("none", 1, floor + 0.01, beyond),
                                       brackets("rope", 0, floor + 0.1, beyond), brackets("rope", 1, floor + 0.1, beyond)};
  const std::vector<TaskSummary> tasks = summarize(runs);
  const auto notes = findings(tasks);
  INFO(joined(notes));
  CHECK(has(notes, "No better on the training lengths than always giving their commonest answer (" + three(floor) +
                       "; chance 0.200): none."));
  CHECK(has(notes, "Averaged over the 2 lengths 80-160, no better than always giving the training lengths' commonest "
                   "answer (" + three(beyond) + "; chance 0.200): rope and none."));
  CHECK_FALSE(has(notes, "At chance"));
  const std::string md = render_summary_markdown(tasks, notes, "", {});
  CHECK(md.find("## modular_arithmetic_brackets (chance 0.200; commonest answer " + three(floor) +
                " on the training lengths)") != std::string::npos);
  // The overview's score starts at the commonest answer's share, not at chance.
  const Overview ov = overview(tasks);
  REQUIRE(ov.columns.at(0).floor == floor);
  for (const OverviewRow& row : ov.rows)
    if (row.label == "none") CHECK(row.cells.at(0).score == Approx(0.005 / (1 - floor)));
  // The answer is picked on a set of its own, not on each set: even_pairs' answers are
  // balanced, and with one answer per sequence a set of 32 is skewed by its sample alone (its
  // own commonest answer averages 0.568 over 41-491), but the training lengths' commonest
  // answer scores about chance there.
  RunRecord pairs = brackets("none", 0, 0.5, 0.5);
  pairs.task = "even_pairs";
  for (int64_t len = 41; len <= 491; len += 10) pairs.log.eval[len] = {EvalPoint{100, 0.5}};
  const TaskSummary balanced = summarize({pairs}).at(0);
  INFO("even_pairs: mean share beyond the training lengths " << balanced.commonest.at(kMeanBeyond) << ", in the "
       "reference sample " << balanced.commonest_reference);
  CHECK(std::fabs(balanced.commonest.at(kMeanBeyond) - 0.5) < 0.03);
  // Its answers are not skewed, so nothing is measured from that share.
  CHECK_FALSE(balanced.skewed(0.02));
  CHECK(balanced.floor_at(kMeanBeyond, 0.02) == 0.5);
  CHECK(commonest_curve(balanced, 0.02).empty());
  // Skewed means above chance by the margin and by 4 standard errors of the sample's size.
  TaskSummary by_hand;
  by_hand.chance = 0.5;
  by_hand.commonest_reference = 0.53;
  by_hand.commonest_reference_scored = 512;  // 4 sqrt(0.25 / 512) = 0.088 > 0.03: noise
  CHECK_FALSE(by_hand.skewed(0.02));
  by_hand.commonest_reference_scored = 100000;  // 0.006 < 0.03
  CHECK(by_hand.skewed(0.02));
  CHECK_FALSE(by_hand.skewed(0.05));  // the margin, though
  // A swap-paired task's commonest answer has chance's share exactly: nothing of the kind is said.
  const auto order_notes = findings(summarize(fixture()));
  CHECK_FALSE(has(order_notes, "commonest"));
  CHECK(render_summary_markdown(summarize(fixture()), order_notes, "", {}).find("; commonest answer") == std::string::npos);
}

TEST_CASE("summary: learned k of n, and generalization over all runs and over the runs that learned", "[compare]") {
  // rope: seed 0 learns its training lengths (0.999) and holds 0.96 at 2x; seed 1 does not
  // (0.9) and scores 0.3 there. none: neither seed learns.
  const std::vector<RunRecord> runs = {
      run("rope", 0, {0.5, 0.999}, 0.96, 0.6, 10), run("rope", 1, {0.5, 0.9}, 0.3, 0.2, 10),
      run("none", 0, {0.5, 0.5}, 0.5, 0.5, 10, true), run("none", 1, {0.5, 0.51}, 0.5, 0.5, 10, true)};
  const std::vector<TaskSummary> tasks = summarize(runs);
  const EncodingSummary& rope = tasks[0].rows[0];
  CHECK(rope.seeds_learned == 1);
  CHECK(rope.acc.at(64).mean == Approx(0.63));
  CHECK(rope.acc_learned.at(64).n == 1);
  CHECK(rope.acc_learned.at(64).mean == Approx(0.96));
  CHECK(tasks[0].rows[1].seeds_learned == 0);
  CHECK(tasks[0].rows[1].acc_learned.empty());
  const std::string all = render_task_table(tasks[0]);
  INFO(all);
  CHECK(all.find("| rope | 1/2 | 0.400 [0.200, 0.600] | 0.630 [0.300, 0.960] | 0.950 [0.900, 0.999] |") !=
        std::string::npos);
  const std::string learned = render_task_table(tasks[0], true);
  INFO(learned);
  CHECK(learned.find("| # | encoding | seeds learned | acc 4x (128) | acc 2x (64) | acc train (8-32) |\n") == 0);
  CHECK(learned.find("| rope | 1/2 | 0.600 | 0.960 | 0.999 |\n") != std::string::npos);
  CHECK(learned.find("| none | 0/2 | - | - | - |\n") != std::string::npos);
  const std::string md = render_summary_markdown(tasks, findings(tasks));
  CHECK(md.find("Over the runs that learned the training lengths (1 of 4; \"-\": no seed of the cell did):\n\n| # |") !=
        std::string::npos);
  // Every run learned: no second table.
  const std::vector<RunRecord> learned_all = {run("rope", 0, {0.5, 0.999}, 0.96, 0.6, 10)};
  CHECK(render_summary_markdown(summarize(learned_all), {}).find("Over the runs that learned") == std::string::npos);
}

TEST_CASE("summary: the top two at the longest length are ranked only by a permutation test", "[compare][statistics]") {
  // Two seeds each: no permutation test of 2 vs 2 reaches p < 0.05 (smallest p 2/6).
  const auto two = findings(summarize(fixture()));
  INFO(joined(two));
  CHECK(has(two, "order: At 4x (128), over the runs that learned the training lengths: alibi (0.940) and rope "
                 "(0.610) are not ranked: with 2 vs 2 runs no permutation test reaches p < 0.05 (its smallest p is "
                 "0.333); difference 0.330 [0.310, 0.350]."));
  // Five seeds each, apart: the exact test's smallest p, 2/252.
  std::vector<RunRecord> runs;
  for (uint64_t s = 0; s < 5; ++s) {
    runs.push_back(run("alibi", s, {0.5, 1.0}, 0.97, 0.90 + 0.01 * static_cast<double>(s), 10));
    runs.push_back(run("rope", s, {0.5, 1.0}, 0.97, 0.60 + 0.01 * static_cast<double>(s), 10));
    runs.push_back(run("t5", s, {0.5, 0.6}, 0.97, 0.99, 10));  // never learned: not compared, however high
  }
  auto notes = findings(summarize(runs));
  INFO(joined(notes));
  CHECK(has(notes, "order: At 4x (128), over the runs that learned the training lengths: alibi beats rope by 0.300 ["));
  CHECK(has(notes, "] (95% bootstrap interval), permutation test p = 0.008, 5 vs 5 runs."));
  // Fastest, against the next fastest on the seeds' first steps: 100 in every seed against 200.
  runs.clear();
  for (uint64_t s = 0; s < 5; ++s) {
    runs.push_back(run("alibi", s, {0.5, 1.0, 1.0}, 0.97, 0.9, 10));
    runs.push_back(run("rope", s, {0.5, 0.6, 1.0}, 0.97, 0.9, 10));
  }
  notes = findings(summarize(runs));
  INFO(joined(notes));
  CHECK(has(notes, "order: Fastest to 0.99: alibi (step 100, mean of 5 seeds); ahead of the next, rope (step 200), by a "
                   "permutation test, p = 0.008, 5 vs 5 runs."));
  // Overlapping: p = 1 for the same values in another order.
  runs.clear();
  for (uint64_t s = 0; s < 5; ++s) {
    runs.push_back(run("alibi", s, {0.5, 1.0}, 0.97, 0.60 + 0.01 * static_cast<double>(s), 10));
    runs.push_back(run("rope", s, {0.5, 1.0}, 0.97, 0.64 - 0.01 * static_cast<double>(s), 10));
  }
  notes = findings(summarize(runs));
  INFO(joined(notes));
  CHECK(has(notes, "alibi (0.620) and rope (0.620) cannot be told apart: difference 0.000 ["));
  CHECK(has(notes, "permutation test p = 1.000, 5 vs 5 runs."));
}
