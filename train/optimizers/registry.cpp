// train/optimizers/registry.cpp: every optimizer, found by name.
//
// To add an optimizer: write train/optimizers/<name>.cpp defining
//   OptimizerInfo optimizer_info_<name>();   // name, summary, options, factory, check
// and add ONE line to ORDO_OPTIMIZERS below (docs/guides/add-optimizer.md walks through it).
#include "core/registry.h"
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

// What an entry must hold beyond a unique name (core/registry.h checks that).
void check_entry(const OptimizerInfo& o) { ORDO_CHECK(o.make != nullptr, "optimizer '", o.name, "' has no factory"); }

const Registry<OptimizerInfo>& registry() {
#define ORDO_OPTIMIZER(name) optimizer_info_##name(),
  static const Registry<OptimizerInfo> table("optimizer", {ORDO_OPTIMIZERS}, "known", check_entry);
#undef ORDO_OPTIMIZER
  return table;
}

}  // namespace

const std::vector<OptimizerInfo>& optimizers() { return registry().all(); }

Options optimizer_options() {
  static const Options defaults = registry().merged_options();
  return defaults;
}

std::string optimizer_names() { return registry().names(); }

const OptimizerInfo& optimizer_info(const std::string& name) { return registry().at(name); }

}  // namespace ordo
