// layers/posenc/registry.cpp: every positional encoding, found by name.
//
// To add an encoding: write layers/posenc/<name>.cpp defining
//   EncodingInfo encoding_info_<name>();   // name, summary, options, factory
// and add ONE line to ORDO_ENCODINGS below (docs/guides/add-encoding.md walks through it).
// The list is expanded twice: once to declare the functions, once to build the table.
#include <set>
#include <string>

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
  /* end of the list: add new lines above this one */

namespace ordo {

// Pass 1: declare encoding_info_<name> of every encoding (each defined in its own file).
#define ORDO_ENCODING(name) EncodingInfo encoding_info_##name();
ORDO_ENCODINGS
#undef ORDO_ENCODING

namespace {

std::vector<EncodingInfo> build_table() {
  // Pass 2: the table, in the order listed.
#define ORDO_ENCODING(name) encoding_info_##name(),
  std::vector<EncodingInfo> table = {ORDO_ENCODINGS};
#undef ORDO_ENCODING
  std::set<std::string> names;
  int defaults = 0;
  for (const EncodingInfo& e : table) defaults += e.is_default ? 1 : 0;
  ORDO_CHECK(defaults == 1, "exactly one encoding must set is_default; ", defaults, " do");
  for (const EncodingInfo& e : table) {
    ORDO_CHECK(names.insert(e.name).second, "encoding '", e.name, "' is registered twice");
    ORDO_CHECK(e.make != nullptr, "encoding '", e.name, "' has no factory");
  }
  return table;
}

}  // namespace

const std::vector<EncodingInfo>& encodings() {
  static const std::vector<EncodingInfo> table = build_table();
  return table;
}

Options encoding_options() {
  static const Options defaults = [] {
    std::vector<OptionSpec> specs;
    for (const EncodingInfo& e : encodings()) specs.insert(specs.end(), e.options.begin(), e.options.end());
    return Options(specs);
  }();
  return defaults;
}

std::string encoding_names() {
  std::string known;
  for (const EncodingInfo& info : encodings()) known += (known.empty() ? "" : ", ") + info.name;
  return known;
}

const std::string& default_encoding() {
  for (const EncodingInfo& e : encodings())
    if (e.is_default) return e.name;
  fail("no default encoding");  // build_table() checked there is one
}

std::vector<std::string> default_study_encodings() {
  std::vector<std::string> names;
  for (const EncodingInfo& e : encodings())
    if (e.in_default_study) names.push_back(e.name);
  return names;
}

const EncodingInfo& encoding_info(const std::string& name) {
  for (const EncodingInfo& info : encodings())
    if (name == info.name) return info;
  fail("unknown encoding '", name, "'; known: ", encoding_names());
}

std::unique_ptr<PositionalEncoding> make_encoding(const std::string& name, const EncodingConfig& cfg) {
  const EncodingInfo& info = encoding_info(name);
  ORDO_CHECK(cfg.causal || !info.causal_only, "encoding ", name,
             " is defined for causal attention only: add --causal (ordo compare runs it causal by itself)");
  return info.make(cfg);
}

}  // namespace ordo
