// data/shift.cpp: the `shift` task generator (see data/shift.h).
#include "data/shift.h"

#include "core/rng.h"

namespace ordo {

ShiftTask::ShiftTask(const TaskConfig& config) : Task(config) {
  config_ = resolve_range(config_, kDefaultMinLen, kDefaultMaxLen);
  const TaskConfig& c = config_;
  ORDO_CHECK(c.k >= 0, "shift: k must be >= 0, got ", c.k);
  ORDO_CHECK(c.min_len > c.k, "shift: min_len ", c.min_len, " must be > k = ", c.k,
             " (a sequence needs at least one scored position)");
}

Example ShiftTask::example(uint64_t seed, uint64_t index, int64_t length) const {
  check_length(length);
  CounterRng rng(seed, data_stream("shift/example", index));
  const int64_t k = config_.k;
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

}  // namespace ordo
