// train/checkpoint.h: everything needed to resume a run to the same curve.
//
// A Trainer fills one (Trainer::checkpoint) and restores from one (Trainer::restore);
// io/checkpoint_file.h writes it to one HDF5 file and reads it back (layout there).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/rng.h"
#include "core/tensor.h"
#include "layers/posenc/encoding.h"
#include "train/run_log.h"
#include "train/version.h"

namespace ordo {

// The format this build writes and the only one it reads.
constexpr int64_t kCheckpointFormatVersion = 1;

struct Checkpoint {
  int64_t format_version = kCheckpointFormatVersion;  // written as is (tests write others)
  std::string ordo_version = version();
  int64_t encodings_revision = kEncodingsRevision;          // 1 when the file has none
  int64_t step = 0;
  std::map<std::string, std::string> config;                // every setting, as text
  std::vector<std::pair<std::string, TensorF32>> params;    // hierarchical name -> value
  std::vector<std::pair<std::string, TensorF32>> optimizer; // e.g. "m/<name>", "v/<name>"
  std::map<std::string, double> scalars;                    // e.g. optimizer step count
  std::vector<CounterRng::State> rng;                       // RNG states to restore
  RunLog log;                                               // the curve so far
};

// Throws naming the first mismatch, in the model's parameter order, then any extra ones:
//   "parameter blocks.0.attn.w_q.weight: checkpoint has (64, 64), model expects (32, 32)"
//   "parameter blocks.0.attn.w_q.weight: missing from the checkpoint"
//   "parameter blocks.9.w: in the checkpoint but not in the model"
// Throws when the checkpoint's encoding changed definition after the checkpoint was written
// (EncodingInfo::changes), naming the change, or when a newer ordo wrote it:
//   "<where>: this fire checkpoint predates a change to fire (encodings revision 2): ..."
void check_encoding_revision(const Checkpoint& checkpoint, const std::string& where);

void check_compatible(const Checkpoint& checkpoint, const std::vector<std::pair<std::string, Shape>>& expected);

}  // namespace ordo
