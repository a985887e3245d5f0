// layers/posenc/t5.cpp: the T5 relative position bias (Raffel et al. 2020), docs/spec.md §2.6.
//
// A learned scalar per (bucket, head) added to the attention logits (bias hook):
//   bias[h, t, u] = B[bucket(u - t), h],   B (num_buckets, H) ~ N(0, 0.02) at init
// with T5's bucketing (t5.h): 32 buckets, 16 per sign, exact for |u - t| < 8, log-spaced up
// to 128. Under a causal mask all 32 go to the past (exact for t - u < 16), as T5's decoder
// buckets with bidirectional=False (HF T5Attention: `bidirectional=not self.is_decoder`);
// --t5-causal both keeps the 16-per-sign split, whose later half the mask never reads. The
// bias depends on u - t only; it is built once per forward pass in relative form
// (H, Lq + Lk - 1) and shared by every layer.
//
// Init: N(0, 0.02), the scale of every other learned table in ordo (docs/spec.md §1), so a
// comparison of learned encodings is not confounded by different init scales. (Zeros would
// also train, since the gradient of B does not depend on B, but would start as NoPE.)
#include "layers/posenc/t5.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/ops.h"
#include "core/options.h"
#include "layers/init.h"
#include "layers/posenc/encoding.h"

namespace ordo {

int64_t t5_bucket(int64_t relative_position, int64_t num_buckets, int64_t max_distance,
                  bool bidirectional) {
  int64_t bucket = 0;
  int64_t n = 0;  // the distance being bucketed
  if (bidirectional) {
    num_buckets /= 2;
    if (relative_position > 0) bucket += num_buckets;  // keys after the query
    n = std::llabs(relative_position);
  } else {
    n = relative_position < 0 ? -relative_position : 0;  // only keys before the query count
  }
  const int64_t max_exact = num_buckets / 2;
  if (n < max_exact) return bucket + n;
  // Log-spaced between max_exact and max_distance; truncated like T5's .to(long).
  const double scaled = std::log(static_cast<double>(n) / static_cast<double>(max_exact)) /
                        std::log(static_cast<double>(max_distance) / static_cast<double>(max_exact)) *
                        static_cast<double>(num_buckets - max_exact);
  const int64_t large = max_exact + static_cast<int64_t>(scaled);
  return bucket + std::min<int64_t>(large, num_buckets - 1);
}

namespace {

void check_t5_options(const Options& o) {
  const int64_t buckets = o.integer("t5-buckets"), max_distance = o.integer("t5-max-distance");
  ORDO_CHECK(buckets >= 4 && buckets % 2 == 0, "t5: --t5-buckets must be even and >= 4, got ", buckets);
  ORDO_CHECK(max_distance > buckets / 4, "t5: --t5-max-distance = ", max_distance,
             " must exceed the exact range --t5-buckets / 4 = ", buckets / 4);
  const std::string& causal = o.text("t5-causal");
  ORDO_CHECK(causal == "past" || causal == "both", "t5: unknown --t5-causal '", causal, "'; accepted: past, both");
}

// Whether the buckets are split by sign: always bidirectionally; under a causal mask only
// with --t5-causal both.
bool split_by_sign(const EncodingConfig& cfg) {
  return !cfg.causal || cfg.options.text("t5-causal") == "both";
}

// B (num_buckets, H) ~ N(0, 0.02), a function of (seed, "posenc.t5_bias").
Tensor initial_t5_table(const EncodingConfig& cfg) {
  check_t5_options(cfg.options);
  ORDO_CHECK(cfg.n_heads > 0, "t5: n_heads must be positive, got ", cfg.n_heads);
  return normal_init(Shape{cfg.options.integer("t5-buckets"), cfg.n_heads}, 0.02, cfg.seed, "posenc.t5_bias");
}

class T5Encoding final : public PositionalEncoding {
 public:
  explicit T5Encoding(const EncodingConfig& cfg)
      : buckets_(cfg.options.integer("t5-buckets")), max_distance_(cfg.options.integer("t5-max-distance")),
        bidirectional_(split_by_sign(cfg)), table_("posenc.t5_bias", initial_t5_table(cfg)) {
    ORDO_CHECK(bidirectional_ || max_distance_ > buckets_ / 2, "t5: --t5-max-distance = ", max_distance_,
               " must exceed the causal exact range --t5-buckets / 2 = ", buckets_ / 2);
  }
  std::string name() const override { return "t5"; }

  // (H, 2L - 1): entry [h, j] = B[bucket(j - (L - 1)), h], gathered so B gets gradients;
  // with randomized positions the full (H, L, L) of the positions' differences.
  std::optional<AttentionBias> bias(Tape& t, const Positions& pos) override {
    ORDO_CHECK(pos.length > 0, "t5: Positions.length must be positive, got ", pos.length);
    if (!pos.contiguous()) {
      const int64_t L = pos.length;
      TensorI32 ids = TensorI32::empty(Shape{L * L});
      for (int64_t q = 0; q < L; ++q)
        for (int64_t k = 0; k < L; ++k)
          ids[q * L + k] = static_cast<int32_t>(t5_bucket(pos.at(k) - pos.at(q), buckets_, max_distance_, bidirectional_));
      Var pairs = embedding(t, t.param(table_), ids);  // (L^2, H)
      return AttentionBias{reshape(t, permute(t, pairs, {1, 0}), Shape{table_.value.dim(1), L, L}), false};
    }
    const int64_t W = 2 * pos.length - 1;
    TensorI32 ids = TensorI32::empty(Shape{W});
    for (int64_t j = 0; j < W; ++j)
      ids[j] = static_cast<int32_t>(t5_bucket(j - (pos.length - 1), buckets_, max_distance_, bidirectional_));
    Var rel = embedding(t, t.param(table_), ids);   // (2L - 1, H)
    return AttentionBias{permute(t, rel, {1, 0}), true};  // (H, 2L - 1)
  }

  std::vector<Parameter*> parameters() override { return {&table_}; }

 private:
  int64_t buckets_, max_distance_;
  bool bidirectional_;  // buckets split by the sign of u - t
  Parameter table_;  // (num_buckets, H)
};

}  // namespace

EncodingInfo encoding_info_t5() {
  return {
      .name = "t5",
      .summary = "bias: learned scalar per (log-spaced bucket of u - t, head)",
      .options = {{"t5-buckets", OptionType::Int, "32", "relative-position buckets (even, 16 per sign by default)"},
                  {"t5-max-distance", OptionType::Int, "128", "distance of the last bucket"},
                  {"t5-causal", OptionType::Text, "past",
                   "buckets under --causal: past (all to u <= t, T5's decoder) or both (split by sign, half unused)"}},
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<T5Encoding>(c);
      },
      .check = check_t5_options,
      .random_offset = RandomOffset::invariant,  // positions enter only as differences
      .changes = {{2, "under --causal all its buckets now go to the past, as T5's decoder buckets "
                      "(bidirectional=False); older causal t5 checkpoints split them by sign, half unused "
                      "(--t5-causal both now trains that t5)",
                   [](const std::map<std::string, std::string>& settings) {
                     auto causal = settings.find("causal");  // parsed as the setting is, in any spelling
                     return causal != settings.end() && parse_bool("causal", causal->second);
                   }}},
  };
}

}  // namespace ordo
