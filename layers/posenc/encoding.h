// layers/posenc/encoding.h: the one interface every positional encoding implements.
//
// Every positional scheme acts in one of three places (any subset):
//   (a) embed : adds a (B or 1, L, d) term to the token embeddings;
//   (b) rotate: transforms each head's q and k (B, L, H, d_h) before the dot product;
//   (c) bias  : adds a term to the attention logits, either a full (H, Lq, Lk) tensor or
//               a relative one (H, Lq + Lk - 1) that depends on u - t only.
// The attention layer calls these hooks and never names an encoding. An encoding is one
// file in this folder plus one line in registry.cpp (see README, "Add a positional
// encoding").
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/tape.h"

namespace ordo {

// Where the tokens of a batch sit. Sequences are left-aligned: token t of every sequence
// is at position t (0-based); positions >= lengths[b] are padding.
struct Positions {
  int64_t batch = 0;
  int64_t length = 0;            // padded length L
  std::vector<int32_t> lengths;  // real length of each sequence, size batch
  int64_t grid_w = 0;            // 2-D tasks: t -> (t mod grid_w, t div grid_w); 0 = 1-D
};

// Everything an encoding may need to build itself. Fields an encoding does not use are
// ignored; values it cannot work with are an error at construction.
struct EncodingConfig {
  int64_t d_model = 64;
  int64_t n_heads = 4;
  int64_t max_len = 512;   // learned: table rows; rbf: the span of the centres
  int64_t grid_w = 0;      // fourier2d: grid width (required there)
  bool causal = false;     // alibi: one-sided distances
  double rope_base = 10000;
  int64_t t5_buckets = 32;
  int64_t t5_max_distance = 128;
  double rbf_sigma = 0;    // 0 = the spacing of the centres
  uint64_t seed = 0;       // initialisation of learned tables
};

// A bias on the attention logits. relative: values is (H, Lq + Lk - 1) with entry
// [h, (u - t) + Lq - 1] the bias between query t and key u; otherwise (H, Lq, Lk).
struct AttentionBias {
  Var values;
  bool relative = false;
};

class PositionalEncoding {
 public:
  virtual ~PositionalEncoding() = default;
  virtual std::string name() const = 0;

  // (a) x (B, L, d) -> x + P.
  virtual Var embed(Tape&, Var x, const Positions&) { return x; }
  // (b) q, k (B, L, H, d_h) -> rotated q, k (the projections' layout: heads inner).
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

  // Learned tables, named "posenc.<what>".
  virtual std::vector<Parameter*> parameters() { return {}; }
};

using EncodingFactory = std::unique_ptr<PositionalEncoding> (*)(const EncodingConfig&);

struct EncodingInfo {
  const char* name;
  EncodingFactory make;
  const char* summary;  // one line for --help
};

// Every registered encoding, in registry order.
const std::vector<EncodingInfo>& encodings();
// Builds an encoding by name; an unknown name is an error listing the known ones.
std::unique_ptr<PositionalEncoding> make_encoding(const std::string& name, const EncodingConfig& cfg);

}  // namespace ordo
