// io/results.h: the results file of an experiment (docs/spec.md §7; docs/outputs.md shows it
// with an h5py example).
//
// One HDF5 file per experiment (run.h5 for `ordo train`, results.h5 for `ordo compare`),
// format_version 2:
//   /                  attributes: format = "ordo-results", format_version = 2, ordo_version,
//                      the study's shared settings (<name>), and setting.<name> for every run
//                      setting all the runs share (stored once, not per run)
//   /runs/<task>/<encoding>/[<variant>/]seed<k>/   one run:
//       attributes  setting.<name> (the run's settings the others do not share), wall_seconds,
//                   log_every (steps per logged entry), stop_reason and stop_step
//                   (--until-learned runs), machines (where the steps were taken, one line per
//                   machine, RunLog::machines; absent in files from before)
//       step (n) int64, train_loss, train_loss_min, train_loss_max, lr, wall_time (n) float32:
//                   the per-step log thinned to at most kLogEntries entries of log_every steps
//                   each (mean, minimum and maximum of the loss; lr and time at the entry's
//                   last step); train_loss_min/max are absent when log_every is 1
//       eval/length, eval/step (P) int64, eval/acc, eval/exact, eval/loss (P) float64: every
//                   evaluation, whole: one row per (length, step), length 0 = training range
//       by_distance/<len>/acc (m, D) float64, by_distance/<len>/count (D) int64: accuracy by
//                   distance at each of the m evaluations of <len> ("train" for 0), tasks
//                   that record one
// Format 1 (a group per evaluation length, every step logged, every setting on every run)
// still reads. Written atomically (a temporary file renamed over the old one).
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
  std::map<std::string, std::string> settings{};
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
constexpr int64_t kResultsFormatVersion = 2;
// The most per-step entries a run keeps in a results file (TensorBoard and W&B likewise
// downsample long series for plotting).
constexpr int64_t kLogEntries = 500;

// The log as a results file keeps it: entries of `every` consecutive steps ((k-1)*every, k*every]
// merged into one (mean, minimum and maximum loss; the last step's lr and wall time); the
// evaluations untouched. every <= 1, or a log already thinned, is returned as it is.
RunLog thin_run_log(const RunLog& log, int64_t every);
// Steps per entry for a run planned to take `steps` steps: ceil(steps / kLogEntries), so that
// every seed of a cell (same --steps, even those that stop early) is thinned alike.
int64_t log_every_for(int64_t steps);

}  // namespace ordo
