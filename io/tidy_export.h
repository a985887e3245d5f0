// io/tidy_export.h: a study's runs as one tidy table, CSV and JSON Lines (docs/spec.md §7.8,
// docs/outputs.md, "Export"), for pandas, polars, R or a tracker without the HDF5 layout.
//
// One row per (run, logged step or evaluation, metric), and for accuracy by distance one per
// distance too. Columns, in this order:
//   task, encoding, variant, seed      the run ("" variant outside a sweep)
//   <setting>...                       the run's settings by name (d-model, lr, ...): those
//                                      that differ between the runs exported, or every one
//   stop_reason, stop_step             a --until-learned run's outcome ("" and empty otherwise)
//   wall_seconds                       the run's wall time
//   kind                               train (the per-step log) or eval
//   eval_set                           "" for kind train; "train" (the training length range)
//                                      or the evaluation length ("128"), as in results.h5
//   step                               the training step
//   metric                             train_loss, lr, wall_time (kind train; a results
//                                      file's entry of several steps, io/results.h, adds
//                                      train_loss_min and train_loss_max and its train_loss
//                                      is their mean); acc, exact, loss, acc_by_distance
//                                      (kind eval)
//   distance                           acc_by_distance's distance, empty otherwise
//   value                              the number; empty (CSV) or null (JSON) where NaN
// Numbers are written in the shortest form that reads back to the same double. In JSON a
// setting is a number or a boolean where its text is one, a string otherwise.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/results.h"

namespace ordo {

struct TidyExport {
  std::vector<std::string> columns;
  int64_t rows = 0;
};

// Writes the tidy table of `runs` to `csv_path` and to `jsonl_path` (either may be "": not
// written), each atomically (io/atomic_file.h). all_settings: every setting a column, not
// only those that differ between the runs. Throws, writing nothing, on an I/O error.
TidyExport write_tidy_export(const std::vector<RunRecord>& runs, const std::string& csv_path,
                             const std::string& jsonl_path, bool all_settings = false);

}  // namespace ordo
