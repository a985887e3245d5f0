// io/results.h: the results file of an experiment (docs/spec.md §7).
//
// One HDF5 file per experiment (run.h5 for `ordo train`, results.h5 for `ordo compare`):
//   /                            attributes: format = "ordo-results", format_version = 1,
//                                ordo_version, and every shared setting as a string
//   /runs/<task>/<encoding>/seed<k>/   one run: the run-log layout of io/run_log_file.h, and
//                                      its own settings as string attributes (setting.<name>)
// Written atomically (a temporary file renamed over the old one).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "train/run_log.h"

namespace ordo {

struct RunRecord {
  std::string task, encoding;
  uint64_t seed = 0;
  RunLog log;
  std::map<std::string, std::string> settings;
  std::string variant = {};  // the varied settings of a swept study ("causal=true,layers=2"), "" otherwise
};

// How tables, findings and plots name a run's cell: "rope", or "rope (causal=true)".
std::string run_label(const std::string& encoding, const std::string& variant);

// "/runs/<task>/<encoding>/seed<k>", or with a variant "/runs/<task>/<encoding>/<variant>/seed<k>"
std::string run_group_path(const std::string& task, const std::string& encoding, uint64_t seed,
                           const std::string& variant = "");

void write_results(const std::string& path, const std::vector<RunRecord>& runs,
                   const std::map<std::string, std::string>& shared_settings);
// Every run in the file, in task / encoding / seed order as stored. Throws ordo::Error naming
// the file when it is not an ordo results file or has a format_version this build cannot read.
std::vector<RunRecord> read_results(const std::string& path);
// The file's root attributes (the study's shared settings, format, ordo_version), as strings.
std::map<std::string, std::string> read_results_attributes(const std::string& path);
constexpr int64_t kResultsFormatVersion = 1;

}  // namespace ordo
