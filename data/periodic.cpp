// data/periodic.cpp: the `periodic` task generator (see data/periodic.h).
#include "data/periodic.h"

#include <algorithm>
#include <cmath>

#include "core/rng.h"

namespace ordo {

PeriodicTask::PeriodicTask(const TaskConfig& config) : Task(config) {
  config_ = resolve_range(config_, kDefaultMinLen, kDefaultMaxLen);
  const Options& o = config_.options;
  vocab_ = o.integer("vocab");
  p_min_ = o.integer("p-min");
  p_max_ = o.integer("p-max");
  mask_rate_ = o.real("mask-rate");
  target_ = o.text("target");
  struct {
    int64_t min_len, vocab, p_min, p_max;
    double mask_rate;
    const std::string& target;
  } c{config_.min_len, vocab_, p_min_, p_max_, mask_rate_, target_};
  ORDO_CHECK(c.target == "complete" || c.target == "period", "periodic: unknown target '",
             c.target, "'; known targets: complete, period");
  ORDO_CHECK(c.vocab >= 2, "periodic: vocab (the number of symbols) must be >= 2, since a ",
             "primitive motif needs two distinct symbols; got ", c.vocab);
  ORDO_CHECK(c.p_min >= 2, "periodic: p_min must be >= 2, got ", c.p_min);
  ORDO_CHECK(c.p_min <= c.p_max, "periodic: p_min ", c.p_min, " > p_max ", c.p_max,
             "; the period range must be non-empty");
  ORDO_CHECK(c.mask_rate > 0.0 && c.mask_rate < 1.0,
             "periodic: mask_rate must be in (0, 1), got ", c.mask_rate);
  ORDO_CHECK(c.min_len >= 2 * c.p_max, "periodic: min_len ", c.min_len,
             " must be >= 2 * p_max = ", 2 * c.p_max, " (every sequence shows its motif twice)");
}

int64_t PeriodicTask::num_classes() const {
  return complete() ? vocab_ : p_max_ - p_min_ + 1;
}

bool PeriodicTask::is_primitive(const std::vector<int32_t>& motif) {
  const size_t p = motif.size();
  for (size_t d = 1; d < p; ++d) {
    if (p % d != 0) continue;
    bool repeats = true;
    for (size_t i = d; i < p && repeats; ++i) repeats = motif[i] == motif[i - d];
    if (repeats) return false;
  }
  return true;
}

PeriodicTask::Sequence PeriodicTask::sequence(uint64_t seed, uint64_t index,
                                              int64_t length) const {
  check_length(length);
  CounterRng rng(seed, data_stream("periodic/example", index));
  Sequence s;
  const int64_t p = rng.uniform_int(p_min_, p_max_);
  s.period = p;
  s.motif.resize(p);
  do {
    for (int64_t i = 0; i < p; ++i)
      s.motif[i] = kFirstSymbol + static_cast<int32_t>(rng.uniform_int(0, vocab_ - 1));
  } while (!is_primitive(s.motif));
  s.symbols.resize(length);
  for (int64_t t = 0; t < length; ++t) s.symbols[t] = s.motif[t % p];
  s.masked.assign(length, 0);
  if (!complete()) return s;

  // One position of every residue class stays visible; the masked ones are a uniform
  // subset of the other L - p positions.
  std::vector<uint8_t> keeper(length, 0);
  for (int64_t c = 0; c < p; ++c) {
    const int64_t members = (length - c + p - 1) / p;  // positions c, c + p, ... < L
    keeper[c + p * rng.uniform_int(0, members - 1)] = 1;
  }
  std::vector<int64_t> candidates;
  candidates.reserve(length - p);
  for (int64_t t = 0; t < length; ++t)
    if (!keeper[t]) candidates.push_back(t);
  const int64_t wanted = std::llround(mask_rate_ * static_cast<double>(length));
  const int64_t num_masked = std::clamp<int64_t>(wanted, 1, length - p);
  for (int64_t i = 0; i < num_masked; ++i) {  // partial Fisher-Yates
    const int64_t j = rng.uniform_int(i, static_cast<int64_t>(candidates.size()) - 1);
    std::swap(candidates[i], candidates[j]);
    s.masked[candidates[i]] = 1;
  }
  return s;
}

Example PeriodicTask::example(uint64_t seed, uint64_t index, int64_t length) const {
  const Sequence s = sequence(seed, index, length);
  Example e;
  if (!complete()) {
    e.tokens = s.symbols;
    e.label = static_cast<int32_t>(s.period - p_min_);
    return e;
  }
  e.tokens.resize(length);
  e.targets.assign(length, 0);
  e.scored = s.masked;
  for (int64_t t = 0; t < length; ++t) {
    e.tokens[t] = s.masked[t] ? kMask : s.symbols[t];
    if (s.masked[t]) e.targets[t] = s.symbols[t] - kFirstSymbol;
  }
  return e;
}

TaskInfo task_info_periodic() {
  return {
      .name = "periodic",
      .summary = "continue a periodic pattern (token head) or name its period (pooled head)",
      .default_min_len = PeriodicTask::kDefaultMinLen,
      .default_max_len = PeriodicTask::kDefaultMaxLen,
      .options = {{"vocab", OptionType::Int, "8", "number of symbols"},
                  {"p-min", OptionType::Int, "2", "smallest period"},
                  {"p-max", OptionType::Int, "8", "largest period"},
                  {"mask-rate", OptionType::Real, "0.25", "target complete: fraction of positions masked"},
                  {"target", OptionType::Text, "complete", "complete (fill masked positions) or period"}},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<PeriodicTask>(c); },
      .demo_steps = 300,  // the budget; nothing solves periodic in 2000 steps either (docs/results.md)
      .in_default_study = true,
  };
}

}  // namespace ordo
