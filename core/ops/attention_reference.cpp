// core/ops/attention_reference.cpp: the reference kernel of the fused attention, written to
// be read. Same inputs, masks and output as fused_attention (core/ops/fused_attention.cpp),
// computed the plain way: one query row at a time, every score of the row kept, natural
// exponentials, no tiles, no vectors, no online softmax. The tests hold the fast kernel to
// it in float32 and float64 (tests/core/test_fused_attention.cpp,
// tests/gradcheck/test_ops_fused_attention.cpp); it is not on any training path.
//
// For one (batch entry b, head h), with q, k, v (L, d), scale s and the bias:
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
// where the bias is relative (H, 2L - 1), entry [h, (u - t) + L - 1], or full (H, L, L).
// The forward keeps P (B, H, L, L) for the backward: memory the fast kernel does not spend.
#include <cmath>
#include <limits>
#include <vector>

#include "core/ops.h"

namespace ordo {
namespace {

// Where q, k, v (B, L, H, d) hold row t of head h of batch entry b, and where the bias holds
// the logit of query t and key u for head h.
struct Layout {
  int64_t B, L, H, d;
  bool relative;
  int64_t row(int64_t b, int64_t t, int64_t h) const { return ((b * L + t) * H + h) * d; }
  int64_t bias(int64_t h, int64_t t, int64_t u) const {
    return relative ? h * (2 * L - 1) + (u - t) + L - 1 : (h * L + t) * L + u;
  }
};

Real dot(const Real* x, const Real* y, int64_t d) {
  Real acc = 0;
  for (int64_t c = 0; c < d; ++c) acc += x[c] * y[c];
  return acc;
}

}  // namespace

Var attention_reference(Tape& t, Var q, Var k, Var v, const LogitTerms& terms,
                        const std::vector<int32_t>& key_lengths, const AttentionMask& mask, Real scale) {
  const FusedAttentionBias& bias = terms.bias;
  const Tensor& Q = t.value(q);
  ORDO_CHECK(Q.rank() == 4 && t.shape(k) == Q.shape() && t.shape(v) == Q.shape(),
             "attention_reference: q, k and v must be (B, L, H, d_h) alike, got q ", Q.shape(), ", k ",
             t.shape(k), ", v ", t.shape(v));
  const Layout lay{Q.dim(0), Q.dim(1), Q.dim(2), Q.dim(3), bias.relative};
  const int64_t B = lay.B, L = lay.L, H = lay.H, d = lay.d;
  ORDO_CHECK(static_cast<int64_t>(key_lengths.size()) == B, "attention_reference: key_lengths has ",
             key_lengths.size(), " entries for a batch of ", B);
  for (int32_t n : key_lengths)
    ORDO_CHECK(n >= 0 && n <= L, "attention_reference: a key length of ", n, " is outside [0, ", L, "]");
  if (bias.values) {
    const Shape expected = bias.relative ? Shape{H, 2 * L - 1} : Shape{H, L, L};
    ORDO_CHECK(t.shape(*bias.values) == expected, "attention_reference: the bias must be ", expected, ", got ",
               t.shape(*bias.values));
  }
  ORDO_CHECK(terms.more.empty(), "attention_reference: no reference for the logit term '",
             terms.more.empty() ? "" : terms.more.begin()->first, "' (the terms: bias, forget, relative_keys)");
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
  if (terms.forget)
    ORDO_CHECK(t.shape(*terms.forget) == (Shape{B, L, H}), "attention_reference: the forget term must be (", B, ", ",
               L, ", ", H, "), got ", t.shape(*terms.forget));
  const Real* fd = terms.forget ? t.value(*terms.forget).data() : nullptr;
  // Relative keys: qr (B, L, H, d) and R (N, H, d); row(t, u) = pos(t) - pos(u) + offset.
  const std::optional<RelativeKeys> rel = terms.relative_keys;
  if (rel) {
    ORDO_CHECK(t.shape(rel->queries) == Q.shape(), "attention_reference: the relative keys' queries must be ",
               Q.shape(), ", got ", t.shape(rel->queries));
    ORDO_CHECK(t.shape(rel->keys).rank() == 3 && t.shape(rel->keys)[1] == H && t.shape(rel->keys)[2] == d,
               "attention_reference: the relative keys must be (N, ", H, ", ", d, "), got ", t.shape(rel->keys));
    ORDO_CHECK(rel->positions.empty() || static_cast<int64_t>(rel->positions.size()) == L,
               "attention_reference: ", rel->positions.size(), " relative-key positions for L = ", L);
    const int64_t N = t.shape(rel->keys)[0];
    for (int64_t a = 0; a < L; ++a)
      for (int64_t c = 0; c < L; ++c) {
        const int64_t r = rel->row(a, c);
        ORDO_CHECK(r >= 0 && r < N, "attention_reference: relative-key row ", r, " outside [0, ", N, ")");
      }
  }
  auto rel_row = [rel](int64_t row, int64_t u) { return rel->row(row, u); };
  const Real* rqd = rel ? t.value(rel->queries).data() : nullptr;
  const Real* rkd = rel ? t.value(rel->keys).data() : nullptr;
  auto forget_at = [H, L](const Real* F, int64_t b, int64_t row, int64_t h) { return F[(b * L + row) * H + h]; };
  auto factor = [&](int64_t b, int64_t h, int64_t row) { return sd ? sd[h] * log_keys(b, row) : Real(1); };

  const Real* qd = Q.data();
  const Real* kd = t.value(k).data();
  const Real* vd = t.value(v).data();
  const Real* bd = bias.values ? t.value(*bias.values).data() : nullptr;
  Tensor O = Tensor::zeros(Q.shape());
  Tensor P = Tensor::zeros(Shape{B, H, L, L});  // P[b, h, t, u]; 0 at masked keys
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t row = 0; row < L; ++row) {
        Real* p = P.data() + ((b * H + h) * L + row) * L;
        Real max_score = -std::numeric_limits<Real>::infinity();
        for (int64_t u = 0; u < L; ++u) {
          if (!visible(b, row, u)) continue;
          p[u] = scale * dot(qd + lay.row(b, row, h), kd + lay.row(b, u, h), d);
          if (bd) p[u] += bd[lay.bias(h, row, u)];
          if (fd) p[u] += forget_at(fd, b, row, h) - forget_at(fd, b, u, h);
          if (rel) p[u] += scale * dot(rqd + lay.row(b, row, h), rkd + (rel_row(row, u) * H + h) * d, d);
          p[u] *= factor(b, h, row);
          max_score = std::max(max_score, p[u]);
        }
        if (max_score == -std::numeric_limits<Real>::infinity()) continue;  // no visible key: P and O stay 0
        Real total = 0;
        for (int64_t u = 0; u < L; ++u)
          if (visible(b, row, u)) total += p[u] = std::exp(p[u] - max_score);
        Real* o = O.data() + lay.row(b, row, h);
        for (int64_t u = 0; u < L; ++u) {
          if (!visible(b, row, u)) continue;
          p[u] /= total;
          for (int64_t c = 0; c < d; ++c) o[c] += p[u] * vd[lay.row(b, u, h) + c];
        }
      }

  const std::optional<Var> bias_var = bias.values, scale_var = terms.log_length_scale, forget_var = terms.forget;
  Tape::Backward backward = [q, k, v, bias_var, scale_var, forget_var, rel, rel_row, lay, P, mask, key_lengths, scale,
                             log_keys, forget_at](Tape& t, const Tensor& dO) {
    const int64_t B = lay.B, L = lay.L, H = lay.H, d = lay.d;
    auto visible = [&](int64_t b, int64_t row, int64_t u) { return mask.visible(row, u, key_lengths[b]); };
    // The four gradients are summed over the loops below in buffers of their own, then added.
    auto zeros_if = [&](bool wanted, Var x) { return wanted ? Tensor::zeros(t.shape(x)) : Tensor(); };
    const bool want_bias = bias_var && t.needs_grad(*bias_var);
    const bool want_scale = scale_var && t.needs_grad(*scale_var);
    const Real* sd = scale_var ? t.value(*scale_var).data() : nullptr;
    const Real* bd = bias_var ? t.value(*bias_var).data() : nullptr;
    Tensor gscale = want_scale ? Tensor::zeros(Shape{H}) : Tensor();
    const bool want_forget = forget_var && t.needs_grad(*forget_var);
    const Real* fd = forget_var ? t.value(*forget_var).data() : nullptr;
    Tensor gforget = want_forget ? Tensor::zeros(Shape{B, L, H}) : Tensor();
    Tensor gq = zeros_if(t.needs_grad(q), q), gk = zeros_if(t.needs_grad(k), k), gv = zeros_if(t.needs_grad(v), v);
    Tensor gbias = want_bias ? Tensor::zeros(t.shape(*bias_var)) : Tensor();
    const bool want_rq = rel && t.needs_grad(rel->queries), want_rk = rel && t.needs_grad(rel->keys);
    Tensor grq = zeros_if(want_rq, rel ? rel->queries : q), grk = zeros_if(want_rk, rel ? rel->keys : q);
    const Real* rqd = rel ? t.value(rel->queries).data() : nullptr;
    const Real* rkd = rel ? t.value(rel->keys).data() : nullptr;
    Real* dq = gq.defined() ? gq.data() : nullptr;
    Real* dk = gk.defined() ? gk.data() : nullptr;
    Real* dv = gv.defined() ? gv.data() : nullptr;
    Real* dbias = want_bias ? gbias.data() : nullptr;
    const Real *qd = t.value(q).data(), *kd = t.value(k).data(), *vd = t.value(v).data();
    std::vector<Real> dP(L);
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t row = 0; row < L; ++row) {
          const Real* p = P.data() + ((b * H + h) * L + row) * L;
          const Real* dout = dO.data() + lay.row(b, row, h);
          Real D = 0;
          for (int64_t u = 0; u < L; ++u) {
            dP[u] = visible(b, row, u) ? dot(dout, vd + lay.row(b, u, h), d) : 0;
            D += p[u] * dP[u];
          }
          const Real logn = sd ? log_keys(b, row) : Real(0), f = sd ? sd[h] * logn : Real(1);
          for (int64_t u = 0; u < L; ++u) {
            if (!visible(b, row, u)) continue;
            const Real dS = p[u] * (dP[u] - D);  // of S = f z
            for (int64_t c = 0; c < d; ++c) {
              if (dv) dv[lay.row(b, u, h) + c] += p[u] * dout[c];
              if (dq) dq[lay.row(b, row, h) + c] += f * scale * dS * kd[lay.row(b, u, h) + c];
              if (dk) dk[lay.row(b, u, h) + c] += f * scale * dS * qd[lay.row(b, row, h) + c];
            }
            if (dbias) dbias[lay.bias(h, row, u)] += f * dS;
            if (rel) {
              const int64_t r = (rel_row(row, u) * H + h) * d;
              for (int64_t c = 0; c < d; ++c) {
                if (want_rq) grq[lay.row(b, row, h) + c] += f * scale * dS * rkd[r + c];
                if (want_rk) grk[r + c] += f * scale * dS * rqd[lay.row(b, row, h) + c];
              }
            }
            if (want_forget) {
              gforget[(b * L + row) * H + h] += f * dS;
              gforget[(b * L + u) * H + h] -= f * dS;
            }
            if (want_scale) {
              Real z = scale * dot(qd + lay.row(b, row, h), kd + lay.row(b, u, h), d);
              if (bd) z += bd[lay.bias(h, row, u)];
              if (fd) z += forget_at(fd, b, row, h) - forget_at(fd, b, u, h);
              if (rel) z += scale * dot(rqd + lay.row(b, row, h), rkd + (rel_row(row, u) * H + h) * d, d);
              gscale[h] += logn * dS * z;
            }
          }
        }
    if (dq) t.add_grad(q, std::move(gq));
    if (dk) t.add_grad(k, std::move(gk));
    if (dv) t.add_grad(v, std::move(gv));
    if (dbias) t.add_grad(*bias_var, std::move(gbias));
    if (want_scale) t.add_grad(*scale_var, std::move(gscale));
    if (want_forget) t.add_grad(*forget_var, std::move(gforget));
    if (want_rq) t.add_grad(rel->queries, std::move(grq));
    if (want_rk) t.add_grad(rel->keys, std::move(grk));
  };
  std::vector<Var> inputs{q, k, v};
  if (bias_var) inputs.push_back(*bias_var);
  if (scale_var) inputs.push_back(*scale_var);
  if (forget_var) inputs.push_back(*forget_var);
  if (rel) inputs.push_back(rel->queries), inputs.push_back(rel->keys);
  return t.push("attention_reference", std::move(O), std::move(backward), inputs);
}

}  // namespace ordo
