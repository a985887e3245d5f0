// layers/posenc/t5.h: the T5 relative-position bucketing, exposed for tests and analysis.
#pragma once

#include <cstdint>

namespace ordo {

// The bucket of relative_position = u - t (key minus query), as T5's
// `_relative_position_bucket`. Bidirectional: half the buckets for u <= t, half (offset by
// num_buckets / 2) for u > t. Within a half of n buckets, distances below n / 2 get a bucket
// each; larger ones share log-spaced buckets up to max_distance, beyond which all fall into
// the last. Unidirectional: only u <= t is distinguished (u > t maps to bucket 0).
int64_t t5_bucket(int64_t relative_position, int64_t num_buckets, int64_t max_distance,
                  bool bidirectional);

}  // namespace ordo
