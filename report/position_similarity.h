// report/position_similarity.h: what an encoding alone says about two positions.
//
// S(t, u), the positional part of the attention logit between query t and key u, summed
// over the hooks the encoding uses (docs/spec.md §6):
//   embed  : PE(t) . PE(u), PE = embed(0) (the term added to zero token embeddings);
//   rotate : <q~(t), k~(u)>, the rotate hook's query and key of q = k = all ones (rope:
//            <R(t) q, R(u) q>; xpos with its decay; pope 2 d_h wide), per head, averaged
//            over heads (or one head);
//   bias   : the logit bias b[h, t, u], averaged over heads (or one head);
//   form   : the softmax form's terms of layer 0 at uniform content (x = 0, q = k = ones,
//            every logit sqrt(d_h)): relative keys (transformer_xl) and a contextual term
//            (cope), averaged over heads (or one head); stick-breaking, PaTH and FoX's gates
//            depend on the content and add nothing here.
// An encoding with no hook (none) gives all zeros. `ordo inspect-pe` draws it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "layers/posenc/encoding.h"

namespace ordo {

struct PositionSimilarity {
  int64_t length = 0;           // L
  std::vector<double> values;   // (L, L), row t, column u
  std::string what;             // the terms summed, e.g. "PE(t).PE(u)"; "no positional term ..."
};

// head = -1: the mean over heads; else that head only. heads must divide d_model.
PositionSimilarity position_similarity(PositionalEncoding& enc, int64_t L, int64_t d_model, int64_t heads,
                                       int64_t head = -1);

}  // namespace ordo
