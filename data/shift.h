// data/shift.h: the `shift` task (docs/spec.md §3): output the input delayed by k.
//
// Ids: 0 = PAD, 1 = bit 0, 2 = bit 1; bits i.i.d. uniform. The target at position i is
// x_{i-k} (class 0 or 1, the bit) for i >= k; positions i < k are not scored. Token head,
// 2 classes. Every length must exceed k.
#pragma once

#include "data/task.h"

namespace ordo {

class ShiftTask : public Task {
 public:
  static constexpr int32_t kBit0 = 1, kBit1 = 2;
  static constexpr int64_t kDefaultMinLen = 16, kDefaultMaxLen = 64;

  explicit ShiftTask(const TaskConfig& config);  // validates; throws ordo::Error

  std::string name() const override { return "shift"; }
  HeadKind head() const override { return HeadKind::Token; }
  int64_t vocab_size() const override { return 3; }
  int64_t num_classes() const override { return 2; }
  double chance_level() const override { return 0.5; }  // uniform random bits
  std::vector<MetricInfo> metrics() const override {
    return {{"acc", "share of delayed bits right (positions k and later)"},
            {"exact", "share of sequences with every delayed bit right"},
            {"loss", "mean cross-entropy per delayed bit"}};
  }
  int64_t min_valid_len() const override { return k_ + 1; }
  int64_t k() const { return k_; }

  Example example(uint64_t seed, uint64_t index, int64_t length) const override;

 private:
  int64_t k_ = 0;  // --k
};

}  // namespace ordo
