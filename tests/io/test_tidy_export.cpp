// tests/io/test_tidy_export.cpp: the tidy table of io/tidy_export.h, read back field by field.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/tidy_export.h"

#include "tests/temp_dir.h"

using namespace ordo;
using ordo::testing::TempDir;

namespace {

RunRecord sample_run(const std::string& encoding, const std::string& lr, bool stopped) {
  RunRecord r;
  r.task = "order";
  r.encoding = encoding;
  r.seed = 3;
  r.settings = {{"lr", lr}, {"d-model", "64"}, {"eval-lens", "64,128"}, {"causal", "true"}, {"encoding", encoding},
                {"optimizer", "adamw"}};
  for (int64_t s = 1; s <= 4; ++s) {
    r.log.step.push_back(s);
    r.log.train_loss.push_back(1.0 / static_cast<double>(s) + 0.1);  // 1.1, 0.6, 0.43333.., 0.35
    r.log.lr.push_back(1e-3);
    r.log.wall_time.push_back(0.5 * static_cast<double>(s));
  }
  r.log.eval[0] = {{2, 0.75, 0.5, 0.4}, {4, 1.0, 1.0, 0.01}};
  r.log.eval[0][0].acc_by_distance = {std::nan(""), 0.5};
  r.log.eval[0][1].acc_by_distance = {std::nan(""), 1.0};
  r.log.eval[128] = {{4, 0.625}};  // exact and loss NaN
  r.log.total_wall_seconds = 2.5;
  if (stopped) r.log.stop_reason = "learned", r.log.stop_step = 4;
  return r;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// RFC 4180 fields of one line (no newline inside fields here).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
    else if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream s(text);
  for (std::string line; std::getline(s, line);) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("tidy export: one row per step or evaluation and metric, settings that differ as columns", "[io][export]") {
  TempDir dir;
  const std::vector<RunRecord> runs = {sample_run("rope", "0.001", true), sample_run("alibi", "3e-4", false)};
  const TidyExport t = write_tidy_export(runs, dir.file("tidy.csv"), dir.file("tidy.jsonl"));
  // Per run: 4 steps x 3 metrics; train set 2 evaluations x (3 + 2 distances); 128 one x 3.
  const int64_t per_run = 12 + 2 * 5 + 3;
  REQUIRE(t.rows == 2 * per_run);
  // lr differs, the rest is shared; encoding is an identity column already.
  const std::vector<std::string> want = {"task", "encoding", "variant", "seed", "lr", "stop_reason", "stop_step",
                                         "wall_seconds", "kind", "eval_set", "step", "metric", "distance", "value"};
  REQUIRE(t.columns == want);

  const std::vector<std::string> csv = lines_of(read_file(dir.file("tidy.csv")));
  REQUIRE(static_cast<int64_t>(csv.size()) == 1 + t.rows);
  REQUIRE(csv_fields(csv[0]) == want);
  for (const std::string& line : csv) REQUIRE(csv_fields(line).size() == want.size());
  // The first row: rope's step 1 train_loss 1.1, the run's outcome beside it.
  CHECK(csv[1] == "order,rope,,3,0.001,learned,4,2.5,train,,1,train_loss,,1.1");
  // Shortest round-trip form: 1/3 + 0.1 reads back to the same double.
  const std::vector<std::string> third = csv_fields(csv[7]);
  REQUIRE(third[11] == "train_loss");
  CHECK(std::stod(third[13]) == 1.0 / 3.0 + 0.1);
  // NaN is an empty field: the distance-0 accuracy and the 128 set's exact match.
  bool saw_distance = false, saw_nan_exact = false;
  for (const std::string& line : csv) {
    const std::vector<std::string> f = csv_fields(line);
    if (f[11] == "acc_by_distance" && f[12] == "0") {
      saw_distance = true;
      CHECK(f[13].empty());
    }
    if (f[9] == "128" && f[11] == "exact") {
      saw_nan_exact = true;
      CHECK(f[13].empty());
    }
    if (f[1] == "alibi") CHECK((f[5].empty() && f[6].empty()));  // not stopped early
  }
  CHECK((saw_distance && saw_nan_exact));

  const std::vector<std::string> json = lines_of(read_file(dir.file("tidy.jsonl")));
  REQUIRE(static_cast<int64_t>(json.size()) == t.rows);
  CHECK(json[0] ==
        "{\"task\":\"order\",\"encoding\":\"rope\",\"variant\":\"\",\"seed\":3,\"lr\":0.001,\"stop_reason\":\"learned\","
        "\"stop_step\":4,\"wall_seconds\":2.5,\"kind\":\"train\",\"eval_set\":\"\",\"step\":1,\"metric\":\"train_loss\","
        "\"distance\":null,\"value\":1.1}");
  CHECK(json.back().find("\"stop_reason\":\"\",\"stop_step\":null") != std::string::npos);
  CHECK(json.back().find("\"lr\":3e-4") != std::string::npos);
}

TEST_CASE("tidy export: every setting with all_settings, typed in JSON, quoted in CSV", "[io][export]") {
  TempDir dir;
  RunRecord r = sample_run("rope", "0.001", false);
  r.settings["note"] = "say \"hi\", then\tgo";
  r.settings["lead"] = "0123";  // not a JSON number: stays a string
  const TidyExport t = write_tidy_export({r}, dir.file("t.csv"), dir.file("t.jsonl"), true);
  const std::vector<std::string> want_settings = {"causal", "d-model", "eval-lens", "lead", "lr", "note", "optimizer"};
  REQUIRE(std::vector<std::string>(t.columns.begin() + 4, t.columns.begin() + 11) == want_settings);
  const std::string csv = read_file(dir.file("t.csv"));
  CHECK(csv.find("order,rope,,3,true,64,\"64,128\",0123,0.001,\"say \"\"hi\"\", then\tgo\",adamw,") != std::string::npos);
  const std::string json = lines_of(read_file(dir.file("t.jsonl")))[0];
  CHECK(json.find("\"causal\":true,\"d-model\":64,\"eval-lens\":\"64,128\",\"lead\":\"0123\",\"lr\":0.001,"
                  "\"note\":\"say \\\"hi\\\", then\\tgo\",\"optimizer\":\"adamw\"") != std::string::npos);
}

TEST_CASE("tidy export: one format alone, and nothing written where the directory is missing", "[io][export]") {
  TempDir dir;
  write_tidy_export({sample_run("rope", "0.001", false)}, dir.file("only.csv"), "");
  CHECK(std::filesystem::exists(dir.file("only.csv")));
  CHECK_FALSE(std::filesystem::exists(dir.file("only.jsonl")));
  REQUIRE_THROWS(write_tidy_export({sample_run("rope", "0.001", false)}, dir.file("missing/t.csv"), ""));
  CHECK_FALSE(std::filesystem::exists(dir.file("missing")));
}
