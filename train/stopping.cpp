#include "train/stopping.h"

#include <cmath>

#include "core/error.h"

namespace ordo {
namespace {

// How many of the latest training-range evaluations, counted back from the last, reached
// the threshold; the untrained baseline (step 0) is not one.
int trailing_learned(const std::vector<EvalPoint>& points, double threshold) {
  int n = 0;
  for (auto p = points.rbegin(); p != points.rend() && p->step > 0 && p->acc >= threshold; ++p) ++n;
  return n;
}

// The step of the latest evaluation that made progress: an accuracy above every earlier one
// by kProgressAccuracy, or a loss below every earlier one by the share kProgressLoss. The
// first evaluation (the baseline) is progress by definition. NaN is never progress.
int64_t last_progress_step(const std::vector<EvalPoint>& points) {
  int64_t at = 0;
  double best_acc = -INFINITY, best_loss = INFINITY;
  for (size_t i = 0; i < points.size(); ++i) {
    const EvalPoint& p = points[i];
    const bool better = i == 0 || p.acc >= best_acc + kProgressAccuracy || p.loss <= best_loss * (1 - kProgressLoss);
    if (better) at = p.step;
    if (p.acc > best_acc) best_acc = p.acc;
    if (p.loss < best_loss) best_loss = p.loss;
  }
  return at;
}

}  // namespace

Stop stop_decision(const TrainConfig& cfg, const RunLog& log, int64_t step) {
  if (!cfg.until_learned) return Stop::go;
  const auto train = log.eval.find(0);
  const bool evaluated = train != log.eval.end() && !train->second.empty() && train->second.back().step == step;
  if (evaluated) {
    const std::vector<EvalPoint>& points = train->second;
    if (trailing_learned(points, cfg.learned_at) >= cfg.learned_evals) return Stop::learned;
    if (cfg.patience > 0 && step - last_progress_step(points) >= cfg.patience) return Stop::no_progress;
  }
  return step >= cfg.steps ? Stop::max_steps : Stop::go;
}

const char* stop_name(Stop stop) {
  switch (stop) {
    case Stop::go: return "";
    case Stop::learned: return "learned";
    case Stop::no_progress: return "no-progress";
    case Stop::max_steps: return "max-steps";
  }
  return "";
}

Stop parse_stop(const std::string& name) {
  for (Stop s : {Stop::learned, Stop::no_progress, Stop::max_steps})
    if (name == stop_name(s)) return s;
  fail("unknown stop reason '", name, "'; accepted: learned, no-progress, max-steps");
}

int64_t last_step(const TrainConfig& cfg, const RunLog& log) { return log.stop_step > 0 ? log.stop_step : cfg.steps; }

}  // namespace ordo
