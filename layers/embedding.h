// layers/embedding.h: token ids -> vectors, a table E (V, d) ~ N(0, 0.02).
#pragma once

#include "layers/module.h"

namespace ordo {

class Embedding : public Module {
 public:
  Embedding(std::string name, int64_t vocab, int64_t dim, uint64_t seed, double init_std = 0.02);
  Var forward(Tape& t, const TensorI32& ids);  // (...) -> (..., d)
  void collect_parameters(std::vector<Parameter*>& out) override { out.push_back(&table); }
  Parameter table;
};

}  // namespace ordo
