#include "layers/feedforward.h"

#include "core/ops.h"

namespace ordo {

FeedForward::FeedForward(std::string n, int64_t d, int64_t d_ff, uint64_t seed, double out_std)
    : Module(std::move(n)), fc1(child("fc1"), d, d_ff, seed), fc2(child("fc2"), d_ff, d, seed, out_std) {}

Var FeedForward::forward(Tape& t, Var x, bool fused_gelu) {
  return fc2.forward(t, fused_gelu ? fc1.forward_gelu(t, x) : gelu(t, fc1.forward(t, x)));
}
Var FeedForward::forward_residual(Tape& t, Var x, Var residual) {
  return fc2.forward_residual(t, fc1.forward_gelu(t, x), residual);
}

}  // namespace ordo
