// layers/posenc/cope.cpp: contextual position encoding (CoPE, Golovneva et al. 2024),
// docs/spec.md §2.12.
//
// Positions counted by the content instead of by tokens. In each layer, for query i and key
// j <= i:
//   g_it = sigmoid(s_it)                     s = q k^T / sqrt(d_h), the layer's logits
//   p_ij = min(sum_{t=j..i} g_it, P - 1)     a fractional, contextual "distance"
//   term_ij = q_i . e[p_ij],  e[p] = (1 - w) e[floor p] + w e[ceil p],  w = p - floor p
// added to the logits (SoftmaxForm::contextual). When every gate is 1, p_ij = i - j + 1 and CoPE is
// a learned relative encoding; a gate that opens only on, say, separators makes p count
// them. e (P, d_h) is learned per layer and shared by the heads, zero at init, as in the
// authors' code. P is the training length + 1 by default, as the authors size it (block
// size + 1, "position 0 is possible"): p reaches L when every gate of a training sequence
// of L tokens is open, so every training distance has its own row. The gates see the causal mask (keys after i count nothing), so CoPE is
// defined for causal attention only. Interpolating the logits q . e[floor p] and
// q . e[ceil p] rather than the embeddings is the same term and costs one (.., P) product
// per query, as the authors compute it.
//
// The fused path hands e to CoPE's own kernel (core/ops.h cope_attention: the softmax with
// the term, O(L) memory); the unfused path (attention maps, SSMax, a window) adds the term
// composed from tape ops (core/ops.h cope_logit_term) to its logits. Either way the gradient
// reaches q, k (through the gates and the term) and e.
#include <cmath>

#include "core/ops.h"
#include "core/options.h"
#include "layers/posenc/encoding.h"
#include "layers/posenc/table_cache.h"

namespace ordo {
namespace {

int64_t positions_of(const EncodingConfig& cfg) {
  const int64_t p = cfg.options.integer("cope-positions");
  return p > 0 ? p : (cfg.train_positions > 0 ? cfg.train_positions : cfg.max_len) + 1;
}

class CopeEncoding final : public PositionalEncoding {
 public:
  explicit CopeEncoding(const EncodingConfig& cfg) : P_(positions_of(cfg)) {
    ORDO_CHECK(cfg.n_heads > 0 && cfg.d_model % cfg.n_heads == 0, "cope: d_model = ", cfg.d_model,
               " is not divisible by n_heads = ", cfg.n_heads);
    ORDO_CHECK(P_ >= 1, "cope: --cope-positions must be >= 1 (0 = the training length + 1), got ", P_);
    d_head_ = cfg.d_model / cfg.n_heads;
    tables_.emplace(cfg, "cope", [&](int64_t l) {
      return std::make_unique<Parameter>("posenc.cope." + std::to_string(l), Tensor::zeros(Shape{P_, d_head_}));
    });
  }
  std::string name() const override { return "cope"; }

  AttentionForm form(Tape& t, const LayerInput& in) override {
    const Var e = t.param(tables_->at(in.layer));
    return SoftmaxForm{.contextual_table = e, .contextual = [this, e](Tape& tape, Var q, Var /*k*/, Var scores) {
                         return term(tape, q, scores, e);
                       }};
  }

  std::vector<Parameter*> parameters() override {
    std::vector<Parameter*> out;
    tables_->each([&](Parameter& p) { out.push_back(&p); });
    return out;
  }

 private:
  // The layer's term from q (B, H, L, d_h) and the logits scores (B, H, L, L): the gates count
  // the keys j <= i (core/ops.h cope_logit_term).
  Var term(Tape& t, Var q, Var scores, Var e) {
    const Shape sq = t.shape(q);
    ORDO_CHECK(sq.rank() == 4 && sq[3] == d_head_, "cope: q must be (B, H, L, ", d_head_, "), got ", sq);
    const int64_t L = sq[2];
    const Tensor& lower = lower_.get(L, [&] {
      Tensor c = Tensor::zeros(Shape{L, L});
      for (int64_t i = 0; i < L; ++i)
        for (int64_t j = 0; j <= i; ++j) c[i * L + j] = 1;
      return c;
    });
    return cope_logit_term(t, q, scores, e, lower);
  }

  int64_t P_, d_head_ = 0;
  std::optional<PerLayer<Parameter>> tables_;  // e (P, d_h) of each block that uses cope
  TableCache<int64_t, Tensor> lower_;           // (L, L): 1 where key <= query, by length
};

}  // namespace

EncodingInfo encoding_info_cope() {
  return {
      .name = "cope",
      .summary = "contextual: positions p_ij = sum of sigmoid(q_i . k_t) over t = j..i, logit term q_i . e[p_ij] (causal only)",
      .options = {{"cope-positions", OptionType::Int, "0", "contextual positions P (e has P rows; 0 = the training length + 1, the authors' size)",
                   ">= 0", [](double v) { return v >= 0; }}},
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<CopeEncoding>(c);
      },
      .in_default_study = false,
      .takes_random_positions = false,  // it reads no token positions: they come from the content
      .random_offset = RandomOffset::invariant,  // it reads no token positions
      .causal_only = true,
      .needs_logits = true,
      .contextual_kernel = true,
      .changes = {{2, "its position table now has the training length + 1 rows by default, as the authors "
                      "size it (block size + 1); older CoPE checkpoints have one row fewer (--cope-positions "
                      "<training length> now trains that CoPE)",
                   [](const std::map<std::string, std::string>& settings) {
                     auto p = settings.find("cope-positions");
                     // An explicit P means the same as before; 0 (or none given) is the new default.
                     return p == settings.end() || parse_int("cope-positions", p->second) == 0;
                   }}},
  };
}

}  // namespace ordo
