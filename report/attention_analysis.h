// report/attention_analysis.h: the attention of a trained model on one batch, as files
// (docs/spec.md §6).
//
// One batch of `batch_size` sequences of exactly `length` tokens of the trainer's task
// (drawn with `data_seed`) goes forward with the attention maps kept; `out` receives
//   analysis.h5   attributes (checkpoint, task, encoding, length, eps, ...); tokens (B, L),
//                 lengths (B); per layer l: layer<l>/attention (B, H, L', L') (L' = L + 1 with a
//                 cls head), layer<l>/{entropy, span_mean, span_max, distance} (H) over the
//                 batch and layer<l>/per_sequence/<same> (B, H) (report/attention_stats.h)
//   layer<l>_attention.{dat,gp,png}   sequence 0, the heads side by side
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "report/attention_stats.h"
#include "train/trainer.h"

namespace ordo {

struct AttentionAnalysis {
  std::string h5_path;
  std::vector<std::vector<AttentionStats>> per_layer;  // [layer][head], over the batch
  int plots = 0, plots_rendered = 0;                   // heatmaps written / drawn as PNG
  std::vector<std::string> warnings;                   // plotting problems (the data is written)
};

// `source` names what was analysed (the checkpoint's path), stored as an attribute.
AttentionAnalysis analyze_attention(Trainer& trainer, int64_t length, int64_t batch_size, uint64_t data_seed,
                                    const std::string& out, const std::string& source);

}  // namespace ordo
