// data/periodic.h: the `periodic` task (docs/spec.md §3): continue or classify a periodic pattern.
//
// Ids: 0 = PAD, 1 = MASK, 2..V+1 symbols. A period p uniform in [p_min, p_max]; a
// primitive motif of p uniform symbols (one that does not repeat with a smaller period
// dividing p; a non-primitive draw is redrawn) tiled to length L >= 2 p_max.
//
// target "complete" (default): round(mask_rate * L) positions (at least 1, at most L - p)
//   become MASK, never all of a residue class mod p: one position of every class is first
//   set aside, uniformly, and the masked positions are then drawn uniformly from the rest.
//   Token head; class = symbol id - 2 (V classes), scored at masked positions only.
// target "period": no masking; pooled head; class = p - p_min (p_max - p_min + 1 classes,
//   so every class occurs; period_of_class() maps back).
#pragma once

#include "data/task.h"

namespace ordo {

class PeriodicTask : public Task {
 public:
  static constexpr int32_t kMask = 1, kFirstSymbol = 2;
  static constexpr int64_t kDefaultMinLen = 16, kDefaultMaxLen = 64;

  explicit PeriodicTask(const TaskConfig& config);  // validates; throws ordo::Error

  std::string name() const override { return "periodic"; }
  HeadKind head() const override { return complete() ? HeadKind::Token : HeadKind::Pooled; }
  int64_t vocab_size() const override { return vocab_ + 2; }
  int64_t num_classes() const override;
  double chance_level() const override { return 1.0 / static_cast<double>(num_classes()); }
  std::vector<MetricInfo> metrics() const override {
    if (!complete())
      return {{"acc", "share of sequences whose period is named right"}, {"loss", "mean cross-entropy per sequence"}};
    return {{"acc", "share of masked symbols predicted right"},
            {"exact", "share of sequences with every masked symbol right"},
            {"loss", "mean cross-entropy per masked symbol"}};
  }
  int64_t min_valid_len() const override { return 2 * p_max_; }

  bool complete() const { return target_ == "complete"; }
  int64_t period_of_class(int32_t cls) const { return p_min_ + cls; }

  // Everything a sequence is made from, before it becomes an Example.
  struct Sequence {
    int64_t period = 0;
    std::vector<int32_t> motif;    // (p) symbol ids, primitive
    std::vector<int32_t> symbols;  // (L) the motif tiled, symbol ids
    std::vector<uint8_t> masked;   // (L) 1 = replaced by MASK (all 0 for target "period")
  };
  Sequence sequence(uint64_t seed, uint64_t index, int64_t length) const;

  Example example(uint64_t seed, uint64_t index, int64_t length) const override;

  // True iff `motif` is not periodic with a smaller period dividing its length.
  static bool is_primitive(const std::vector<int32_t>& motif);

 private:
  int64_t vocab_ = 0, p_min_ = 0, p_max_ = 0;  // --vocab symbols, --p-min, --p-max
  double mask_rate_ = 0;                        // --mask-rate
  std::string target_;                          // --target: complete | period
};

}  // namespace ordo
