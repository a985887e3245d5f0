// train/stopping.h: when a run that trains until it has learned stops (--until-learned,
// docs/spec.md §5.5).
//
// The decision is a pure function of the settings and the run's log (its training-range
// evaluations), so a resumed run decides as one that never stopped, and a run stopped at step
// s has the bits, up to s, of the same run with a fixed --steps (the schedule spans --steps,
// the maximum, either way).
#pragma once

#include <cstdint>
#include <string>

#include "train/config.h"
#include "train/run_log.h"

namespace ordo {

enum class Stop {
  go,           // keep training
  learned,      // training-range accuracy >= --learned-at at --learned-evals evaluations in a row
  no_progress,  // no progress on the training range for --patience steps
  max_steps,    // trained to --steps (the maximum) without either
};

// At least this much above every earlier training-range accuracy, or this share below every
// earlier training-range loss, is progress (docs/spec.md §5.5).
constexpr double kProgressAccuracy = 1e-3;
constexpr double kProgressLoss = 0.01;

// The decision after `step` steps, from the evaluations log holds up to then; go unless
// cfg.until_learned. Decided only at an evaluation of the training range (and at the last step).
Stop stop_decision(const TrainConfig& cfg, const RunLog& log, int64_t step);

// "learned", "no-progress", "max-steps" (as stored in run logs); "" for go.
const char* stop_name(Stop stop);
Stop parse_stop(const std::string& name);  // throws ordo::Error on an unknown name

// The step a run's training ends at: where it stopped (log.stop_step), else cfg.steps.
int64_t last_step(const TrainConfig& cfg, const RunLog& log);

}  // namespace ordo
