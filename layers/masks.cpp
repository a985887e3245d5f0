#include "layers/masks.h"

#include <limits>

namespace ordo {

Positions make_positions(int64_t L, const std::vector<int32_t>& lengths) {
  Positions p;
  p.batch = static_cast<int64_t>(lengths.size());
  p.length = L;
  p.lengths = lengths;
  for (int32_t len : lengths)
    ORDO_CHECK(len >= 1 && len <= L, "positions: sequence length ", len, " outside [1, ", L, "]");
  return p;
}

Tensor attention_mask(const Positions& pos, const AttentionMask& visible) {
  const int64_t B = pos.batch, L = pos.length;
  const Real neg_inf = -std::numeric_limits<Real>::infinity();
  const int64_t rows = visible.causal || visible.window > 0 ? L : 1;
  Tensor m = Tensor::zeros(Shape{B, 1, rows, L});  // (B, 1, L or 1, L)
  for (int64_t b = 0; b < B; ++b)
    for (int64_t t = 0; t < rows; ++t)
      for (int64_t u = 0; u < L; ++u)
        if (!visible.visible(t, u, pos.lengths[b])) m[(b * rows + t) * L + u] = neg_inf;
  return m;
}

Tensor output_mask(const Positions& pos) {
  Tensor m = Tensor::zeros(Shape{pos.batch, pos.length, 1});  // (B, L, 1)
  for (int64_t b = 0; b < pos.batch; ++b)
    for (int64_t t = 0; t < pos.lengths[b]; ++t) m[b * pos.length + t] = 1;
  return m;
}

Tensor pooling_weights(const Positions& pos) {
  Tensor w = Tensor::zeros(Shape{pos.batch, 1, pos.length});  // (B, 1, L)
  for (int64_t b = 0; b < pos.batch; ++b)
    for (int64_t t = 0; t < pos.lengths[b]; ++t)
      w[b * pos.length + t] = static_cast<Real>(1.0 / pos.lengths[b]);
  return w;
}

}  // namespace ordo
