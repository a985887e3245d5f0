// train/memory.h: the memory a run will need, known before anything large is allocated.
//
// Settings such as `--max-len 100000 --batch 64` or `--layers 10000` would otherwise grow
// until the machine runs out of memory. So the Trainer measures first: it builds the model
// with 1 and with 2 layers, and for each trains one step and evaluates one batch of a single
// sequence at three short lengths, reading the bytes its tensors hold at their peak (the
// tensor pool counts them, core/tensor.h). Memory is linear in the layers and in the batch
// (every tensor of a step is per layer or not, per sequence or shared), and at most quadratic
// in the length (the fused attention keeps no (L, L) tensor, but an unfused path or a full
// bias table would), so three lengths give it exactly at every length and two layer counts
// at every depth. The held-out sequences (12 bytes per token: ids, targets, score mask; twice
// that while a set is built) are counted from the evaluation lengths. These are the bytes of
// ordo's tensors: oneDNN's scratch, the pool's power-of-two blocks and the program with its
// libraries (~100 MB) come on top. Measured peak RSS against the estimate (2-step runs):
// shift defaults 158 MB / 59 MB; order --max-len 512 --batch 32: 333 / 207 MB; shift with
// 8 layers of d 128: 866 / 439 MB; order --max-len 2048 --batch 16: 660 / 412 MB. So the
// estimate is the floor a run needs: it is refused when even that does not fit, and
// tests/train/test_memory_estimate.cpp holds the estimate within 5% of the tensor bytes.
#pragma once

#include <cstdint>
#include <string>

#include "data/task.h"
#include "train/config.h"

namespace ordo {

struct MemoryNeed {
  int64_t model = 0;       // parameters, gradients and optimizer state
  int64_t eval_sets = 0;   // the held-out sequences, kept for the whole run
  int64_t train_step = 0;  // one training step's activations at --batch x the longest length
  int64_t eval_step = 0;   // the largest evaluation batch's activations (no gradients)
  int64_t eval_length = 0;  // the evaluation length of that batch
  int64_t total() const { return model + eval_sets + (train_step > eval_step ? train_step : eval_step); }
};

// `cfg` as the Trainer completes it (cfg.task resolved, cfg.model from model_config()).
// Measured once per distinct setting in a process (a study's seeds share one measurement).
MemoryNeed estimate_memory(const TrainConfig& cfg, const Task& task);

// Bytes this process can still take: MemAvailable (/proc/meminfo), lowered to what the
// cgroup's memory limit leaves; ORDO_MEMORY_AVAILABLE (bytes) overrides both (tests). -1
// when unknown.
int64_t available_memory();

// Refuses (ordo::Error) settings whose need exceeds the memory available, saying both and
// what to lower.
void check_memory(const TrainConfig& cfg, const Task& task);

// "1.5 GB", "312 MB", "4.0 kB" (powers of 1000).
std::string format_bytes(double bytes);

}  // namespace ordo
