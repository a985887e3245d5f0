// tests/layers/model_fixtures.h: small models and batches shared by the layer tests.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/ops.h"
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

// Logits and every parameter's gradient (concatenated) of loss = sum(logits^2) / 2 (the
// logits as a constant weight).
inline std::pair<std::vector<Real>, std::vector<Real>> outputs_and_grads(EncoderModel& m, const TensorI32& x,
                                                                         const std::vector<int32_t>& lengths) {
  for (Parameter* p : m.parameters()) p->zero_grad();
  Tape t;
  Var logits = m.forward(t, x, lengths).logits;
  Tensor out = t.value(logits).clone();
  t.backward(sum(t, mul(t, logits, t.input(out))));
  std::vector<Real> grads;
  for (Parameter* p : m.parameters()) {
    auto g = p->grad.to_vector();
    grads.insert(grads.end(), g.begin(), g.end());
  }
  return {out.to_vector(), grads};
}

// max |a - b|; a and b have one size.
inline double max_diff(const std::vector<Real>& a, const std::vector<Real>& b) {
  ORDO_CHECK(a.size() == b.size(), "max_diff: ", a.size(), " values against ", b.size());
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(double(a[i]) - double(b[i])));
  return m;
}

// max |a - b| relative to max |b| (at least 1): the gradients of a spread model are large.
inline double relative_diff(const std::vector<Real>& a, const std::vector<Real>& b) {
  double scale = 1;
  for (Real x : b) scale = std::max(scale, std::fabs(double(x)));
  return max_diff(a, b) / scale;
}

// x W + b for one row x (in), a Linear's W (in, out) and b (out), in double: the layer computed
// literally, for the tests that write an encoding's definition out by hand.
inline std::vector<double> affine(const std::vector<double>& x, const Parameter& w, const Parameter& b) {
  const int64_t in = w.value.dim(0), out = w.value.dim(1);
  std::vector<double> y(static_cast<size_t>(out));
  for (int64_t o = 0; o < out; ++o) {
    double acc = static_cast<double>(b.value[o]);
    for (int64_t i = 0; i < in; ++i) acc += x[size_t(i)] * static_cast<double>(w.value[i * out + o]);
    y[size_t(o)] = acc;
  }
  return y;
}

// A model whose weights are moved well away from the N(0, 0.02) init by N(0, 0.5^2), the
// same in every model (drawn by name), so that attention, and with it position, visibly
// moves the logits.
inline std::unique_ptr<EncoderModel> spread_model(const ModelConfig& c) {
  auto m = std::make_unique<EncoderModel>(c);
  for (Parameter* p : m->parameters()) {
    CounterRng rng(3, hash64(p->name));
    for (int64_t i = 0; i < p->value.numel(); ++i) p->value[i] += static_cast<Real>(0.5 * rng.normal());
  }
  return m;
}

}  // namespace ordo::testing
