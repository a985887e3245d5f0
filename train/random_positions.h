// train/random_positions.h: randomized positional encodings (Ruoss et al. 2023),
// docs/spec.md §2.13.
//
// A training sequence of n tokens does not sit at 0..n-1 but at a sorted sample of n
// distinct integers from [0, N), N larger than every evaluation length: the model sees
// every position up to N during training, and a longer test sequence brings no position it
// has never seen. The sample is shared by the batch (as in the authors' code, where the
// batch has one length) and is a pure function of (seed, stream): the same for any
// thread count, and a resumed run draws the same positions.
#pragma once

#include <cstdint>
#include <vector>

namespace ordo {

// n distinct integers from [0, N), increasing, each n-subset equally likely (selection
// sampling, Knuth's Algorithm S, from the counter-based RNG at (seed, stream)).
std::vector<int32_t> random_positions(uint64_t seed, uint64_t stream, int64_t n, int64_t N);

// Random offsets (Huang et al. 2025, docs/spec.md §2.13): a training sequence of n tokens sits at
// o..o+n-1, o uniform in [0, N - n] from the counter-based RNG at (seed, stream), so every row
// of a table of N positions is trained. Their code draws o per sequence as random.randint(0,
// N - n) does; evaluation sequences sit at 0..n-1.
int32_t random_offset(uint64_t seed, uint64_t stream, int64_t n, int64_t N);

}  // namespace ordo
