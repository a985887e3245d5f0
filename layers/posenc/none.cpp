// layers/posenc/none.cpp: no positional encoding (NoPE).
//
// Implements none of the four hooks (its form is the plain softmax), so the model sees the
// tokens only. With bidirectional attention and mean pooling the model is then
// permutation-invariant: a baseline that can only learn what does not depend on order.
#include "layers/posenc/encoding.h"

namespace ordo {
namespace {

class NoEncoding final : public PositionalEncoding {
 public:
  std::string name() const override { return "none"; }
};

}  // namespace

EncodingInfo encoding_info_none() {
  return {
      .name = "none",
      .summary = "no positional information (NoPE)",
      .options = {},  // none
      .make = [](const EncodingConfig&) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<NoEncoding>();
      },
      .random_offset = RandomOffset::invariant,  // no positions at all
      .cost_baseline = true,
  };
}

}  // namespace ordo
