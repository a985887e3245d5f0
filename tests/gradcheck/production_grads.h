// tests/gradcheck/production_grads.h: the cases of the float32-vs-float64 whole-model gradient
// test, shared by its two halves (the same source compiles in both builds):
//   - tests/gradcheck/f32_grads_main.cpp (float32, the path users train on: fused attention
//     with every bias kind, packed rows, linear_gelu / linear_residual / linear_rotate
//     epilogues, the fast exp / exp2 / log2, K-split weight-gradient GEMMs) writes each case's
//     parameters and gradients;
//   - tests/gradcheck/test_production_grads.cpp (float64, the composition that
//     test_model_grad.cpp checks against finite differences) loads the same parameters,
//     recomputes the gradients and compares them tensor by tensor.
//
// A case is one registered encoding x {pooled head on `order`, token head on `shift`} x
// {bidirectional, causal} x {one length per batch, mixed lengths (padding, packed rows)}, on
// 64 sequences of length 32-48: at least 2048 rows, so the weight gradients take the K-split
// GEMM. The model has the default head width d_h = 16 (the attention kernels' vector width on
// AVX-512) and depth, but d = 32, H = 2, d_ff = 64 instead of 64, 4, 256: the float64 half
// runs plain loops, and at the default width the 72 cases took minutes.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "core/ops.h"
#include "core/rng.h"
#include "data/task.h"
#include "layers/model.h"
#include "layers/posenc/encoding.h"

namespace ordo::prodgrad {

struct Case {
  std::string encoding;
  HeadType head = HeadType::Pooled;
  bool causal = false;
  bool same_length = true;

  std::string id() const {
    return encoding + "-" + head_name(head) + (causal ? "-causal" : "-bidir") + (same_length ? "-same" : "-mixed");
  }
};

constexpr int64_t kBatch = 64, kMinLen = 32, kMaxLen = 48;

inline std::vector<Case> cases() {
  std::vector<Case> out;
  for (const EncodingInfo& e : encodings())
    for (HeadType head : {HeadType::Pooled, HeadType::Token})
      for (bool causal : {false, true})
        for (bool same : {true, false})
          if (causal || !e.causal_only) out.push_back(Case{e.name, head, causal, same});
  return out;
}

inline TaskConfig task_config(const Case& c) {
  TaskConfig t;
  t.name = c.head == HeadType::Pooled ? "order" : "shift";
  t.min_len = kMinLen;
  t.max_len = kMaxLen;
  return t;
}

inline Batch batch(const Case& c) {
  auto task = make_task(task_config(c));
  return task->batch(/*seed=*/3, /*index=*/5, kBatch, c.same_length);
}

// The model for the case's task; `production`: the float32 training
// path (fused attention, packed rows, GEMM epilogues), otherwise the reference composition:
// unfused attention, no packing, linear / gelu / add / rotate as separate ops.
inline ModelConfig model_config(const Case& c, bool production) {
  auto task = make_task(task_config(c));
  ModelConfig m;
  m.d_model = 32;
  m.n_heads = 2;
  m.d_ff = 64;
  m.vocab_size = task->vocab_size();
  m.num_classes = task->num_classes();
  m.head = c.head;
  m.causal = c.causal;
  m.encoding = c.encoding;
  m.posenc.max_len = kMaxLen;
  m.posenc.options.set("grid-w", "8");  // fourier2d needs one; the others ignore it
  m.seed = 21;
  m.fused_attention = production;
  m.pack_sequences = production;
  m.fused_epilogues = production;
  return m;
}

// Moves every parameter off its initial values (N(0, 0.02) weights give near-uniform
// attention and near-zero gradients in places): + N(0, 0.05^2) per element.
inline void perturb(EncoderModel& model) {
  for (Parameter* p : model.parameters()) {
    CounterRng rng(7, hash64(p->name));
    for (int64_t i = 0; i < p->value.numel(); ++i) p->value[i] += static_cast<Real>(0.05 * rng.normal());
    p->project();  // bounded parameters (kerple, fire) stay where training keeps them
  }
}

// The training loss: mean cross-entropy over the scored positions.
inline Var loss(Tape& t, EncoderModel& model, const Batch& b) {
  Var logits = model.forward(t, b.tokens, b.lengths).logits;
  const int64_t N = b.targets.numel(), C = t.shape(logits)[-1];
  return cross_entropy(t, reshape(t, logits, Shape{N, C}), b.targets.reshaped(Shape{N}),
                       b.score.reshaped(Shape{N}));
}

}  // namespace ordo::prodgrad
