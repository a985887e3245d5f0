#include "layers/embedding.h"

#include "core/ops.h"
#include "layers/init.h"

namespace ordo {

Embedding::Embedding(std::string n, int64_t vocab, int64_t dim, uint64_t seed, double init_std)
    : Module(std::move(n)),
      table(child("table"), normal_init(Shape{vocab, dim}, init_std, seed, child("table"))) {}

Var Embedding::forward(Tape& t, const TensorI32& ids) { return embedding(t, t.param(table), ids); }

}  // namespace ordo
