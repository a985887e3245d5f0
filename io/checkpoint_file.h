// io/checkpoint_file.h: a checkpoint (train/checkpoint.h) in one HDF5 file.
//
// HDF5 layout (any tool can read or write it; h5py example at the end):
//   /                      attributes format_version (int64, currently 1),
//                          ordo_version (string), step (int64),
//                          encodings_revision (int64; absent = 1, layers/posenc/encoding.h)
//   /config                one string attribute per setting ("lr" = "0.001", "encoding" = "rope")
//   /params/<name>         float32 dataset of the parameter's shape, one per parameter, named by
//                          its hierarchical name with dots kept ("blocks.0.attn.w_q.weight"; no
//                          nesting). Listed back in the order they were written.
//   /optimizer/<name>      float32 datasets of optimizer state; a '/' in the name nests
//                          ("m/blocks.0.attn.w_q.weight" -> /optimizer/m/blocks.0.attn.w_q.weight);
//                          loaded depth-first in write order (all of m/ before all of v/)
//   /scalars               one float64 attribute per scalar ("optimizer_steps" = 1200)
//   /rng                   uint64 dataset (N, 4): rows (seed, stream, counter, index) of
//                          CounterRng::State, in the order of Checkpoint::rng
//   /log                   the run log so far, layout of io/run_log_file.h
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

#include <string>

#include "train/checkpoint.h"

namespace ordo {

// Writes atomically (io/atomic_file.h). Throws on duplicate or empty names, a '/' in a
// parameter name, or an undefined tensor.
void save_checkpoint(const std::string& path, const Checkpoint& checkpoint);

// Throws ordo::Error naming the file and the problem: missing file, not HDF5, truncated or
// damaged, unsupported format_version (naming the supported one), a missing object, an
// encoding whose definition changed since (check_encoding_revision, naming the change).
Checkpoint load_checkpoint(const std::string& path);

}  // namespace ordo
