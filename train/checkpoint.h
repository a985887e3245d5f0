// train/checkpoint.h: everything needed to resume a run to the same curve, in one HDF5 file.
//
// HDF5 layout (any tool can read or write it; h5py example at the end):
//   /                      attributes format_version (int64, currently 1),
//                          ordo_version (string), step (int64)
//   /config                one string attribute per setting ("lr" = "0.001", "encoding" = "rope")
//   /params/<name>         float32 dataset of the parameter's shape, one per parameter, named by
//                          its hierarchical name with dots kept ("blocks.0.attn.w_q.weight"; no
//                          nesting). Listed back in the order they were written.
//   /optimizer/<name>      float32 datasets of optimizer state; a '/' in the name nests
//                          ("m/blocks.0.attn.w_q.weight" -> /optimizer/m/blocks.0.attn.w_q.weight);
//                          loaded depth-first in write order (all of m/ before all of v/)
//   /scalars               one float64 attribute per scalar ("adam_step" = 1200)
//   /rng                   uint64 dataset (N, 4): rows (seed, stream, counter, index) of
//                          CounterRng::State, in the order of Checkpoint::rng
//   /log                   the run log so far, layout of train/run_log.h
// All groups are required on load (they may be empty). Floats are stored as IEEE float32 /
// float64 little-endian: a round trip is bit-exact.
//
//   Checkpoint c;  c.step = 1200;  c.params.push_back({"blocks.0.attn.w_q.weight", w});
//   save_checkpoint("run.ckpt.h5", c);                 // atomic: old file or new, never half
//   Checkpoint r = load_checkpoint("run.ckpt.h5");
//   check_compatible(r, model_parameter_shapes);       // names + shapes before restoring
//
//   python3 -c "import h5py; f = h5py.File('run.ckpt.h5'); print(f.attrs['step'], list(f['params']))"
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/rng.h"
#include "core/tensor.h"
#include "train/run_log.h"
#include "train/version.h"

namespace ordo {

// The format this build writes and the only one it reads.
constexpr int64_t kCheckpointFormatVersion = 1;

struct Checkpoint {
  int64_t format_version = kCheckpointFormatVersion;  // written as is (tests write others)
  std::string ordo_version = version();
  int64_t step = 0;
  std::map<std::string, std::string> config;                // every setting, as text
  std::vector<std::pair<std::string, TensorF32>> params;    // hierarchical name -> value
  std::vector<std::pair<std::string, TensorF32>> optimizer; // e.g. "m/<name>", "v/<name>"
  std::map<std::string, double> scalars;                    // e.g. optimizer step count
  std::vector<CounterRng::State> rng;                       // RNG states to restore
  RunLog log;                                               // the curve so far
};

// Writes atomically (train/atomic_file.h). Throws on duplicate or empty names, a '/' in a
// parameter name, or an undefined tensor.
void save_checkpoint(const std::string& path, const Checkpoint& checkpoint);

// Throws ordo::Error naming the file and the problem: missing file, not HDF5, truncated or
// damaged, unsupported format_version (naming the supported one), a missing object.
Checkpoint load_checkpoint(const std::string& path);

// Throws naming the first mismatch, in the model's parameter order, then any extra ones:
//   "parameter blocks.0.attn.w_q.weight: checkpoint has (64, 64), model expects (32, 32)"
//   "parameter blocks.0.attn.w_q.weight: missing from the checkpoint"
//   "parameter blocks.9.w: in the checkpoint but not in the model"
void check_compatible(const Checkpoint& checkpoint, const std::vector<std::pair<std::string, Shape>>& expected);

}  // namespace ordo
