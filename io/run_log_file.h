// io/run_log_file.h: a run's training curve (train/run_log.h) in HDF5 (docs/spec.md §7).
//
// Layout inside the run's group (e.g. /runs/<encoding>/seed<k>/), all datasets 1-D:
//   step        int64    (n)  training step of each logged entry
//   train_loss  float64  (n)  training loss at that step
//   lr          float64  (n)  learning rate used at that step
//   wall_time   float64  (n)  seconds since the start of the run
//   eval/<len>/step   int64    (m)  steps at which the evaluation set of length <len> was scored
//   eval/<len>/acc    float64  (m)  token accuracy over scored positions
//   eval/<len>/exact  float64  (m)  exact-match rate (whole sequence right); NaN where undefined
//   eval/<len>/loss   float64  (m)  evaluation loss; NaN where not computed
//   eval/<len>/acc_by_distance    float64 (m, D)  accuracy among the sequences at distance d
//                                 (column d; NaN where none), tasks that record a distance;
//                                 D = the set's longest length (every distance it allows)
//   eval/<len>/count_by_distance  int64   (D)     scored rows at distance d (the sets are fixed)
//   attribute wall_seconds  float64  total wall time of the run
//   attribute machines      string   where its steps were taken, one line per machine
//                                    (RunLog::machines); absent in files from before
// <len> is the literal "train" for the training length range (RunLog::eval key 0) and the
// decimal sequence length otherwise: eval/train/acc, eval/128/acc, eval/1024/acc.
// Every eval/<len> group is written, in increasing length with "train" first.
//
// Reading back (h5py):  f["runs/rope/seed0/eval/128/acc"][:]
#pragma once

#include <cstdint>
#include <string>

#include "io/hdf5.h"
#include "train/run_log.h"

namespace ordo {

// The group name of an evaluation length: "train" for 0, else the number ("128").
std::string eval_group_name(int64_t length);
// The inverse; throws naming `name` when it is neither "train" nor a positive integer.
int64_t eval_group_length(const std::string& name);

// Writes `log` into `group`, replacing any run log already there (a run rewrites its log as
// it goes). Throws if the per-step vectors differ in length.
void write_run_log(h5::Group& group, const RunLog& log);
// Reads a run log written by write_run_log (or another tool following the layout above;
// eval/<len>/exact and loss are optional there and read as NaN when absent).
RunLog read_run_log(const h5::Group& group);
// A --until-learned run's stop_reason and stop_step attributes of `group`, if it has them,
// into `log` (whose steps are read): throws naming the file and group when the reason is
// not one of train/stopping.h's or the step is not the log's last.
void read_stop(const h5::Group& group, RunLog& log);
// log.machines as the attribute `machines` of `group` (one line each; removed when there are
// none), and back (none where the attribute is absent: a file from before ordo kept them).
void write_machines(h5::Group& group, const RunLog& log);
void read_machines(const h5::Group& group, RunLog& log);

}  // namespace ordo
