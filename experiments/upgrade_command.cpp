// experiments/upgrade_command.cpp: `ordo upgrade DIR`, a results file of an older format
// rewritten in the current one (io/results.h): the compact format 2 keeps a thinned per-step
// log, so a study's file shrinks while its evaluations stay whole.
#include <cstdio>
#include <filesystem>

#include "experiments/cli.h"
#include "experiments/commands.h"
#include "experiments/results_dir.h"
#include "io/results.h"

namespace ordo {

namespace {

const std::vector<cli::Option>& upgrade_options() {
  static const std::vector<cli::Option> opts = {
      {"quiet", "print nothing but errors", "", true},
  };
  return opts;
}

int cmd_upgrade(const Args& args) {
  cli::Parsed p;
  DirectoryResults in;
  try {
    p = cli::parse(args, upgrade_options(), false, 1, "ordo upgrade");
    if (p.help) {
      std::printf("%s", cli::help_text("ordo upgrade DIR",
                                       "Rewrites DIR/results.h5 (or DIR/run.h5) in the current results format "
                                       "(format_version " + std::to_string(kResultsFormatVersion) +
                                           "): every evaluation kept whole, the per-step log thinned to at most " +
                                           std::to_string(kLogEntries) + " entries a run. Then `ordo report DIR` "
                                           "redraws from it.",
                                       upgrade_options(), false).c_str());
      return 0;
    }
    ORDO_CHECK(!p.positional.empty(), "name the directory: ordo upgrade DIR (the --out of ordo compare or ordo train)");
    in = read_directory_results("ordo upgrade", p.positional[0], false);
  } catch (const Error& e) {
    throw InputError(e.what());
  }
  std::map<std::string, std::string>& attributes = in.attributes;
  const std::string from = attributes["format_version"], by = attributes["ordo_version"];
  for (const char* written : {"format", "format_version", "ordo_version"}) attributes.erase(written);
  if (!attributes.count("rewritten_from"))  // an upgraded file upgraded again keeps its origin
    attributes["rewritten_from"] = "format_version " + from + " written by ordo " + (by.empty() ? "(unknown)" : by);
  const auto before = std::filesystem::file_size(in.file);
  write_results(in.file, in.runs, attributes);
  const auto after = std::filesystem::file_size(in.file);
  if (p.option("quiet") != "true")
    std::printf("ordo upgrade: %s: %zu run(s), format_version %s -> %lld, %.1f MB -> %.1f MB\n", in.file.c_str(),
                in.runs.size(), from.c_str(), static_cast<long long>(kResultsFormatVersion), before / 1e6, after / 1e6);
  return 0;
}

}  // namespace

CommandInfo command_info_upgrade() {
  return {"upgrade", "rewrite a study's results.h5 in the current, compact format", cmd_upgrade};
}

}  // namespace ordo
