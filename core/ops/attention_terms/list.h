// core/ops/attention_terms/list.h: the logit terms of the attention kernels, one unit each
// (term.h says what a unit is). The fused kernel (core/ops/fused_attention.cpp) runs their
// kernels and the reference kernel (core/ops/attention_reference.cpp) their slices, both in
// the list's order, which is the order they add to a logit (it fixes the bits): a new term
// goes at the end. Adding a term is its file, its include and its line here
// (docs/guides/add-logit-term.md).
#pragma once

#include "core/ops/attention_terms/term.h"

#include "core/ops/attention_terms/bias.h"
#include "core/ops/attention_terms/forget.h"
#include "core/ops/attention_terms/relative_keys.h"
// end of the includes

namespace ordo {
namespace {

using LogitTermUnits = Terms<std::tuple<>,
    BiasTerm,
    ForgetTerm,
    RelativeKeysTerm,
    // end of the list
    EndOfTerms>::units;

}  // namespace
}  // namespace ordo
