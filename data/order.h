// data/order.h: the `order` task (docs/spec.md §3): is A before B?
//
// Ids: 0 = PAD, 1 = A, 2 = B, 3..V+2 fillers. A sequence of length L holds L-2 uniform
// fillers and one A and one B at two distinct uniform positions; the label is 1 iff
// pos(A) < pos(B). Pooled head, 2 classes. With gap g > 0, |pos(A) - pos(B)| = g exactly,
// the pair's first position uniform among the L - g that allow it, and which of the two
// is A a fair coin. A sequence must be longer than g: g >= min_len is an error naming the
// --min-len that fits (no silent clamping), and so is g >= max_len.
#pragma once

#include <algorithm>

#include "data/task.h"

namespace ordo {

class OrderTask : public Task {
 public:
  static constexpr int32_t kA = 1, kB = 2, kFirstFiller = 3;
  static constexpr int64_t kDefaultMinLen = 8, kDefaultMaxLen = 32;

  explicit OrderTask(const TaskConfig& config);  // validates; throws ordo::Error

  std::string name() const override { return "order"; }
  HeadKind head() const override { return HeadKind::Pooled; }
  int64_t vocab_size() const override { return vocab_ + 3; }
  int64_t num_classes() const override { return 2; }
  double chance_level() const override { return 0.5; }  // swap-paired sets: exactly half are label 1
  std::vector<MetricInfo> metrics() const override {
    return {{"acc", "share of sequences whose A-before-B answer is right"},
            {"loss", "mean cross-entropy per sequence"}};
  }
  int64_t min_valid_len() const override { return std::max<int64_t>(2, gap_ + 1); }

  Example example(uint64_t seed, uint64_t index, int64_t length) const override;

  // A and B exchanged, label flipped.
  bool has_eval_twin() const override { return true; }
  Example eval_twin(const Example& e) const override;

 private:
  int64_t vocab_ = 0, gap_ = 0;  // --vocab fillers, --gap (0 = random)
};

}  // namespace ordo
