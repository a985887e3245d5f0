// report/position_similarity.cpp: S(t, u) of an encoding (see report/position_similarity.h).
#include "report/position_similarity.h"

#include <cmath>
#include <optional>

#include "core/error.h"
#include "core/tape.h"

namespace ordo {

PositionSimilarity position_similarity(PositionalEncoding& enc, int64_t L, int64_t d_model, int64_t heads,
                                       int64_t head) {
  ORDO_CHECK(L >= 1 && d_model >= 1 && heads >= 1 && d_model % heads == 0, "position_similarity: L = ", L,
             ", d_model = ", d_model, ", heads = ", heads, " (heads must divide d_model)");
  ORDO_CHECK(head >= -1 && head < heads, "position_similarity: head must be -1 (mean) or in [0, ", heads, "), got ", head);
  Tape tape;
  NoGradGuard guard(tape);
  Positions pos;
  pos.batch = 1;
  pos.length = L;
  pos.lengths = {static_cast<int32_t>(L)};
  std::vector<double> S(static_cast<size_t>(L * L), 0.0);
  std::vector<std::string> parts;
  // (a) embed: PE = embed(0).
  Var x = tape.input(Tensor::zeros(Shape{1, L, d_model}));
  Var y = enc.embed(tape, x, pos);
  if (y.id != x.id) {
    const Tensor& pe = tape.value(y);  // (1, L, d_model)
    for (int64_t t = 0; t < L; ++t)
      for (int64_t u = 0; u < L; ++u) {
        double s = 0;
        for (int64_t c = 0; c < d_model; ++c) s += static_cast<double>(pe[t * d_model + c]) * pe[u * d_model + c];
        S[t * L + u] += s;
      }
    parts.push_back("PE(t).PE(u)");
  }
  // (b) rotate: <q~(t), k~(u)>, the rotate hook's query and key of q = k = all ones (as
  // wide as it makes them: pope's are 2 d_h), per head then averaged (or one head).
  const int64_t dh = d_model / heads;
  Var q = tape.input(Tensor::full(Shape{1, L, heads, dh}, 1));
  auto [rq, rk] = enc.rotate(tape, q, q, pos);
  if (rq.id != q.id) {
    const Tensor &rqv = tape.value(rq), &rkv = tape.value(rk);  // (1, L, heads, width)
    const int64_t width = rqv.shape().last();
    for (int64_t h = 0; h < heads; ++h) {
      if (head >= 0 && h != head) continue;
      const double w = head >= 0 ? 1.0 : 1.0 / static_cast<double>(heads);
      for (int64_t t = 0; t < L; ++t)
        for (int64_t u = 0; u < L; ++u) {
          double s = 0;
          for (int64_t c = 0; c < width; ++c)
            s += static_cast<double>(rqv[(t * heads + h) * width + c]) * rkv[(u * heads + h) * width + c];
          S[t * L + u] += w * s;
        }
    }
    parts.push_back("<q~(t), k~(u)> of q = k = ones after the rotate hook, " +
                    (head >= 0 ? "head " + std::to_string(head) : "mean over heads"));
  }
  // (c) bias on the logits.
  if (std::optional<AttentionBias> b = enc.bias(tape, pos)) {
    const Tensor& v = tape.value(b->values);
    const int64_t BH = v.dim(0);
    for (int64_t h = 0; h < BH; ++h) {
      if (head >= 0 && h != head) continue;
      const double w = head >= 0 ? 1.0 : 1.0 / static_cast<double>(BH);
      for (int64_t t = 0; t < L; ++t)
        for (int64_t u = 0; u < L; ++u)
          S[t * L + u] += w * (b->relative ? v[h * (2 * L - 1) + (u - t) + L - 1] : v[(h * L + t) * L + u]);
    }
    parts.push_back("logit bias, " + (head >= 0 ? "head " + std::to_string(head) : "mean over heads"));
  }
  // (d) the softmax form's terms of layer 0 at uniform content (x = 0, q = k = ones). The
  // other forms (stick-breaking, PaTH) have no logit term to show.
  const AttentionForm form = enc.form(tape, LayerInput{x, q, &pos, 0});
  const SoftmaxForm* softmax = std::get_if<SoftmaxForm>(&form);
  // Relative keys (transformer_xl): its layer-0 terms beyond q . k with q = k = ones,
  // (q_t + u) . k_u - q_t . k_u + qr_t . R[row(t, u)], over sqrt(d_h) as in the attention.
  if (softmax && softmax->relative_keys) {
    const RelativeKeyTerm* rel = &*softmax->relative_keys;
    const Tensor& cq = tape.value(rel->content_queries);  // (1, L, heads, dh)
    const Tensor& qr = tape.value(rel->keys.queries);     // (1, L, heads, dh)
    const Tensor& keys = tape.value(rel->keys.keys);      // (N, heads, dh)
    const double inv_sqrt_dh = 1.0 / std::sqrt(static_cast<double>(dh));
    for (int64_t h = 0; h < heads; ++h) {
      if (head >= 0 && h != head) continue;
      const double w = head >= 0 ? 1.0 : 1.0 / static_cast<double>(heads);
      for (int64_t t = 0; t < L; ++t)
        for (int64_t u = 0; u < L; ++u) {
          const int64_t row = rel->keys.row(t, u);
          double s = 0;
          for (int64_t c = 0; c < dh; ++c)
            s += static_cast<double>(cq[(t * heads + h) * dh + c]) - 1.0 +
                 static_cast<double>(qr[(t * heads + h) * dh + c]) * keys[(row * heads + h) * dh + c];
          S[t * L + u] += w * s * inv_sqrt_dh;
        }
    }
    parts.push_back("relative-key terms of layer 0 with q = k = ones, " +
                    (head >= 0 ? "head " + std::to_string(head) : "mean over heads"));
  }
  // A contextual term (cope): its layer-0 term with q = k = ones, so every logit is sqrt(d_h)
  // and the term shows the encoding at uniform content.
  if (softmax && softmax->contextual) {
    Var qh = tape.input(Tensor::full(Shape{1, heads, L, dh}, 1));
    Var scores = tape.input(Tensor::full(Shape{1, heads, L, L}, static_cast<Real>(std::sqrt(static_cast<double>(dh)))));
    const Tensor& v = tape.value(softmax->contextual(tape, qh, qh, scores));  // (1, H, L, L)
    for (int64_t h = 0; h < heads; ++h) {
      if (head >= 0 && h != head) continue;
      const double w = head >= 0 ? 1.0 : 1.0 / static_cast<double>(heads);
      for (int64_t t = 0; t < L; ++t)
        for (int64_t u = 0; u < L; ++u) S[t * L + u] += w * v[(h * L + t) * L + u];
    }
    parts.push_back("contextual term of layer 0 with q = k = ones, " +
                    (head >= 0 ? "head " + std::to_string(head) : "mean over heads"));
  }
  std::string what = parts.empty() ? std::string("no positional term (all zeros)") : parts[0];
  for (size_t i = 1; i < parts.size(); ++i) what += " + " + parts[i];
  return PositionSimilarity{L, std::move(S), what};
}

}  // namespace ordo
