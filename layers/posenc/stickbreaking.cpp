// layers/posenc/stickbreaking.cpp: stick-breaking attention (Tan et al., ICLR 2025, arXiv
// 2410.17980; docs/spec.md §2.18), the position method that is no encoding: it replaces the
// softmax (its form, encoding.h StickBreakingForm). Query i gives key j < i the weight
//   A_ij = sigmoid(z_ij) prod_{j < l < i} (1 - sigmoid(z_il)),   z_ij = q_i . k_j / sqrt(d_h)
// so the nearest keys take their share first and farther ones what is left: order comes
// from the weights themselves. The kernel is core/ops/stickbreaking_attention.cpp (log space,
// O(L) memory).
//
// As the authors' reference (`stickbreaking_attention/sb_ref.py`): keys strictly before the
// query by default (`attend_current=False`; --sb-attend-current takes the query's own key
// too), the 1/sqrt(d_h) scale, no bias on the logits, no positional term. What the stick
// leaves, rem_i = prod_j (1 - beta_ij), goes to the query's own value, out_i += rem_i v_i, as
// the authors' tests do (`stickbreaking-attention/tests/test_attn.py`: `o = o + rem[..., None] * v`);
// --sb-drop-remainder drops it, as one version of flash-linear-attention's layer did (the
// weights then sum to at most 1). Causal only: the authors define no bidirectional form.
#include <map>
#include <string>

#include "layers/posenc/encoding.h"

namespace ordo {
namespace {

class StickBreaking final : public PositionalEncoding {
 public:
  explicit StickBreaking(const EncodingConfig& cfg)
      : rule_{.attend_current = cfg.options.flag("sb-attend-current"),
              .remainder = !cfg.options.flag("sb-drop-remainder")} {}
  std::string name() const override { return "stickbreaking"; }
  AttentionForm form(Tape&, const LayerInput&) override { return StickBreakingForm{rule_}; }

 private:
  StickBreakingRule rule_;
};

}  // namespace

EncodingInfo encoding_info_stickbreaking() {
  return {
      .name = "stickbreaking",
      .summary = "weights, not softmax: A_ij = sigmoid(z_ij) prod_{j<l<i} (1 - sigmoid(z_il)), nearest keys first "
                 "(causal only)",
      .options = {{"sb-attend-current", OptionType::Bool, "false",
                   "the query's own key takes the first share (the authors' attend_current)"},
                  {"sb-drop-remainder", OptionType::Bool, "false",
                   "drop what the stick leaves instead of giving it to the query's own value (the weights then sum "
                   "to at most 1)"}},
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<StickBreaking>(c);
      },
      .in_default_study = false,
      .takes_random_positions = false,  // it reads no token positions: order comes from the weights
      .random_offset = RandomOffset::invariant,  // it reads no token positions
      .causal_only = true,
      .has_softmax = false,
      .changes = {{3, "what the stick leaves now goes to the query's own value, as the authors' tests have it; "
                      "older stick-breaking checkpoints dropped it (--sb-drop-remainder trains that form)",
                   [](const std::map<std::string, std::string>& settings) {
                     auto drop = settings.find("sb-drop-remainder");
                     return drop == settings.end() || drop->second != "true";
                   }}},
  };
}

}  // namespace ordo
