// layers/posenc/encoding.h: the one interface every positional encoding implements.
//
// Every positional scheme acts in one of four places (any subset):
//   (a) embed : adds a (B or 1, L, d) term to the token embeddings;
//   (b) rotate: transforms each head's q and k (B, L, H, d_h) before the dot product, to
//               the same or a larger width (PoPE: 2 d_h, polar coordinates);
//   (c) bias  : adds a term to the softmax's logits, either a full (H, Lq, Lk) tensor or a
//               relative one (H, Lq + Lk - 1) that depends on u - t only, once per pass;
//   (d) form  : per layer, the attention's form, one value of a closed set (AttentionForm):
//               - SoftmaxForm, the softmax of q . k / sqrt(d_h) plus (c) plus the terms the
//                 encoding gives: forget gates (FoX), relative keys (Transformer-XL), a
//                 contextual term from the logits (CoPE);
//               - StickBreakingForm, weights in place of the softmax (stick-breaking);
//               - PathForm, Householder products between query and key (PaTH).
//               A form carries only what it can use: stick-breaking and PaTH take no logit
//               term, so none can be given to them.
// The attention layer calls these hooks and never names an encoding. An encoding is one
// file in this folder, which also declares the encoding's options (EncodingInfo), plus one
// line in registry.cpp (docs/guides/add-encoding.md walks through it).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/ops.h"
#include "core/options.h"
#include "core/tape.h"

namespace ordo {

// Where the tokens of a batch sit. Sequences are left-aligned: token t of every sequence
// is at position t (0-based); tokens t >= lengths[b] are padding. With randomized positions
// (Ruoss et al. 2023; docs/spec.md §2.13) token t sits at index[t] instead, the same for
// every sequence of the batch: strictly increasing, so order is kept, but with gaps. An
// encoding reads positions through at(t) and must not assume 0..L-1 unless contiguous().
struct Positions {
  int64_t batch = 0;
  int64_t length = 0;            // padded length L
  std::vector<int32_t> lengths;  // real length of each sequence, size batch
  std::vector<int32_t> index = {};  // empty: token t at position t; else size L, increasing
  // A random offset per sequence (--random-offset, Huang et al. 2025; docs/spec.md §2.13):
  // token t of sequence b sits at offsets[b] + at(t). Empty: every offset 0. Only an encoding
  // with EncodingInfo::random_offset == reads reads it; for the shift-invariant ones an offset
  // changes nothing, so they need not.
  std::vector<int32_t> offsets = {};

  int64_t at(int64_t t) const { return index.empty() ? t : index[static_cast<size_t>(t)]; }
  int64_t at(int64_t b, int64_t t) const { return (offsets.empty() ? 0 : offsets[static_cast<size_t>(b)]) + at(t); }
  bool contiguous() const { return index.empty(); }
};

// What --random-offset (every position of a training sequence shifted by one random
// constant) means for an encoding (EncodingInfo::random_offset).
enum class RandomOffset {
  refused,    // it reads absolute positions and does not take the shift: a run is refused
  reads,      // it adds its term at the shifted positions (Positions::at(b, t)): learned, sinusoidal
  invariant,  // it depends on positions only through differences (or not at all), so the
              // shift changes nothing: accepted, and it has nothing to read
};

// The values of every registered encoding's options (EncodingInfo::options), at their
// defaults.
Options encoding_options();

// Everything an encoding may need to build itself. Fields an encoding does not use are
// ignored; values it cannot work with are an error at construction.
struct EncodingConfig {
  int64_t d_model = 64;
  int64_t n_heads = 4;
  int64_t n_layers = 1;           // for per-layer parameters (a contextual encoding)
  int64_t max_len = 512;          // the longest position the encoding is sized for (tables, spans)
  int64_t train_positions = 0;    // positions a training sequence occupies; 0 = not known
  bool causal = false;            // the attention is causal (one-sided distances)
  bool random_positions = false;  // training positions drawn from [0, max_len) (docs/spec.md §2.13)
  uint64_t seed = 0;              // initialisation of learned tables
  Options options = encoding_options();  // each encoding reads its own, by name
  // The blocks that use the encoding (--layer-encodings, docs/spec.md §2.15); empty: all
  // n_layers. A per-layer encoding (cope, fox, path) has parameters in these blocks only.
  std::vector<int64_t> layers;
  bool uses_layer(int64_t l) const {
    return l >= 0 && l < n_layers && (layers.empty() || std::find(layers.begin(), layers.end(), l) != layers.end());
  }
};

// The per-layer parts of an encoding (CoPE's tables, FoX's gates, PaTH's factors): one T for
// each block that uses it, made by make(l), and none for the others.
template <class T>
class PerLayer {
 public:
  PerLayer(const EncodingConfig& cfg, std::string encoding, const std::function<std::unique_ptr<T>(int64_t)>& make)
      : encoding_(std::move(encoding)) {
    for (int64_t l = 0; l < cfg.n_layers; ++l) slots_.push_back(cfg.uses_layer(l) ? make(l) : nullptr);
  }
  // Block `layer`'s part; an error for a block that does not use the encoding.
  T& at(int64_t layer) const {
    ORDO_CHECK(layer >= 0 && layer < static_cast<int64_t>(slots_.size()) && slots_[static_cast<size_t>(layer)],
               encoding_, ": block ", layer, " does not use it (a model of ", slots_.size(),
               " blocks gave it other ones)");
    return *slots_[static_cast<size_t>(layer)];
  }
  // The parts there are, in block order.
  template <class F>
  void each(F&& f) const {
    for (const auto& slot : slots_)
      if (slot) f(*slot);
  }

 private:
  std::string encoding_;
  std::vector<std::unique_ptr<T>> slots_;
};

// A bias on the attention logits. relative: values is (H, Lq + Lk - 1) with entry
// [h, (u - t) + Lq - 1] the bias between query t and key u; otherwise (H, Lq, Lk).
struct AttentionBias {
  Var values;
  bool relative = false;
};

// What one layer's attention hands an encoding's form hook (d).
struct LayerInput {
  // The layer's input (B, L, d), or packed (T, d): the normed block input q, k and v are
  // projected from.
  Var x = {};
  // The layer's queries after rotate: (B, L, H, d_h), or packed (T, H, d_h).
  Var q = {};
  const Positions* positions = nullptr;  // pos tells a packed x's rows
  int64_t layer = 0;                     // the block's index, for per-layer parameters
};

// ---- the attention forms: a closed set (AttentionForm) ----------------------------------------

// Transformer-XL's term: the queries that take q's place in q . k (q + u), and the relative
// keys: the logit of query t and key u gets keys.queries_t . keys.keys[pos(t) - pos(u) +
// offset] over sqrt(d_h) (core/ops.h RelativeKeys; positions: Positions::index). The fused
// kernels add it tile by tile; the unfused path forms it (relative_logits).
struct RelativeKeyTerm {
  Var content_queries;  // as q
  RelativeKeys keys;
};

// The softmax of the logits q_t . k_u / sqrt(d_h), plus the encoding's bias (c), plus the
// terms below (each optional, any subset; SSMax scales the sum when the model has it).
struct SoftmaxForm {
  // FoX: log forget gates (rows..., H) from LayerInput::x. The attention adds
  // sum_{l = u+1 .. t} log f_l to the logit of query t and key u, from running sums inside the
  // fused attention (fox.cpp).
  std::optional<Var> log_forget_gates = {};
  // Transformer-XL (transformer_xl.cpp).
  std::optional<RelativeKeyTerm> relative_keys = {};
  // CoPE (cope.cpp): its position table e (P, d_h), which the fused path hands to its own
  // kernel (core/ops.h cope_attention); and the same term for the unfused path, a (B, H, L, L)
  // term from the layer's q, k (B, H, L, d_h) and its logits q k^T / sqrt(d_h) (B, H, L, L)
  // before any other term, called on the tape form() was given. With SSMax the kernel does
  // not apply: the encoding says so (EncodingInfo::needs_logits, contextual_kernel), and the model takes
  // the unfused path. (A window changes nothing between the two: a visible key's positions
  // count the keys from it to the query, all visible.)
  std::optional<Var> contextual_table = {};
  std::function<Var(Tape&, Var q, Var k, Var scores)> contextual = {};
};

// Weights in place of the softmax (stick-breaking, stickbreaking.cpp): each key takes a share
// of what the nearer keys left (core/ops.h stickbreaking_attention). No logit term.
struct StickBreakingForm {
  StickBreakingRule rule = {};  // its own key, its remainder
};

// PaTH (path.cpp; core/ops.h path_attention): the factors of H_l = I - beta_l w_l w_l^T from
// LayerInput::x, w (rows..., H, d_h) each head's vector of (about) unit length and beta
// (rows..., H); the logit of query t and key u <= t is q_t^T H_t ... H_{u+1} k_u / sqrt(d_h)
// in place of q_t . k_u, under the softmax. No other logit term (SSMax, a scale of the whole
// logit, applies).
struct PathForm {
  Var w = {};
  Var beta = {};
};

using AttentionForm = std::variant<SoftmaxForm, StickBreakingForm, PathForm>;

class PositionalEncoding {
 public:
  virtual ~PositionalEncoding() = default;
  virtual std::string name() const = 0;

  // (a) x (B, L, d) -> x + P.
  virtual Var embed(Tape&, Var x, const Positions&) { return x; }
  // (b) q, k (B, L, H, d_h) -> rotated q, k (the projections' layout: heads inner), of width
  // d_h or wider (the attention pads v to match, and keeps the scale 1/sqrt(d_h)).
  virtual std::pair<Var, Var> rotate(Tape&, Var q, Var k, const Positions&) { return {q, k}; }
  // When rotate() is rotate_pairs of q and k viewed as (B, L, H d_h) with tables cos and sin
  // (L, H d_h / 2) (rope), the tables for H heads: the attention layer then rotates inside
  // the q and k projections (core/ops.h linear_rotate, the same bits) instead of calling
  // rotate().
  virtual std::optional<std::pair<Tensor, Tensor>> rotation_tables(const Positions&, int64_t /*heads*/) {
    return std::nullopt;
  }
  // (c) computed once per forward pass and shared by every layer.
  virtual std::optional<AttentionBias> bias(Tape&, const Positions&) { return std::nullopt; }
  // (d) per layer: the form of the layer's attention (AttentionForm above): the softmax with
  // no term beyond the bias unless the encoding says otherwise.
  virtual AttentionForm form(Tape&, const LayerInput&) { return SoftmaxForm{}; }

  // Learned tables, named "posenc.<what>".
  virtual std::vector<Parameter*> parameters() { return {}; }
};

using EncodingFactory = std::unique_ptr<PositionalEncoding> (*)(const EncodingConfig&);

// The revision of the encodings' definitions, written into every checkpoint. Bumped when a
// change to an encoding makes an older checkpoint's parameters mean something else; the
// change is listed in that encoding's EncodingInfo::changes, and a checkpoint of it written
// before the change is refused, naming it (train/checkpoint.h check_encoding_revision).
// 1: every checkpoint before the revision was recorded. 2: FIRE's init and threshold, CoPE's
// position count and t5's causal buckets as their authors' code has them (issue 31). 3:
// stick-breaking's remainder to the query's own value, and fox's and path's parameters only in
// the blocks that use them under --layer-encodings (issue 49).
constexpr int64_t kEncodingsRevision = 3;

// One such change.
struct EncodingChange {
  int64_t revision;  // the first revision with the change
  std::string what;  // what changed, and what an older checkpoint holds instead
  // Whether a run with these settings (a checkpoint's config) is affected; null: every run.
  bool (*affects)(const std::map<std::string, std::string>& settings) = nullptr;
};

// What an encoding's file declares about it: the registry (registry.cpp) lists one
// `EncodingInfo encoding_info_<name>()` per encoding.
struct EncodingInfo {
  std::string name;
  std::string summary;                // one line for --help
  std::vector<OptionSpec> options;    // its own options: flags, --help, logs, checkpoints
  EncodingFactory make;
  // Checks what the chosen encoding needs of its options together (ranges of single values
  // are OptionSpec::accepts), before a run is built, naming the --flag to change. Runs for
  // the chosen encoding only. May be null.
  void (*check)(const Options&) = nullptr;
  // Part of the default comparison (`ordo compare` without --encodings, `ordo demo`).
  bool in_default_study = true;
  // Reads positions through Positions::at, so that randomized positions (--random-positions)
  // reach it; false: such a run is refused (cyclic and fourier2d tie positions to a
  // sequence's length or a grid, where a random subset has no meaning).
  bool takes_random_positions = true;
  // What a random offset per training sequence (--random-offset) does to it; refused unless
  // the encoding's file says otherwise (docs/spec.md §2.13).
  RandomOffset random_offset = RandomOffset::refused;
  // Defined for causal attention only (xpos: its scale grows without bound toward later
  // keys): make_encoding refuses a bidirectional configuration, and a study runs the
  // encoding causal, labelled "causal=true" (study/study.cpp).
  bool causal_only = false;
  // Its form keeps a softmax (SoftmaxForm, PathForm); false: its weights replace it
  // (StickBreakingForm), so there is no softmax for --score-scale to scale, and the model
  // refuses the flag with it.
  bool has_softmax = true;
  // Its softmax form has a contextual term (SoftmaxForm::contextual), which needs the logits
  // formed: a model with it takes the unfused attention (O(L^2) per layer), unless the term
  // has its own kernel (below) and the model no SSMax.
  bool needs_logits = false;
  // With needs_logits: its form also gives the table of CoPE's kernel
  // (SoftmaxForm::contextual_table, core/ops.h cope_attention, which takes no SSMax), which the
  // fused path runs instead.
  bool contextual_kernel = false;
  // The encoding a model gets when none is named (exactly one entry sets it).
  bool is_default = false;
  // The `ordo bench` configurations that train with this encoding (docs/spec.md §8; each
  // configuration is named by exactly one encoding).
  std::vector<std::string> benchmarks = {};
  // The encoding the per-encoding cost table measures every entry against (`ordo bench
  // --encodings`, docs/spec.md §8): no position at all, the cheapest attention (exactly one
  // entry sets it).
  bool cost_baseline = false;
  // Changes to the definition that older checkpoints predate (see kEncodingsRevision).
  std::vector<EncodingChange> changes = {};
};

// Every registered encoding, in registry order.
const std::vector<EncodingInfo>& encodings();
// Builds an encoding by name; an unknown name is an error listing the known ones.
std::unique_ptr<PositionalEncoding> make_encoding(const std::string& name, const EncodingConfig& cfg);
// The registry entry of `name`; an unknown name is an error listing the known ones.
const EncodingInfo& encoding_info(const std::string& name);
// "none, sinusoidal, ...": the registered names, for help and error messages.
std::string encoding_names();
// The entry with is_default, and the names with in_default_study, in registry order.
const std::string& default_encoding();
std::vector<std::string> default_study_encodings();

}  // namespace ordo
