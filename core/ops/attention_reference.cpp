// core/ops/attention_reference.cpp: the reference kernel of the fused attention, written to
// be read. Same inputs, masks and output as fused_attention (core/ops/fused_attention.cpp),
// computed the plain way: one query row at a time, every score of the row kept, natural
// exponentials, no tiles, no vectors, no online softmax. The tests hold the fast kernel to
// it in float32 and float64 (tests/core/test_fused_attention.cpp,
// tests/gradcheck/test_ops_fused_attention.cpp); it is not on any training path.
//
// For one (batch entry b, head h), with q, k (L, d), v (L, d_v), scale s and the bias:
//   visible(t, u) = mask.visible(t, u, key_lengths[b])   (padding, causal, window: core/ops.h)
//   z[t, u] = s q_t . k_u + bias[t, u] + F[t] - F[u]      (visible keys only; F: the forget term)
//             + s qr_t . R[pos(t) - pos(u) + offset]     (relative keys: qr the queries, R the keys)
//   S[t, u] = f_t z[t, u],  f_t = s_h log n_t with SSMax (n_t: the keys query t sees), else 1
//   P[t, u] = exp(S[t, u] - max_u S[t, .]) / sum_u' exp(S[t, u'] - max_u S[t, .])
//   O_t     = sum_u P[t, u] v_u                            (0 when no key is visible)
// Backward, given dO:
//   dV[u]    += P[t, u] dO_t
//   dP[t, u]  = dO_t . v_u
//   D_t       = sum_u P[t, u] dP[t, u]
//   dS[t, u]  = P[t, u] (dP[t, u] - D_t)
//   dQ[t]    += f_t s dS[t, u] k_u,   dK[u] += f_t s dS[t, u] q_t,   dbias[t, u] += f_t dS[t, u]
//   dF[t]    += f_t dS[t, u],   dF[u] -= f_t dS[t, u]                (the forget term)
//   dqr[t]   += f_t s dS[t, u] R[row],   dR[row] += f_t s dS[t, u] qr_t   (relative keys)
//   ds_h     += log n_t sum_u dS[t, u] z[t, u]                      (SSMax)
// where the bias is relative (H, 2L - 1), entry [h, (u - t) + L - 1], or full (H, L, L). Each
// logit term's lines are its unit's slice (Term::Reference in core/ops/attention_terms/), run
// in the order of their list (attention_terms/list.h): a new term brings its own.
// The forward keeps P (B, H, L, L) for the backward: memory the fast kernel does not spend.
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

#include "core/ops.h"
#include "core/ops/reference_rows.h"
#include "core/ops/attention_terms/list.h"

namespace ordo {
namespace {

// Where q, k (B, L, H, d) and v, the output (B, L, H, d_v) hold row t of head h of batch entry b.
struct Layout {
  int64_t B, L, H, d, dv;
  int64_t row(int64_t b, int64_t t, int64_t h) const { return ((b * L + t) * H + h) * d; }
  int64_t value_row(int64_t b, int64_t t, int64_t h) const { return ((b * L + t) * H + h) * dv; }
};

// Each logit term's slice of this kernel (Term::Reference, term.h), in the list's order.
template <class Units>
struct ReferencesOf;
template <class... Units>
struct ReferencesOf<std::tuple<Units...>> {
  using type = std::tuple<typename Units::Reference...>;
  static type make(const Tape& t, const LogitTerms& terms, const Shape& q, Real scale, const char* op) {
    return type{typename Units::Reference(t, terms, q, scale, op)...};
  }
};
using TermReferences = ReferencesOf<LogitTermUnits>;

// The sum of the terms' logits of query t and key u in head h of batch entry b.
Real term_logits(const TermReferences::type& refs, int64_t b, int64_t h, int64_t t, int64_t u) {
  Real z = 0;
  std::apply([&](const auto&... r) { ((z += r.logit(b, h, t, u)), ...); }, refs);
  return z;
}

}  // namespace

Var attention_reference(Tape& t, Var q, Var k, Var v, const LogitTerms& terms,
                        const std::vector<int32_t>& key_lengths, const AttentionMask& mask, Real scale) {
  const char* op = "attention_reference";
  const Tensor& Q = t.value(q);
  const Shape& vs = t.shape(v);
  ORDO_CHECK(Q.rank() == 4 && t.shape(k) == Q.shape() && vs.rank() == 4 && vs[0] == Q.dim(0) &&
                 vs[1] == Q.dim(1) && vs[2] == Q.dim(2) && vs[3] >= 1,
             "attention_reference: q and k must be (B, L, H, d_h) alike and v (B, L, H, d_v), got q ", Q.shape(),
             ", k ", t.shape(k), ", v ", vs);
  const Layout lay{Q.dim(0), Q.dim(1), Q.dim(2), Q.dim(3), vs[3]};
  const int64_t B = lay.B, L = lay.L, H = lay.H, d = lay.d, dv = lay.dv;
  ORDO_CHECK(static_cast<int64_t>(key_lengths.size()) == B, "attention_reference: key_lengths has ",
             key_lengths.size(), " entries for a batch of ", B);
  for (int32_t n : key_lengths)
    ORDO_CHECK(n >= 0 && n <= L, "attention_reference: a key length of ", n, " is outside [0, ", L, "]");
  TermReferences::type refs = TermReferences::make(t, terms, Q.shape(), scale, op);
  check_more_terms<LogitTermUnits>(terms, op);
  auto visible = [&](int64_t b, int64_t row, int64_t u) { return mask.visible(row, u, key_lengths[b]); };
  if (terms.log_length_scale)
    ORDO_CHECK(t.shape(*terms.log_length_scale) == Shape{H}, "attention_reference: the log-length scale must be (",
               H, "), got ", t.shape(*terms.log_length_scale));
  // log n_t: the logarithm of the number of keys query `row` of sequence b sees (0 if none).
  auto log_keys = [mask, key_lengths](int64_t b, int64_t row) {
    int64_t n = 0;
    for (int64_t u = 0; u < key_lengths[b]; ++u)
      if (mask.visible(row, u, key_lengths[b])) ++n;
    return n > 0 ? std::log(static_cast<Real>(n)) : Real(0);
  };
  const Real* sd = terms.log_length_scale ? t.value(*terms.log_length_scale).data() : nullptr;
  auto factor = [&](int64_t b, int64_t h, int64_t row) { return sd ? sd[h] * log_keys(b, row) : Real(1); };
  each(refs, [&](auto& r) { r.bind(t); });

  const Real* qd = Q.data();
  const Real* kd = t.value(k).data();
  const Real* vd = t.value(v).data();
  Tensor O = Tensor::zeros(vs);
  Tensor P = Tensor::zeros(Shape{B, H, L, L});  // P[b, h, t, u]; 0 at masked keys
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t row = 0; row < L; ++row) {
        Real* p = P.data() + ((b * H + h) * L + row) * L;
        Real max_score = -std::numeric_limits<Real>::infinity();
        for (int64_t u = 0; u < L; ++u) {
          if (!visible(b, row, u)) continue;
          p[u] = scale * reference_dot(qd + lay.row(b, row, h), kd + lay.row(b, u, h), d) + term_logits(refs, b, h, row, u);
          p[u] *= factor(b, h, row);
          max_score = std::max(max_score, p[u]);
        }
        if (max_score == -std::numeric_limits<Real>::infinity()) continue;  // no visible key: P and O stay 0
        Real total = 0;
        for (int64_t u = 0; u < L; ++u)
          if (visible(b, row, u)) total += p[u] = std::exp(p[u] - max_score);
        Real* o = O.data() + lay.value_row(b, row, h);
        for (int64_t u = 0; u < L; ++u) {
          if (!visible(b, row, u)) continue;
          p[u] /= total;
          for (int64_t c = 0; c < dv; ++c) o[c] += p[u] * vd[lay.value_row(b, u, h) + c];
        }
      }

  const std::optional<Var> scale_var = terms.log_length_scale;
  Tape::Backward backward = [q, k, v, scale_var, refs, lay, P, mask, key_lengths, scale, log_keys](
                                Tape& t, const Tensor& dO) mutable {
    const int64_t B = lay.B, L = lay.L, H = lay.H, d = lay.d, dv_width = lay.dv;
    auto visible = [&](int64_t b, int64_t row, int64_t u) { return mask.visible(row, u, key_lengths[b]); };
    // The gradients are summed over the loops below in buffers of their own, then added.
    auto zeros_if = [&](bool wanted, Var x) { return wanted ? Tensor::zeros(t.shape(x)) : Tensor(); };
    const bool want_scale = scale_var && t.needs_grad(*scale_var);
    const Real* sd = scale_var ? t.value(*scale_var).data() : nullptr;
    Tensor gscale = want_scale ? Tensor::zeros(Shape{H}) : Tensor();
    Tensor gq = zeros_if(t.needs_grad(q), q), gk = zeros_if(t.needs_grad(k), k), gv = zeros_if(t.needs_grad(v), v);
    each(refs, [&](auto& r) {
      r.bind(t);
      r.open(t);
    });
    Real* dq = gq.defined() ? gq.data() : nullptr;
    Real* dk = gk.defined() ? gk.data() : nullptr;
    Real* dv = gv.defined() ? gv.data() : nullptr;
    const Real *qd = t.value(q).data(), *kd = t.value(k).data(), *vd = t.value(v).data();
    std::vector<Real> dP(L);
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t row = 0; row < L; ++row) {
          const Real* p = P.data() + ((b * H + h) * L + row) * L;
          const Real* dout = dO.data() + lay.value_row(b, row, h);
          Real D = 0;
          for (int64_t u = 0; u < L; ++u) {
            dP[u] = visible(b, row, u) ? reference_dot(dout, vd + lay.value_row(b, u, h), dv_width) : 0;
            D += p[u] * dP[u];
          }
          const Real logn = sd ? log_keys(b, row) : Real(0), f = sd ? sd[h] * logn : Real(1);
          for (int64_t u = 0; u < L; ++u) {
            if (!visible(b, row, u)) continue;
            const Real dS = p[u] * (dP[u] - D);  // of S = f z
            if (dv)
              for (int64_t c = 0; c < dv_width; ++c) dv[lay.value_row(b, u, h) + c] += p[u] * dout[c];
            for (int64_t c = 0; c < d; ++c) {
              if (dq) dq[lay.row(b, row, h) + c] += f * scale * dS * kd[lay.row(b, u, h) + c];
              if (dk) dk[lay.row(b, u, h) + c] += f * scale * dS * qd[lay.row(b, row, h) + c];
            }
            each(refs, [&](auto& r) { r.gradient(b, h, row, u, f * dS); });
            if (want_scale) {
              const Real z =
                  scale * reference_dot(qd + lay.row(b, row, h), kd + lay.row(b, u, h), d) + term_logits(refs, b, h, row, u);
              gscale[h] += logn * dS * z;
            }
          }
        }
    if (dq) t.add_grad(q, std::move(gq));
    if (dk) t.add_grad(k, std::move(gk));
    if (dv) t.add_grad(v, std::move(gv));
    if (want_scale) t.add_grad(*scale_var, std::move(gscale));
    each(refs, [&](auto& r) { r.finish(t); });
  };
  std::vector<Var> inputs{q, k, v};
  if (scale_var) inputs.push_back(*scale_var);
  each(refs, [&](const auto& r) { r.inputs(inputs); });
  return t.push("attention_reference", std::move(O), std::move(backward), inputs);
}

}  // namespace ordo
