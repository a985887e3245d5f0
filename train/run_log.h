// train/run_log.h: the per-run training curve a Trainer records (docs/spec.md §7).
//
// io/run_log_file.h writes it to HDF5 and reads it back (the layout is described there).
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace ordo {

// More extrapolation lengths than this are a sweep (--eval-lens-final 41:500:1): one-line
// summaries, tables and the overview show their mean and both ends, not each length.
constexpr size_t kSweepLengths = 8;

struct EvalPoint {
  int64_t step = 0;
  double acc = std::numeric_limits<double>::quiet_NaN();
  double exact = std::numeric_limits<double>::quiet_NaN();  // exact-match where defined
  double loss = std::numeric_limits<double>::quiet_NaN();
  // Tasks that record a distance (`order`, `recall`; docs/spec.md §3.9): accuracy and scored
  // rows by distance, index = distance; empty otherwise.
  std::vector<double> acc_by_distance{};
  std::vector<int64_t> count_by_distance{};
};

struct RunLog {
  std::vector<int64_t> step;                            // one entry per logged step
  std::vector<double> train_loss, lr, wall_time;        // same length as step
  // A thinned log (what a results file keeps, io/results.h): entry i stands for the steps
  // after step[i-1] up to step[i]; train_loss is their mean and these their extremes, lr and
  // wall_time those of step[i]. Empty where every step is logged (a trainer, a checkpoint).
  std::vector<double> train_loss_min{}, train_loss_max{};
  std::map<int64_t, std::vector<EvalPoint>> eval;       // eval length (0 = training range) -> curve
  double total_wall_seconds = 0;
  // A --until-learned run (train/stopping.h): why and after which step its training stopped
  // ("learned", "no-progress", "max-steps"); "" and 0 for a run of a fixed --steps, and for a
  // run still training.
  std::string stop_reason;
  int64_t stop_step = 0;
  // Where the steps were taken (core/machine.h), one entry per stretch on one machine, in
  // order: "from step 0: <machine>", and "from step 4722: <machine>" when a resume on another
  // machine continued it. Bits are the same only on one CPU type (docs/spec.md §9). A run
  // from before ordo kept this (an old checkpoint resumed) starts at its first resumed step.
  std::vector<std::string> machines{};
};

// "acc 0.998 @64 0.951 @128 0.602": the latest accuracy of each evaluation length; for a
// sweep, "acc 0.998 @41..500 mean 0.713 over 460 lengths (@41 0.990, @500 0.402)".
std::string eval_summary(const RunLog& log);

// The machine of one RunLog::machines entry: "<machine>" of "from step <n>: <machine>" (the
// entry whole if it has no such prefix).
std::string machine_of(const std::string& entry);

}  // namespace ordo
