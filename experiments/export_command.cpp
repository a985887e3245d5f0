// experiments/export_command.cpp: `ordo export DIR`, a study's (or one run's) curves as one
// tidy table, DIR/tidy.csv and DIR/tidy.jsonl (io/tidy_export.h; docs/outputs.md, "Export").
#include <cstdio>
#include <filesystem>

#include "experiments/cli.h"
#include "experiments/commands.h"
#include "io/results.h"
#include "io/tidy_export.h"
#include "study/output_lock.h"

namespace ordo {
namespace fs = std::filesystem;

namespace {

const std::vector<cli::Option>& export_options() {
  static const std::vector<cli::Option> opts = {
      {"format", "what to write: csv, jsonl or csv,jsonl", "csv,jsonl", false},
      {"all-settings", "every setting a column, not only those that differ between the runs", "", true},
      {"quiet", "print nothing but errors", "", true},
  };
  return opts;
}

int cmd_export(const Args& args) {
  cli::Parsed p;
  std::string dir, results;
  std::vector<RunRecord> runs;
  bool csv = false, jsonl = false;
  OutputLock lock;
  try {
    p = cli::parse(args, export_options(), false, 1, "ordo export");
    if (p.help) {
      std::printf("%s", cli::help_text("ordo export DIR",
                                       "Writes the curves of every run in DIR/results.h5 (ordo compare) or "
                                       "DIR/run.h5 (ordo train) as one tidy table: DIR/tidy.csv and DIR/tidy.jsonl, "
                                       "one row per run, step or evaluation, and metric, with the run's settings as "
                                       "columns. pandas: pd.read_csv(\"DIR/tidy.csv\").",
                                       export_options(), false).c_str());
      return 0;
    }
    ORDO_CHECK(!p.positional.empty(), "name the directory: ordo export DIR (the --out of ordo compare or ordo train)");
    const std::string& format = p.option("format");
    ORDO_CHECK(format == "csv" || format == "jsonl" || format == "csv,jsonl" || format == "jsonl,csv",
               "ordo export: unknown --format '", format, "'; accepted: csv, jsonl, csv,jsonl");
    csv = format.find("csv") != std::string::npos;
    jsonl = format.find("jsonl") != std::string::npos;
    dir = p.positional[0];
    std::error_code ec;
    ORDO_CHECK(fs::is_directory(dir, ec), "ordo export: ", dir, " is not a directory (give the --out of ordo compare "
                                          "or ordo train)");
    for (const char* name : {"results.h5", "run.h5"})
      if (results.empty() && fs::is_regular_file(dir + "/" + name, ec)) results = dir + "/" + name;
    ORDO_CHECK(!results.empty(), "ordo export: neither ", dir, "/results.h5 nor ", dir, "/run.h5 found: DIR must hold "
                                 "the file that ordo compare or ordo train wrote");
    lock = OutputLock(dir);  // a study still writing there is refused, naming it
    try {
      runs = read_results(results);
    } catch (const Error& e) {
      fail("ordo export: cannot read ", results, ": ", e.what());
    }
    ORDO_CHECK(!runs.empty(), "ordo export: ", results, " holds no runs");
  } catch (const Error& e) {
    throw InputError(e.what());
  }
  const std::string csv_path = csv ? dir + "/tidy.csv" : "", jsonl_path = jsonl ? dir + "/tidy.jsonl" : "";
  const TidyExport t = write_tidy_export(runs, csv_path, jsonl_path, p.option("all-settings") == "true");
  if (p.option("quiet") != "true") {
    std::printf("ordo export: %zu run(s) from %s, %lld rows of %zu columns\n", runs.size(), results.c_str(),
                static_cast<long long>(t.rows), t.columns.size());
    if (csv) std::printf("  %s   pandas: pd.read_csv(\"%s\")\n", csv_path.c_str(), csv_path.c_str());
    if (jsonl) std::printf("  %s   pandas: pd.read_json(\"%s\", lines=True)\n", jsonl_path.c_str(), jsonl_path.c_str());
  }
  return 0;
}

}  // namespace

CommandInfo command_info_export() {
  return {"export", "a study's curves as one tidy table (CSV, JSON Lines) for pandas, polars or R", cmd_export};
}

}  // namespace ordo
