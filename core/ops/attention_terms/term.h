// core/ops/attention_terms/term.h: what a logit term of the fused attention sees, and what it
// owes the kernel (core/ops/fused_attention.cpp). A logit term adds its value to the logit of
// every visible (query t, key u) of a head before the softmax, z[t, u] = s q_t . k_u + sum of
// the terms; each term is one unit in this folder (bias.h, forget.h, relative_keys.h), and
// the kernel runs the units of its list (LogitTermUnits in core/ops/fused_attention.cpp) in
// that order. SSMax's row factor f_t (S[t, u] = f_t z[t, u]) stays in the kernel, and the
// window in the mask.
//
// A unit Term has a name, kName (a term outside LogitTerms' fields takes its inputs from
// LogitTerms::more under it), and the three lives of a call:
//   the call:      Term() (off), Term(Tape&, const LogitTerms&, const KernelPlan&, q_shape, op)
//                  checks its inputs' shapes (ordo::Error naming op) and keeps its Vars;
//                  inputs(out) (its Vars, for the tape), bind(tape) (their values' data),
//                  wants_grad(tape), row_inputs(out) (the Vars whose gradient rows the pairs
//                  store, for the kernel's aliasing rule), head_order(tape) (its gradient is
//                  summed per head over the batch in order: one head per thread).
//   the backward:  Grads open(Tape&, bool shared, bool per_head, const KernelPlan&): its
//                  gradient slots (Tape::grad_slot) for one backward call; reduce(Grads&):
//                  what it sums after the pairs ran.
//   one (b, h):    Pair(const Term&, const PairAt&, Grads* (null in the forward)) with
//                    scratch(take, backward)  its arrays in the pair's scratch, by name; the
//                        scratch is reused and not cleared: write an array before reading it
//                    begin(backward)           once per pair, before any tile
//                    tile(t0, nq, u0, nk)      once per tile pair, before its rows' scores
//                    add_scores(i, t, u0, lo, nv, f, s)  row i (query t) of the tile: adds
//                        f times its logit to s[x] for the visible keys u0 + x, x in
//                        [lo, nv); f = log2(e) f_t (the scores are in base 2; f_t = 1
//                        without SSMax). A unit may build f into its own arrays instead,
//                        as the relative keys scale their queries as q.
//                    gradient(dS, t0, nq, rows, u0, nk)  a tile's dS into its gradients: dS
//                        is dL/dS (natural units, S after SSMax's factor), so its logit's
//                        gradient is f_t dS (and an array holding log2(e) gives ln 2 back)
//                    logit_dot(t, u0, lo, nv, ds, acc)   acc + sum_x ds[x] * its logit (SSMax)
//                    query_dot(t, qdot)        qdot + its share of q_t . dq_t / s (SSMax; the
//                        kernel multiplies the sum by the scale s)
//                    finish()                  writes the pair's gradients
// Every hook of a unit that is off returns at once.
//
// Beside its kernel, a unit holds its slice of the reference kernel
// (core/ops/attention_reference.cpp), written to be read: Term::Reference, for q (B, L, H, d),
//   Reference(tape, terms, q_shape, scale, op)  checks its inputs (ordo::Error naming op)
//   inputs(out), bind(tape)                     its Vars; their values' data
//   logit(b, h, t, u)                           its logit of query t and key u (0 when off)
//   open(tape), gradient(b, h, t, u, g), finish(tape)   a zeroed gradient where wanted;
//                                               g = f_t dS[t, u], its logit's gradient; the
//                                               gradients handed to the tape
// The list of units (core/ops/attention_terms/list.h) serves both kernels. Internal linkage:
// each kernel's translation unit includes the units.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/ops/attention_geometry.h"
#include "core/ops/fused_attention_tiles.h"
#include "core/tape.h"

namespace ordo {
namespace {

// The geometry (core/ops/attention_geometry.h) and what the softmax kernel adds to it.
struct KernelPlan : AttentionGeometry {
  explicit KernelPlan(AttentionGeometry g) : AttentionGeometry(std::move(g)) {}
  int64_t dp = 0;  // d padded to a multiple of kVec
  Real scale = 1;
  Real qscale = 1;  // scale * log2(e): q's factor, for scores in base 2

  int64_t tiles() const { return (L + kTile - 1) / kTile; }
  // Offset of row 0 of pair (b, h) in a tensor with rows of H values ((B, L, H) or (T, H)).
  int64_t head_row_offset(int64_t b, int64_t h) const { return row0(b) * H + h; }
  // Keys [key_begin(t), key_end(b, t)) are visible to query t.
  int64_t key_begin(int64_t t) const { return mask.key_begin(t); }
  int64_t key_end(int64_t b, int64_t t) const { return mask.key_end(t, key_lengths[b]); }
  // The first key tile any query of the tile starting at t0 sees.
  int64_t first_key_tile(int64_t t0) const { return key_begin(t0) / kTile * kTile; }
  // The keys of the tile at u0 (nk keys) that query t sees, as tile columns [lo, nv).
  std::pair<int64_t, int64_t> visible_columns(int64_t b, int64_t t, int64_t u0, int64_t nk) const {
    const int64_t nv = std::clamp<int64_t>(key_end(b, t) - u0, 0, nk);
    return {std::min(nv, std::clamp<int64_t>(key_begin(t) - u0, 0, nk)), nv};
  }
  // SSMax: log n_t of queries t0 .. t0 + n - 1 into logn (n_t the keys query t sees; 0 for a
  // query that sees none), and their logits' factors s_h log n_t into factor.
  void log_lengths(const Real* s, int64_t b, int64_t h, int64_t t0, int64_t n, Real* logn, Real* factor) const {
    for (int64_t i = 0; i < n; ++i) {
      const int64_t keys = key_end(b, t0 + i) - key_begin(t0 + i);
      logn[i] = keys > 0 ? static_cast<Real>(std::log(static_cast<double>(keys))) : 0;
      factor[i] = s[h] * logn[i];
    }
  }
};

// One (b, h) pair as the units see it.
struct PairAt {
  const KernelPlan& p;
  int64_t b, h;
  int64_t L;              // the pair's query rows (p.rows(b))
  int64_t o;              // offset of its row 0 in q and k (rows p.ld apart; v: p.value_offset)
  const Real* factor;     // SSMax: f_t = s_h log n_t of every row t; null without SSMax
};

// A tile with nq real query rows and nk real keys is computed on rows(nq) x cols(nk) of
// its (kTile, kTile) buffers: short sequences (L = 16 in a batch) do not pay for 64 x 64.
// Columns are rounded to one vector (and to kLanes, for exp_row), not to the two-vector
// register block: tile_product runs a last single vector column as its own blocks, so a tile
// of 8-16 keys is 16 columns wide with AVX-512, not 32. The columns past nk are masked
// (p = 0, dS = 0) and every product over them adds exact zeros, so the result is the same
// bits either way; only the work shrinks.
constexpr int64_t kColStep = kVec > kLanes ? kVec : kLanes;
inline int64_t tile_rows(int64_t nq) { return round_up(nq, kMR); }
inline int64_t tile_cols(int64_t nk) { return round_up(nk, kColStep); }

// dst row (d values) = or += s * src row.
inline void write_row(Real* __restrict dst, const Real* __restrict src, int64_t d, Real s, bool store) {
  int64_t c = 0;
  for (; c + kVec <= d; c += kVec) {  // whole vectors (the plain loop became a memcpy call per row)
    const VReal v = s * load_vec(src + c);
    store_vec(dst + c, store ? v : load_vec(dst + c) + v);
  }
  for (; c < d; ++c) dst[c] = store ? s * src[c] : dst[c] + s * src[c];
}

// A gradient slot when wanted (empty otherwise): summed, or the first form.
inline Tape::GradSlot slot_if(Tape& t, bool wanted, Var x, bool summed) {
  if (!wanted) return Tape::GradSlot{};
  return summed ? t.grad_slot(x, Tape::summed) : t.grad_slot(x);
}

// Terms<std::tuple<>, A, B, ..., EndOfTerms>::units is std::tuple<A, B, ...>: the kernel's
// list of units has a comma after every entry, and the marker closes it.
struct EndOfTerms {};
template <class Done, class... Rest>
struct Terms;
template <class... Done>
struct Terms<std::tuple<Done...>, EndOfTerms> {
  using units = std::tuple<Done...>;
};
template <class... Done, class Next, class... Rest>
struct Terms<std::tuple<Done...>, Next, Rest...> : Terms<std::tuple<Done..., Next>, Rest...> {};

// f(x) for each element of a tuple, in order.
template <class Tuple, class F>
void each(Tuple& items, F&& f) {
  std::apply([&](auto&... x) { (f(x), ...); }, items);
}

// LogitTerms::more holds only terms of the list `Units` (a std::tuple of units) without a
// field of their own; else an ordo::Error naming op and the known terms.
template <class Units>
struct TermNames;
template <class... Units>
struct TermNames<std::tuple<Units...>> {
  static std::vector<std::string> get() { return {Units::kName...}; }
};
template <class Units>
void check_more_terms(const LogitTerms& terms, const char* op) {
  const std::vector<std::string> names = TermNames<Units>::get();
  for (const auto& [name, inputs] : terms.more) {
    for (const char* field : {"bias", "forget", "relative_keys", "log_length_scale"})
      ORDO_CHECK(name != field, op, ": the logit term '", name, "' has a field of its own in LogitTerms, not `more`");
    std::string known;
    for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
    ORDO_CHECK(std::find(names.begin(), names.end(), name) != names.end(), op, ": no logit term named '", name,
               "' (the terms: ", known, ")");
  }
}

}  // namespace
}  // namespace ordo
