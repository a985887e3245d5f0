// layers/posenc/registry.cpp: every positional encoding, found by name.
//
// To add an encoding: write layers/posenc/<name>.cpp defining
//   std::unique_ptr<PositionalEncoding> make_<name>(const EncodingConfig&);
// and add ONE line to ORDO_ENCODINGS below (README.md, "Add a positional encoding", walks through it).
// The list is expanded twice: once to declare the factories, once to build the table.
#include <string>

#include "layers/posenc/encoding.h"

// One line per encoding, in --help order: ORDO_ENCODING(name, "summary"), then a backslash.
#define ORDO_ENCODINGS                                                                         \
  ORDO_ENCODING(none, "no positional information (NoPE)")                                     \
  ORDO_ENCODING(sinusoidal, "embed: fixed sin/cos of t / 10000^(2i/d)")                       \
  ORDO_ENCODING(learned, "embed: learned (max_len, d) table, clamped past max_len")           \
  ORDO_ENCODING(rope, "rotate: q and k pairs rotated by t * 10000^(-2i/d_h)")                 \
  ORDO_ENCODING(alibi, "bias: -m_h |t - u| with geometric head slopes")                       \
  ORDO_ENCODING(t5, "bias: learned scalar per (log-spaced bucket of u - t, head)")            \
  ORDO_ENCODING(rbf, "embed: Gaussian bumps centred evenly over [0, max_len)")                \
  ORDO_ENCODING(cyclic, "embed: harmonics of 2 pi t / L, the sequence as a ring")             \
  ORDO_ENCODING(fourier2d, "embed: sinusoidal over grid (t mod W, t div W); needs --grid-w")  \
  /* end of the list: add new lines above this one */

namespace ordo {

// Pass 1: declare make_<name> of every encoding (each defined in its own file).
#define ORDO_ENCODING(name, summary) std::unique_ptr<PositionalEncoding> make_##name(const EncodingConfig&);
ORDO_ENCODINGS
#undef ORDO_ENCODING

const std::vector<EncodingInfo>& encodings() {
  // Pass 2: the table, in the order listed.
#define ORDO_ENCODING(name, summary) EncodingInfo{#name, &make_##name, summary},
  static const std::vector<EncodingInfo> table = {ORDO_ENCODINGS};
#undef ORDO_ENCODING
  return table;
}

std::unique_ptr<PositionalEncoding> make_encoding(const std::string& name, const EncodingConfig& cfg) {
  for (const EncodingInfo& info : encodings())
    if (name == info.name) return info.make(cfg);
  std::string known;
  for (const EncodingInfo& info : encodings()) known += (known.empty() ? "" : ", ") + std::string(info.name);
  fail("unknown encoding '", name, "'; known: ", known);
}

}  // namespace ordo
