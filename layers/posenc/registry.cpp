// layers/posenc/registry.cpp: every positional encoding, found by name.
//
// To add an encoding: write layers/posenc/<name>.cpp defining
//   EncodingInfo encoding_info_<name>();   // name, summary, options, factory
// and add ONE line to ORDO_ENCODINGS below (docs/guides/add-encoding.md walks through it).
// The list is expanded twice: once to declare the functions, once to build the table, a
// Registry (core/registry.h) that checks the names and finds an entry by name.
#include <string>

#include "core/registry.h"
#include "layers/posenc/encoding.h"

// One line per encoding, in --help order: ORDO_ENCODING(name), then a backslash.
#define ORDO_ENCODINGS    \
  ORDO_ENCODING(none)       \
  ORDO_ENCODING(sinusoidal) \
  ORDO_ENCODING(learned)    \
  ORDO_ENCODING(rope)       \
  ORDO_ENCODING(alibi)      \
  ORDO_ENCODING(t5)         \
  ORDO_ENCODING(rbf)        \
  ORDO_ENCODING(cyclic)     \
  ORDO_ENCODING(fourier2d)  \
  ORDO_ENCODING(kerple_log) \
  ORDO_ENCODING(kerple_power) \
  ORDO_ENCODING(fire)       \
  ORDO_ENCODING(xpos)       \
  ORDO_ENCODING(cope)       \
  ORDO_ENCODING(fox)        \
  ORDO_ENCODING(stickbreaking) \
  ORDO_ENCODING(pope)       \
  ORDO_ENCODING(path)       \
  ORDO_ENCODING(transformer_xl) \
  /* end of the list: add new lines above this one */

namespace ordo {

// Pass 1: declare encoding_info_<name> of every encoding (each defined in its own file).
#define ORDO_ENCODING(name) EncodingInfo encoding_info_##name();
ORDO_ENCODINGS
#undef ORDO_ENCODING

namespace {

// What an entry must hold beyond a unique name (core/registry.h checks that).
void check_entry(const EncodingInfo& e) { ORDO_CHECK(e.make != nullptr, "encoding '", e.name, "' has no factory"); }

const Registry<EncodingInfo>& registry() {
  // Pass 2: the table, in the order listed.
#define ORDO_ENCODING(name) encoding_info_##name(),
  static const Registry<EncodingInfo> table("encoding", {ORDO_ENCODINGS}, "known", check_entry);
#undef ORDO_ENCODING
  return table;
}

}  // namespace

const std::vector<EncodingInfo>& encodings() { return registry().all(); }

Options encoding_options() {
  static const Options defaults = registry().merged_options();
  return defaults;
}

std::string encoding_names() { return registry().names(); }

const std::string& default_encoding() {
  const EncodingInfo* chosen = nullptr;
  for (const EncodingInfo& e : encodings()) {
    if (!e.is_default) continue;
    ORDO_CHECK(chosen == nullptr, "exactly one encoding must set is_default; ", chosen->name, " and ", e.name, " do");
    chosen = &e;
  }
  ORDO_CHECK(chosen != nullptr, "exactly one encoding must set is_default; none does");
  return chosen->name;
}

std::vector<std::string> default_study_encodings() {
  std::vector<std::string> names;
  for (const EncodingInfo& e : encodings())
    if (e.in_default_study) names.push_back(e.name);
  return names;
}

const EncodingInfo& encoding_info(const std::string& name) { return registry().at(name); }

std::unique_ptr<PositionalEncoding> make_encoding(const std::string& name, const EncodingConfig& cfg) {
  const EncodingInfo& info = encoding_info(name);
  ORDO_CHECK(cfg.causal || !info.causal_only, "encoding ", name,
             " is defined for causal attention only: add --causal (ordo compare runs it causal by itself)");
  return info.make(cfg);
}

}  // namespace ordo
