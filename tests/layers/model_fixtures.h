// tests/layers/model_fixtures.h: small models and batches shared by the layer tests.
#pragma once

#include <string>
#include <vector>

#include "core/rng.h"
#include "layers/model.h"

namespace ordo::testing {

// A small model for `encoding` (every encoding works with these settings: d divisible by
// 4 for fourier2d, even head width for rope, a grid width for fourier2d).
inline ModelConfig small_model(const std::string& encoding, HeadType head, bool causal = false,
                               int64_t layers = 2) {
  ModelConfig c;
  c.vocab_size = 12;
  c.num_classes = 3;
  c.d_model = 16;
  c.n_heads = 2;
  c.n_layers = layers;
  c.d_ff = 32;
  c.head = head;
  c.causal = causal;
  c.encoding = encoding;
  c.posenc.max_len = 32;
  c.posenc.options.set("grid-w", "4");
  c.seed = 11;
  return c;
}

// Random non-PAD token ids (1..vocab-1) for a (B, L) batch.
inline TensorI32 random_tokens(int64_t B, int64_t L, int64_t vocab, uint64_t stream) {
  TensorI32 t = TensorI32::empty(Shape{B, L});
  CounterRng rng(99, stream);
  for (int64_t i = 0; i < t.numel(); ++i) t[i] = static_cast<int32_t>(rng.uniform_int(1, vocab - 1));
  return t;
}

}  // namespace ordo::testing
