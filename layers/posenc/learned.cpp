// layers/posenc/learned.cpp: a learned absolute position table (BERT / GPT-2 style).
//
//   PE(t) = P[min(t, max_len - 1)],   P (max_len, d) ~ N(0, 0.02) at init
//
// added to the token embeddings (embed hook). Positions past the table reuse its last row
// (clamp), so the model runs at any length but cannot tell apart positions >= max_len - 1:
// the reason learned tables extrapolate poorly. --learned-init haiku starts P as Haiku's
// hk.Embed does by default (a normal of std 1 truncated at +-2, spread 0.88), the table of
// Ruoss et al. 2023's code (docs/spec.md §2.3).
#include <algorithm>

#include "core/ops.h"
#include "layers/init.h"
#include "layers/posenc/encoding.h"

namespace ordo {
namespace {

void check_learned_options(const Options& o) {
  const std::string& init = o.text("learned-init");
  ORDO_CHECK(init == "normal" || init == "haiku", "learned: unknown --learned-init '", init,
             "'; accepted: normal, haiku");
}

// P (max_len, d) ~ N(0, 0.02), or with --learned-init haiku a N(0, 1) truncated at +-2 (Haiku's
// TruncatedNormal() does not rescale for the cut); a function of (seed, "posenc.table").
Tensor initial_learned_table(const EncodingConfig& cfg) {
  check_learned_options(cfg.options);
  ORDO_CHECK(cfg.d_model > 0 && cfg.max_len > 0, "learned: d_model and max_len must be positive, got d_model = ",
             cfg.d_model, ", max_len = ", cfg.max_len);
  ORDO_CHECK(cfg.train_positions <= cfg.max_len, "--pe-max-len ", cfg.max_len, " is below the training max_len ",
             cfg.train_positions, ": the learned table needs a row for every training position");
  const Shape shape{cfg.max_len, cfg.d_model};
  if (cfg.options.text("learned-init") == "haiku") return truncated_normal_init(shape, 1.0, cfg.seed, "posenc.table");
  return normal_init(shape, 0.02, cfg.seed, "posenc.table");
}

class LearnedEncoding final : public PositionalEncoding {
 public:
  explicit LearnedEncoding(const EncodingConfig& cfg)
      : d_(cfg.d_model), max_len_(cfg.max_len), table_("posenc.table", initial_learned_table(cfg)) {}
  std::string name() const override { return "learned"; }

  // x (B, L, d) -> x + P[clamp(t)], the (L, d) gather broadcast over the batch; with a
  // random offset per sequence (--random-offset), the (B, L, d) gather of P[clamp(o_b + t)].
  Var embed(Tape& t, Var x, const Positions& positions) override {
    const Shape& s = t.shape(x);
    ORDO_CHECK(s.rank() == 3 && s[2] == d_, "learned: embed needs x of shape (B, L, ", d_,
               "), got ", s);
    const int64_t B = s[0], L = s[1];
    auto row = [&](int64_t p) { return static_cast<int32_t>(std::min<int64_t>(p, max_len_ - 1)); };
    if (!positions.offsets.empty()) {
      TensorI32 ids = TensorI32::empty(Shape{B, L});
      for (int64_t b = 0; b < B; ++b)
        for (int64_t r = 0; r < L; ++r) ids[b * L + r] = row(positions.at(b, r));
      return add(t, x, embedding(t, t.param(table_), ids));  // (B, L, d) + (B, L, d)
    }
    TensorI32 ids = TensorI32::empty(Shape{L});
    for (int64_t r = 0; r < L; ++r) ids[r] = row(positions.at(r));
    return add(t, x, embedding(t, t.param(table_), ids));  // (B, L, d) + (L, d)
  }

  std::vector<Parameter*> parameters() override { return {&table_}; }

 private:
  int64_t d_, max_len_;
  Parameter table_;  // (max_len, d)
};

}  // namespace

EncodingInfo encoding_info_learned() {
  return {
      .name = "learned",
      .summary = "embed: learned (max_len, d) table, clamped past max_len",
      .options = {{"learned-init", OptionType::Text, "normal",
                   "table init: normal (N(0, 0.02), GPT-2's and BERT's) or haiku (N(0, 1) cut at +-2, hk.Embed's "
                   "default, Ruoss et al.'s code)"}},
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<LearnedEncoding>(c);
      },
      .check = check_learned_options,
      .random_offset = RandomOffset::reads,
  };
}

}  // namespace ordo
