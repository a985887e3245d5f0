// layers/masks.h: the masks of docs/spec.md §4, built from a batch's real lengths.
//
// Three masks, all required:
//   key padding: logits of padded keys are -inf before the softmax (attention_mask);
//   output     : padded positions are zeroed after every sub-layer (output_mask);
//   loss       : padded and unscored positions contribute nothing (the task's score mask).
#pragma once

#include "core/ops.h"
#include "layers/posenc/encoding.h"

namespace ordo {

// Additive attention mask, 0 or -inf at the keys `visible` hides (core/ops.h AttentionMask):
// (B, 1, 1, L) for key padding alone, or (B, 1, L, L) when causal or windowed.
Tensor attention_mask(const Positions& pos, const AttentionMask& visible);

// (B, L, 1): 1 at real positions, 0 at padding.
Tensor output_mask(const Positions& pos);

// (B, 1, L): 1/len_b at the real positions of sequence b, 0 elsewhere, so that
// pooling_weights x hidden (B, L, d) is the masked mean over real positions.
Tensor pooling_weights(const Positions& pos);

// Positions of a batch of left-aligned sequences of padded length L.
Positions make_positions(int64_t L, const std::vector<int32_t>& lengths);

}  // namespace ordo
