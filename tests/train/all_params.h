// tests/train/all_params.h: every parameter value of a trainer's model, in parameter order:
// what "the same parameters, bit for bit" compares.
#pragma once

#include <vector>

#include "train/trainer.h"

namespace ordo::test {

inline std::vector<Real> all_params(Trainer& t) {
  std::vector<Real> v;
  for (Parameter* p : t.model().parameters()) {
    auto x = p->value.to_vector();
    v.insert(v.end(), x.begin(), x.end());
  }
  return v;
}

}  // namespace ordo::test
