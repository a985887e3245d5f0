// train/optimizers/registry.cpp: every optimizer, found by name.
//
// To add an optimizer: write train/optimizers/<name>.cpp defining
//   OptimizerInfo optimizer_info_<name>();   // name, summary, options, factory, check
// and add ONE line to ORDO_OPTIMIZERS below (docs/guides/add-optimizer.md walks through it).
#include <set>

#include "train/optimizer.h"

// One line per optimizer, in --help order.
#define ORDO_OPTIMIZERS   \
  ORDO_OPTIMIZER(adamw)   \
  ORDO_OPTIMIZER(sgd)     \
  /* end of the list: add new lines above this one */

namespace ordo {

#define ORDO_OPTIMIZER(name) OptimizerInfo optimizer_info_##name();
ORDO_OPTIMIZERS
#undef ORDO_OPTIMIZER

namespace {

std::vector<OptimizerInfo> build_table() {
#define ORDO_OPTIMIZER(name) optimizer_info_##name(),
  std::vector<OptimizerInfo> table = {ORDO_OPTIMIZERS};
#undef ORDO_OPTIMIZER
  std::set<std::string> names;
  for (const OptimizerInfo& o : table) {
    ORDO_CHECK(names.insert(o.name).second, "optimizer '", o.name, "' is registered twice");
    ORDO_CHECK(o.make != nullptr, "optimizer '", o.name, "' has no factory");
  }
  return table;
}

}  // namespace

const std::vector<OptimizerInfo>& optimizers() {
  static const std::vector<OptimizerInfo> table = build_table();
  return table;
}

Options optimizer_options() {
  static const Options defaults = [] {
    std::vector<OptionSpec> specs;
    for (const OptimizerInfo& o : optimizers()) specs.insert(specs.end(), o.options.begin(), o.options.end());
    return Options(specs);
  }();
  return defaults;
}

std::string optimizer_names() {
  std::string known;
  for (const OptimizerInfo& o : optimizers()) known += (known.empty() ? "" : ", ") + o.name;
  return known;
}

const OptimizerInfo& optimizer_info(const std::string& name) {
  for (const OptimizerInfo& o : optimizers())
    if (o.name == name) return o;
  fail("unknown optimizer '", name, "'; known: ", optimizer_names());
}

}  // namespace ordo
