// train/checkpoint.cpp: checking a checkpoint against a model (see train/checkpoint.h).
#include "train/checkpoint.h"

#include <set>

#include "core/error.h"

namespace ordo {

void check_compatible(const Checkpoint& checkpoint, const std::vector<std::pair<std::string, Shape>>& expected) {
  std::map<std::string, const TensorF32*> saved;
  for (const auto& [name, value] : checkpoint.params) saved[name] = &value;
  std::set<std::string> wanted;
  for (const auto& [name, shape] : expected) {
    wanted.insert(name);
    auto it = saved.find(name);
    ORDO_CHECK(it != saved.end(), "parameter ", name, ": missing from the checkpoint");
    ORDO_CHECK(it->second->shape() == shape, "parameter ", name, ": checkpoint has ", it->second->shape(),
               ", model expects ", shape);
  }
  for (const auto& [name, value] : checkpoint.params)
    ORDO_CHECK(wanted.count(name), "parameter ", name, ": in the checkpoint but not in the model");
}

}  // namespace ordo
