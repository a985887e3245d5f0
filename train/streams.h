// train/streams.h: the random streams the trainer draws from, each by name (docs/spec.md §9).
//
// Every random draw in ordo comes from the counter-based RNG (core/rng.h) at a key and a
// counter. The tasks key their draws with data_stream("<task>/<purpose>", index)
// (data/task.h); the trainer keys its own from the run's seed and the stream's tag below,
// stream_key(seed, Stream::dropout), and counts with the step. The tags are fixed for good:
// changing one changes the bits of every run that draws from it.
#pragma once

#include <cstdint>

#include "core/rng.h"

namespace ordo {

enum class Stream : uint64_t {
  dropout = 0xD50F,             // dropout masks, counted by step * M + part (train/trainer.cpp)
  random_positions = 0x9A2D05,  // --random-positions samples: training by step, evaluation by
                                // (length, batch) from --eval-seed (docs/spec.md §2.13)
  random_offset = 0x0FF5E7,     // --random-offset: one draw per training sequence, counted by
                                // step * batch + its place in the batch (docs/spec.md §2.13)
};

inline uint64_t stream_key(uint64_t seed, Stream s) { return mix64(seed ^ static_cast<uint64_t>(s)); }

}  // namespace ordo
