// tests/layers/model_fixtures.h: small models and batches shared by the layer tests.
#pragma once

#include <string>
#include <vector>

#include "core/rng.h"
#include "layers/model.h"
#include "train/config.h"

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

// The parameter of `enc` called `name` (e.g. "posenc.kerple_r1"); an unknown name fails.
inline Parameter& parameter_named(PositionalEncoding& enc, const std::string& name) {
  for (Parameter* p : enc.parameters())
    if (p->name == name) return *p;
  fail("no parameter ", name, " in encoding ", enc.name());
}

// A one-layer, d = 16 training configuration for quick training tests (2 heads, batch 8).
inline TrainConfig small_train_config(const std::string& task, const std::string& encoding) {
  TrainConfig c;
  c.task.name = task;
  c.model.encoding = encoding;
  c.model.d_model = 16;
  c.model.n_heads = 2;
  c.model.n_layers = 1;
  c.model.d_ff = 32;
  c.batch_size = 8;
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
