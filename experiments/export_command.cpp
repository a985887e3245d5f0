// experiments/export_command.cpp: `ordo export DIR`, a study's (or one run's) curves as one
// tidy table, DIR/tidy.csv and DIR/tidy.jsonl (io/tidy_export.h; docs/outputs.md, "Export").
#include <cstdio>

#include "experiments/cli.h"
#include "experiments/commands.h"
#include "experiments/results_dir.h"
#include "io/tidy_export.h"

namespace ordo {
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
  std::string dir;
  DirectoryResults in;
  bool csv = false, jsonl = false;
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
    in = read_directory_results("ordo export", dir, true);
  } catch (const Error& e) {
    throw InputError(e.what());
  }
  const std::string csv_path = csv ? dir + "/tidy.csv" : "", jsonl_path = jsonl ? dir + "/tidy.jsonl" : "";
  const TidyExport t = write_tidy_export(in.runs, csv_path, jsonl_path, p.option("all-settings") == "true");
  if (p.option("quiet") != "true") {
    std::printf("ordo export: %zu run(s) from %s, %lld rows of %zu columns\n", in.runs.size(), in.file.c_str(),
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
