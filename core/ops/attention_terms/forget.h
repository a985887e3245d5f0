// core/ops/attention_terms/forget.h: the Forgetting Transformer's forget term
// (LogitTerms::forget; Lin et al. 2025, docs/spec.md §2.17), a unit of the fused attention
// (core/ops/attention_terms/term.h says what a unit is).
//   logit:    + F[t, h] - F[u, h], F (B, L, H) or packed (T, H): the running sums of the
//             log forget gates
//   gradient: dF[t] += f_t dS[t, u] (as the query), dF[u] -= f_t dS[t, u] (as a key)
// A pair reads its column of F into a contiguous row; its gradient goes to the pair's own
// rows of dF (no sum across pairs). Its slice of the reference kernel is Reference, at the
// end.
#pragma once

#include <optional>

#include "core/ops/attention_terms/term.h"

namespace ordo {
namespace {

struct ForgetTerm {
  static constexpr const char* kName = "forget";
  std::optional<Var> var;
  const Real* values = nullptr;

  ForgetTerm() = default;
  ForgetTerm(Tape& t, const LogitTerms& terms, const KernelPlan& p, const Shape& q_shape, const char* op)
      : var(terms.forget) {
    if (!var) return;
    const Shape& s = t.shape(*var);
    const Shape expected = q_shape.rank() == 4 ? Shape{q_shape[0], q_shape[1], p.H} : Shape{q_shape[0], p.H};
    ORDO_CHECK(s == expected, op, ": the forget term F must be ", expected, " (q's rows, H) for q ", q_shape,
               ", got ", s);
  }
  void inputs(std::vector<Var>& out) const {
    if (var) out.push_back(*var);
  }
  void row_inputs(std::vector<Var>& out) const { inputs(out); }
  void bind(const Tape& t) { values = var ? t.value(*var).data() : nullptr; }
  bool wants_grad(const Tape& t) const { return var && t.needs_grad(*var); }
  bool head_order(const Tape&) const { return false; }

  struct Grads {
    Tape::GradSlot slot;
  };
  Grads open(Tape& t, bool shared, bool, const KernelPlan&) const {
    return Grads{slot_if(t, wants_grad(t), var.value_or(Var{}), shared)};
  }
  void reduce(Grads&) const {}

  struct Pair {
    const PairAt& at;
    const Real* forget = nullptr;  // the pair's rows of F (stride H); null: off
    Real* dforget = nullptr;       // the pair's rows of dF (stride H); null: not wanted
    bool store = false;
    Real *F = nullptr, *dF_row = nullptr, *dF_col = nullptr;

    Pair(const ForgetTerm& term, const PairAt& at_, Grads* g) : at(at_) {
      const int64_t first = at.p.head_row_offset(at.b, at.h);
      if (term.values) forget = term.values + first;
      if (g && g->slot.data()) dforget = g->slot.data() + first, store = g->slot.store();
    }
    template <class Take>
    void scratch(Take&& take, bool backward) {
      const int64_t n = forget ? at.p.tiles() * kTile : 0;
      take(F, n);                       // (L): the forget term of every row, contiguous
      take(dF_row, backward ? n : 0);   // (L): sum_u f_t dS[t, u], F_t's part as the query's
      take(dF_col, backward ? n : 0);   // (L): sum_t f_t dS[t, u], minus F_u's part as a key's
    }
    void begin(bool backward) {
      if (!forget) return;
      for (int64_t t = 0; t < at.L; ++t) F[t] = forget[t * at.p.H];
      if (backward) {
        std::fill(dF_row, dF_row + at.L, Real(0));
        std::fill(dF_col, dF_col + at.L, Real(0));
      }
    }
    void tile(int64_t, int64_t, int64_t, int64_t) {}
    void add_scores(int64_t, int64_t t, int64_t u0, int64_t lo, int64_t nv, Real f, Real* __restrict s) const {
      if (!forget || nv <= lo) return;  // F_t - F_u
      const Real Ft = F[t];
      const Real* __restrict Fu = F + u0;
      for (int64_t x = lo; x < nv; ++x) s[x] += (Ft - Fu[x]) * f;
    }
    Real logit_dot(int64_t t, int64_t u0, int64_t lo, int64_t nv, const Real* __restrict ds, Real acc) const {
      if (!forget) return acc;
      for (int64_t x = lo; x < nv; ++x) acc += ds[x] * (F[t] - F[u0 + x]);
      return acc;
    }
    void gradient(const Real* dS, int64_t t0, int64_t nq, int64_t, int64_t u0, int64_t nk) {
      if (!dforget) return;  // d(F_t - F_u) = f_t dS[t, u]
      for (int64_t i = 0; i < nq; ++i) {
        const int64_t t = t0 + i;
        const auto [lo, nv] = at.p.visible_columns(at.b, t, u0, nk);
        const Real* __restrict ds = dS + i * kTile;
        const Real ft = at.factor ? at.factor[t] : Real(1);
        Real row = 0;
        for (int64_t x = lo; x < nv; ++x) {
          row += ds[x];
          dF_col[u0 + x] += ds[x] * ft;
        }
        dF_row[t] += row * ft;
      }
    }
    Real query_dot(int64_t, Real qdot) const { return qdot; }
    void finish() {
      if (!dforget) return;
      for (int64_t t = 0; t < at.L; ++t) {
        const Real v_t = dF_row[t] - dF_col[t];
        dforget[t * at.p.H] = store ? v_t : dforget[t * at.p.H] + v_t;
      }
    }
  };

  // The reference kernel's slice (term.h).
  struct Reference {
    std::optional<Var> var;
    int64_t L = 0, H = 0;
    const Real* values = nullptr;
    Tensor grad;

    Reference(const Tape& t, const LogitTerms& terms, const Shape& q, Real, const char* op)
        : var(terms.forget), L(q[1]), H(q[2]) {
      if (var)
        ORDO_CHECK(t.shape(*var) == (Shape{q[0], L, H}), op, ": the forget term must be (", q[0], ", ", L, ", ", H,
                   "), got ", t.shape(*var));
    }
    int64_t entry(int64_t b, int64_t h, int64_t t) const { return (b * L + t) * H + h; }
    void inputs(std::vector<Var>& out) const {
      if (var) out.push_back(*var);
    }
    void bind(const Tape& t) { values = var ? t.value(*var).data() : nullptr; }
    Real logit(int64_t b, int64_t h, int64_t t, int64_t u) const {
      return values ? values[entry(b, h, t)] - values[entry(b, h, u)] : Real(0);
    }
    void open(const Tape& t) {
      if (var && t.needs_grad(*var)) grad = Tensor::zeros(t.shape(*var));
    }
    void gradient(int64_t b, int64_t h, int64_t t, int64_t u, Real g) {
      if (!grad.defined()) return;
      grad[entry(b, h, t)] += g;
      grad[entry(b, h, u)] -= g;
    }
    void finish(Tape& t) {
      if (grad.defined()) t.add_grad(*var, std::move(grad));
    }
  };
};

}  // namespace
}  // namespace ordo
