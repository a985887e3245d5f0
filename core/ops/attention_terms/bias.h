// core/ops/attention_terms/bias.h: the bias table on the logits (LogitTerms::bias), a unit of
// the fused attention (core/ops/attention_terms/term.h says what a unit is).
//   logit:    + bias[h, t, u]: full (H, L, L), or relative (H, 2L - 1) at [h, (u - t) + L - 1]
//   gradient: dbias[h, t, u] += f_t dS[t, u], summed over the batch (and for a relative table
//             along each diagonal u - t)
// Per-(b, h) partial rows of a relative table are summed over b in order after the pairs
// (reduce); a full table's gradient is summed one head per thread (head_order), so the bits
// do not depend on the thread count. Its slice of the reference kernel is Reference, at the
// end.
#pragma once

#include <optional>

#include "core/ops/attention_terms/term.h"

namespace ordo {
namespace {

struct BiasTerm {
  static constexpr const char* kName = "bias";
  std::optional<Var> var;
  bool relative = false;
  int64_t B = 0, L = 0, H = 0;
  const Real* values = nullptr;

  BiasTerm() = default;
  BiasTerm(Tape& t, const LogitTerms& terms, const KernelPlan& p, const Shape& q_shape, const char* op)
      : var(terms.bias.values), relative(terms.bias.relative), B(p.B), L(p.L), H(p.H) {
    if (!var) return;
    const Shape& s = t.shape(*var);
    if (relative) {
      ORDO_CHECK(s == (Shape{p.H, 2 * p.L - 1}), op, ": a relative bias must be (H, 2L - 1) = (", p.H, ", ",
                 2 * p.L - 1, ") for q ", q_shape, " and L = ", p.L, ", got ", s);
    } else {
      ORDO_CHECK(s == (Shape{p.H, p.L, p.L}), op, ": a full bias must be (H, L, L) = (", p.H, ", ", p.L, ", ", p.L,
                 ") for q ", q_shape, " and L = ", p.L, ", got ", s);
    }
  }
  void inputs(std::vector<Var>& out) const {
    if (var) out.push_back(*var);
  }
  void row_inputs(std::vector<Var>&) const {}  // its gradient is summed, never stored by rows
  void bind(const Tape& t) { values = var ? t.value(*var).data() : nullptr; }
  bool wants_grad(const Tape& t) const { return var && t.needs_grad(*var); }
  bool head_order(const Tape& t) const { return !relative && wants_grad(t); }

  // Entries of one head's table (and of its gradient).
  int64_t entries_per_head() const { return relative ? 2 * L - 1 : L * L; }
  // Within one head's table, the entry of query t and key u0 (the keys after u0 follow it).
  int64_t index(int64_t t, int64_t u0) const { return relative ? (u0 - t) + L - 1 : t * L + u0; }

  struct Grads {
    Tape::GradSlot slot;
    Real* d = nullptr;          // dbias (H, entries_per_head())
    std::vector<Real> partial;  // relative, pairs in parallel: (B, H, 2L - 1)
    bool per_head = false;
  };
  Grads open(Tape& t, bool /*shared*/, bool per_head, const KernelPlan&) const {
    Grads g{slot_if(t, wants_grad(t), var.value_or(Var{}), true), nullptr, {}, false};
    g.d = g.slot.data();
    g.per_head = per_head;
    if (g.d && !per_head) g.partial.assign(static_cast<size_t>(B * H * entries_per_head()), Real(0));
    return g;
  }
  void reduce(Grads& g) const {
    if (!g.d || g.per_head) return;
    const int64_t W = entries_per_head();
    for (int64_t h = 0; h < H; ++h)
      for (int64_t j = 0; j < W; ++j) {
        Real acc = 0;
        for (int64_t b = 0; b < B; ++b) acc += g.partial[(b * H + h) * W + j];
        g.d[h * W + j] += acc;
      }
  }

  struct Pair {
    const BiasTerm& term;
    const PairAt& at;
    Real* dbias = nullptr;  // this pair's destination: head h's rows, or its partial row

    Pair(const BiasTerm& term_, const PairAt& at_, Grads* g) : term(term_), at(at_) {
      if (!g || !g->d) return;
      const int64_t W = term.entries_per_head();
      dbias = g->per_head ? g->d + at.h * W : g->partial.data() + (at.b * term.H + at.h) * W;
    }
    template <class Take>
    void scratch(Take&&, bool) {}
    void begin(bool) {}
    void tile(int64_t, int64_t, int64_t, int64_t) {}
    const Real* row(int64_t t, int64_t u0) const { return term.values + at.h * term.entries_per_head() + term.index(t, u0); }
    void add_scores(int64_t, int64_t t, int64_t u0, int64_t lo, int64_t nv, Real f, Real* __restrict s) const {
      if (!term.values || nv <= lo) return;
      const Real* __restrict br = row(t, u0);
      for (int64_t x = lo; x < nv; ++x) s[x] += br[x] * f;
    }
    Real logit_dot(int64_t t, int64_t u0, int64_t lo, int64_t nv, const Real* __restrict ds, Real acc) const {
      if (!term.values) return acc;
      const Real* __restrict br = row(t, u0);
      for (int64_t x = lo; x < nv; ++x) acc += ds[x] * br[x];
      return acc;
    }
    void gradient(const Real* dS, int64_t t0, int64_t nq, int64_t, int64_t u0, int64_t nk) {
      if (!dbias) return;
      for (int64_t i = 0; i < nq; ++i) {
        const int64_t t = t0 + i;
        const auto [lo, nv] = at.p.visible_columns(at.b, t, u0, nk);
        const Real* __restrict ds = dS + i * kTile;
        Real* __restrict db = dbias + term.index(t, u0);
        if (at.factor) {  // d bias = f_t dS
          for (int64_t x = lo; x < nv; ++x) db[x] += ds[x] * at.factor[t];
        } else {
          for (int64_t x = lo; x < nv; ++x) db[x] += ds[x];
        }
      }
    }
    Real query_dot(int64_t, Real qdot) const { return qdot; }
    void finish() {}
  };

  // The reference kernel's slice (term.h).
  struct Reference {
    std::optional<Var> var;
    bool relative = false;
    int64_t L = 0;
    const Real* values = nullptr;
    Tensor grad;

    Reference(const Tape& t, const LogitTerms& terms, const Shape& q, Real, const char* op)
        : var(terms.bias.values), relative(terms.bias.relative), L(q[1]) {
      if (!var) return;
      const Shape expected = relative ? Shape{q[2], 2 * L - 1} : Shape{q[2], L, L};
      ORDO_CHECK(t.shape(*var) == expected, op, ": the bias must be ", expected, ", got ", t.shape(*var));
    }
    int64_t entry(int64_t h, int64_t t, int64_t u) const {
      return relative ? h * (2 * L - 1) + (u - t) + L - 1 : (h * L + t) * L + u;
    }
    void inputs(std::vector<Var>& out) const {
      if (var) out.push_back(*var);
    }
    void bind(const Tape& t) { values = var ? t.value(*var).data() : nullptr; }
    Real logit(int64_t, int64_t h, int64_t t, int64_t u) const { return values ? values[entry(h, t, u)] : Real(0); }
    void open(const Tape& t) {
      if (var && t.needs_grad(*var)) grad = Tensor::zeros(t.shape(*var));
    }
    void gradient(int64_t, int64_t h, int64_t t, int64_t u, Real g) {
      if (grad.defined()) grad[entry(h, t, u)] += g;
    }
    void finish(Tape& t) {
      if (grad.defined()) t.add_grad(*var, std::move(grad));
    }
  };
};

}  // namespace
}  // namespace ordo
