// data/shift.cpp: the `shift` task generator (see data/shift.h).
#include "data/shift.h"

#include "core/rng.h"

namespace ordo {

ShiftTask::ShiftTask(const TaskConfig& config) : Task(config) {
  config_ = resolve_range(config_, kDefaultMinLen, kDefaultMaxLen);
  k_ = config_.options.integer("k");
  ORDO_CHECK(k_ >= 0, "shift: k must be >= 0, got ", k_);
  ORDO_CHECK(config_.min_len > k_, "shift: min_len ", config_.min_len, " must be > k = ", k_,
             " (a sequence needs at least one scored position)");
}

Example ShiftTask::example(uint64_t seed, uint64_t index, int64_t length) const {
  check_length(length);
  CounterRng rng(seed, data_stream("shift/example", index));
  const int64_t k = k_;
  Example e;
  e.tokens.resize(length);
  e.targets.assign(length, 0);
  e.scored.assign(length, 0);
  for (int64_t t = 0; t < length; ++t) {
    const int32_t bit = static_cast<int32_t>(rng.next_u32() >> 31);
    e.tokens[t] = bit == 0 ? kBit0 : kBit1;
    if (t + k < length) {  // this bit is the target k positions later
      e.targets[t + k] = bit;
      e.scored[t + k] = 1;
    }
  }
  return e;
}

TaskInfo task_info_shift() {
  return {
      .name = "shift",
      .summary = "output the input delayed by k (token head)",
      .default_min_len = ShiftTask::kDefaultMinLen,
      .default_max_len = ShiftTask::kDefaultMaxLen,
      .options = {{"k", OptionType::Int, "10", "the shift"}},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<ShiftTask>(c); },
      .demo_steps = 600,  // the budget; learned and rope solve it by then, sinusoidal and t5 later (docs/results.md)
      .benchmark_task = true,  // fixed-length token batches: every position costs the same
      .in_default_study = true,
  };
}

}  // namespace ordo
