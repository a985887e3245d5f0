// data/order.cpp: the `order` task generator (see data/order.h).
#include "data/order.h"

#include "core/rng.h"

namespace ordo {

OrderTask::OrderTask(const TaskConfig& config) : Task(config) {
  config_ = resolve_range(config_, kDefaultMinLen, kDefaultMaxLen);
  vocab_ = config_.options.integer("vocab");
  gap_ = config_.options.integer("gap");
  struct {
    int64_t min_len, max_len, vocab, gap;
  } c{config_.min_len, config_.max_len, vocab_, gap_};
  ORDO_CHECK(c.vocab >= 1, "order: vocab (the number of filler tokens) must be >= 1, got ",
             c.vocab);
  ORDO_CHECK(c.min_len >= 2, "order: min_len must be >= 2 (A and B need two positions), got ",
             c.min_len);
  ORDO_CHECK(c.gap >= 0, "order: gap must be >= 0 (0 = random positions), got ", c.gap);
  ORDO_CHECK(c.gap < c.max_len, "order: gap ", c.gap, " does not fit: gap must be < max_len ",
             c.max_len, " (|pos(A) - pos(B)| <= L - 1)");
  // No silent clamping of the length range: a length L holds a gap g only if L >= g + 1.
  ORDO_CHECK(c.gap == 0 || c.gap < c.min_len, "order: --gap ", c.gap, " does not fit --min-len ", c.min_len,
             ": a sequence with |pos(A) - pos(B)| = ", c.gap, " needs length >= ", c.gap + 1,
             "; set --min-len ", c.gap + 1, " or more (at most --max-len ", c.max_len, "), or --gap below ",
             c.min_len);
}

Example OrderTask::example(uint64_t seed, uint64_t index, int64_t length) const {
  check_length(length);
  CounterRng rng(seed, data_stream("order/example", index));
  Example e;
  e.tokens.resize(length);
  for (int64_t t = 0; t < length; ++t)
    e.tokens[t] = kFirstFiller + static_cast<int32_t>(rng.uniform_int(0, vocab_ - 1));

  int64_t pos_a, pos_b;
  if (gap_ == 0) {
    pos_a = rng.uniform_int(0, length - 1);
    pos_b = rng.uniform_int(0, length - 2);  // uniform over the other L - 1 positions
    if (pos_b >= pos_a) ++pos_b;
  } else {
    const int64_t first = rng.uniform_int(0, length - 1 - gap_);
    const int64_t second = first + gap_;
    const bool a_first = rng.uniform_int(0, 1) == 1;
    pos_a = a_first ? first : second;
    pos_b = a_first ? second : first;
  }
  e.tokens[pos_a] = kA;
  e.tokens[pos_b] = kB;
  e.label = pos_a < pos_b ? 1 : 0;
  e.distance = static_cast<int32_t>(pos_a < pos_b ? pos_b - pos_a : pos_a - pos_b);
  return e;
}

Example OrderTask::eval_twin(const Example& e) const {
  Example twin = e;
  for (int32_t& id : twin.tokens) {
    if (id == kA)
      id = kB;
    else if (id == kB)
      id = kA;
  }
  twin.label = 1 - e.label;
  return twin;
}

TaskInfo task_info_order() {
  return {
      .name = "order",
      .summary = "is A before B? one class per sequence (pooled head)",
      .default_min_len = OrderTask::kDefaultMinLen,
      .default_max_len = OrderTask::kDefaultMaxLen,
      .options = {{"vocab", OptionType::Int, "8", "number of filler tokens"},
                  {"gap", OptionType::Int, "0", "fix |pos(A) - pos(B)| (0 = random)"}},
      .make = [](const TaskConfig& c) -> std::unique_ptr<Task> { return std::make_unique<OrderTask>(c); },
      .demo_steps = 2000,  // all of them: t5 leaves the chance plateau late (docs/results.md)
      .in_default_study = true,
  };
}

}  // namespace ordo
