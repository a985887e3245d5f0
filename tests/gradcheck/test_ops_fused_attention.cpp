// tests/gradcheck/test_ops_fused_attention.cpp: gradients of fused_attention w.r.t. q, k, v
// and the bias (relative and full), with key padding (incl. a length-1 sequence), causal on
// and off, L below, at and above the tile size (64), H = 1 and 3; and, in float64, the fast
// kernel held to its reference kernel (attention_reference, plain loops), whose own
// gradients are checked against finite differences too. Relative keys (Transformer-XL) at
// contiguous and gapped positions: gradients w.r.t. their queries and keys as well.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <vector>

#include "tests/gradcheck/test_ops_helpers.h"

using namespace ordo;
using namespace ordo::test;

namespace {

enum class BiasKind { none, relative, full };

enum class Kernel { fused, reference };

// Relative keys (LogitTerms::relative_keys): positions (empty: 0..L-1), the offset and the
// number of key rows.
struct RelSpec {
  std::vector<int32_t> positions;
  int64_t offset = 0, rows = 0;
};
RelSpec relative_spec(int64_t L, bool gapped) {
  RelSpec r;
  if (gapped)
    for (int64_t t = 0; t < L; ++t) r.positions.push_back(static_cast<int32_t>(4 * t + (t * t) % 3));
  const int64_t span = gapped ? r.positions.back() - r.positions.front() : L - 1;
  r.offset = span + 2;
  r.rows = 2 * span + 5;
  return r;
}

// q, k, v, then the bias (unless none), then SSMax's s (H) when ssmax, then the forget
// term F (B, L, H) when forget, then the relative keys' queries (B, L, H, d) and keys
// (rows, H, d) when rel.
std::vector<Tensor> attention_inputs(int64_t B, int64_t H, int64_t L, int64_t d, BiasKind kind, uint64_t stream,
                                     bool ssmax = false, bool forget = false, const RelSpec* rel = nullptr) {
  const Shape s{B, L, H, d};
  std::vector<Tensor> inputs = {random_tensor(s, stream), random_tensor(s, stream + 1),
                                random_tensor(s, stream + 2)};
  if (kind == BiasKind::relative) inputs.push_back(random_tensor(Shape{H, 2 * L - 1}, stream + 3));
  if (kind == BiasKind::full) inputs.push_back(random_tensor(Shape{H, L, L}, stream + 3));
  if (ssmax) inputs.push_back(random_tensor(Shape{H}, stream + 4));
  if (forget) inputs.push_back(random_tensor(Shape{B, L, H}, stream + 5));
  if (rel) {
    inputs.push_back(random_tensor(s, stream + 6));
    inputs.push_back(random_tensor(Shape{rel->rows, H, d}, stream + 7));
  }
  return inputs;
}

// The attention of inputs (q, k, v and maybe the bias) by one kernel.
Var attend(Kernel kernel, Tape& t, const std::vector<Var>& v, BiasKind kind, const std::vector<int32_t>& lengths,
           const AttentionMask& mask, int64_t d, const RelSpec* rel = nullptr) {
  LogitTerms terms;
  size_t next = 3, end = v.size();
  if (kind != BiasKind::none) terms.bias = {v[next++], kind == BiasKind::relative};
  if (rel) {
    terms.relative_keys = RelativeKeys{v[end - 2], v[end - 1], rel->positions, rel->offset};
    end -= 2;
  }
  // The rest is s (H), F (B, L, H) or both, told apart by rank.
  for (; next < end; ++next) {
    if (t.shape(v[next]).rank() == 1) terms.log_length_scale = v[next];
    else terms.forget = v[next];
  }
  const Real scale = static_cast<Real>(1.0 / std::sqrt(double(d)));
  return kernel == Kernel::fused ? fused_attention(t, v[0], v[1], v[2], terms, lengths, mask, scale)
                                 : attention_reference(t, v[0], v[1], v[2], terms, lengths, mask, scale);
}

void check_fused(int64_t B, int64_t H, int64_t L, int64_t d, BiasKind kind, const AttentionMask& mask,
                 const std::vector<int32_t>& lengths, uint64_t stream, bool ssmax = false, bool forget = false,
                 const RelSpec* rel = nullptr) {
  INFO("B " << B << " H " << H << " L " << L << " d " << d << " bias " << int(kind) << " causal "
            << mask.causal << " window " << mask.window << " relative keys " << (rel != nullptr));
  REQUIRE_GRADS_OK(check_gradients(
      [&](Tape& t, const std::vector<Var>& v) { return attend(Kernel::fused, t, v, kind, lengths, mask, d, rel); },
      attention_inputs(B, H, L, d, kind, stream, ssmax, forget, rel)));
}

}  // namespace

TEST_CASE("fused attention gradients without a bias", "[ops][fused]") {
  for (bool causal : {false, true}) {
    check_fused(2, 3, 5, 4, BiasKind::none, causal, {5, 1}, 1);
    check_fused(1, 1, 1, 3, BiasKind::none, causal, {1}, 5);
    check_fused(2, 1, 70, 3, BiasKind::none, causal, {70, 40}, 9);
  }
}

TEST_CASE("fused attention gradients with a relative bias", "[ops][fused]") {
  for (bool causal : {false, true}) {
    check_fused(3, 3, 5, 4, BiasKind::relative, causal, {5, 3, 1}, 21);
    check_fused(2, 1, 70, 2, BiasKind::relative, causal, {70, 1}, 25);
    check_fused(1, 3, 64, 2, BiasKind::relative, causal, {64}, 29);
  }
}

TEST_CASE("fused attention gradients with SSMax, the log-length scale", "[ops][fused][ssmax]") {
  for (bool causal : {false, true}) {
    check_fused(2, 2, 5, 3, BiasKind::none, causal, {5, 2}, 61, true);
    check_fused(2, 2, 70, 2, BiasKind::relative, AttentionMask(causal, 9), {70, 30}, 65, true);
    check_fused(1, 2, 6, 2, BiasKind::full, causal, {6}, 69, true);
  }
}

TEST_CASE("fused attention gradients with FoX's forget term", "[ops][fused][fox]") {
  for (bool causal : {false, true}) {
    check_fused(2, 2, 5, 3, BiasKind::none, causal, {5, 2}, 81, false, true);
    check_fused(2, 1, 70, 2, BiasKind::relative, AttentionMask(causal, 9), {70, 30}, 85, true, true);
  }
}

TEST_CASE("fused attention gradients with relative keys", "[ops][fused][relative_keys]") {
  for (bool causal : {false, true}) {
    const RelSpec contiguous = relative_spec(5, false), gapped = relative_spec(70, true);
    check_fused(2, 2, 5, 3, BiasKind::none, causal, {5, 2}, 91, false, false, &contiguous);
    // Two tiles, gapped positions, a window and SSMax.
    check_fused(2, 1, 70, 2, BiasKind::none, AttentionMask(causal, 9), {70, 30}, 95, true, false, &gapped);
  }
}

TEST_CASE("fused attention gradients with a sliding window", "[ops][fused][window]") {
  for (bool causal : {false, true}) {
    check_fused(2, 2, 70, 3, BiasKind::none, AttentionMask(causal, 3), {70, 40}, 41);
    check_fused(2, 1, 70, 2, BiasKind::relative, AttentionMask(causal, 66), {70, 9}, 45);
    check_fused(1, 2, 6, 2, BiasKind::full, AttentionMask(causal, 2), {6}, 49);
  }
}

// One Var as two or three of q, k and v: each pair's rows of dq, dk and dv then land in one
// buffer, and a stored first gradient would overwrite the rows added before it.
TEST_CASE("fused attention gradients when q, k and v are one Var", "[ops][fused]") {
  const int64_t B = 2, H = 2, L = 5, d = 3;
  const std::vector<int32_t> lengths{5, 3};
  const Real scale = static_cast<Real>(1.0 / std::sqrt(double(d)));
  const std::vector<std::pair<const char*, std::array<int, 3>>> cases = {
      {"q = k", {0, 0, 1}}, {"q = v", {0, 1, 0}}, {"k = v", {1, 0, 0}}, {"q = k = v", {0, 0, 0}}};
  for (bool causal : {false, true})
    for (const auto& [name, which] : cases) {
      INFO(name << ", causal " << causal);
      REQUIRE_GRADS_OK(check_gradients(
          [&, which = which](Tape& t, const std::vector<Var>& v) {
            return fused_attention(t, v[which[0]], v[which[1]], v[which[2]], FusedAttentionBias{}, lengths,
                                   causal, scale);
          },
          {random_tensor(Shape{B, L, H, d}, 61), random_tensor(Shape{B, L, H, d}, 62)}));
    }
}

TEST_CASE("fused attention gradients with a full bias", "[ops][fused]") {
  for (bool causal : {false, true}) check_fused(2, 3, 5, 4, BiasKind::full, causal, {4, 1}, 41);
  // Two tiles per axis (the bias has L^2 entries to perturb, so one causal case).
  check_fused(2, 1, 66, 2, BiasKind::full, true, {66, 30}, 45);
}

namespace {

// Output and every input gradient of loss = sum(attention * R), by one kernel.
std::vector<Tensor> outputs_and_grads(Kernel kernel, const std::vector<Tensor>& inputs, BiasKind kind,
                                      const std::vector<int32_t>& lengths, const AttentionMask& causal,
                                      uint64_t stream, const RelSpec* rel = nullptr) {
  std::vector<Parameter> params;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string name(1, 'x');  // (GCC 12's -Wrestrict misfires on "x" + std::to_string(i) here)
    name += std::to_string(i);
    params.emplace_back(name, inputs[i].clone());
  }
  Tape t;
  std::vector<Var> vars;
  for (Parameter& p : params) vars.push_back(t.param(p));
  const Var out = attend(kernel, t, vars, kind, lengths, causal, inputs[0].dim(3), rel);
  std::vector<Tensor> result = {t.value(out).clone()};
  t.backward(sum(t, mul(t, out, t.input(random_tensor(t.shape(out), stream)))));
  for (Parameter& p : params) result.push_back(p.grad);
  return result;
}

// In float64 the fast kernel's tiles, online softmax and base-2 exponentials agree with the
// reference's plain loops to rounding: |fast - reference| <= 1e-12 of the largest value.
void check_fast_against_reference(int64_t B, int64_t H, int64_t L, int64_t d, BiasKind kind,
                                  const AttentionMask& causal, const std::vector<int32_t>& lengths,
                                  uint64_t stream, bool ssmax = false, bool forget = false,
                                  const RelSpec* rel = nullptr) {
  INFO("B " << B << " H " << H << " L " << L << " d " << d << " bias " << int(kind) << " causal " << causal.causal
            << " window " << causal.window << " ssmax " << ssmax << " relative keys " << (rel != nullptr));
  const std::vector<Tensor> inputs = attention_inputs(B, H, L, d, kind, stream, ssmax, forget, rel);
  const auto fast = outputs_and_grads(Kernel::fused, inputs, kind, lengths, causal, stream + 9, rel);
  const auto reference = outputs_and_grads(Kernel::reference, inputs, kind, lengths, causal, stream + 9, rel);
  std::vector<const char*> names = {"out", "dq", "dk", "dv"};
  if (kind != BiasKind::none) names.push_back("dbias");
  if (ssmax) names.push_back("ds");
  if (forget) names.push_back("dF");
  if (rel) names.push_back("dqr"), names.push_back("dkeys");
  REQUIRE(fast.size() == names.size());
  for (size_t i = 0; i < fast.size(); ++i) {
    double size = 1;
    for (int64_t j = 0; j < reference[i].numel(); ++j) size = std::max(size, std::fabs(double(reference[i][j])));
    INFO(names[i] << ": max abs diff " << max_abs_diff(fast[i], reference[i]));
    REQUIRE(max_abs_diff(fast[i], reference[i]) <= 1e-12 * size);
  }
}

}  // namespace

TEST_CASE("fused attention equals its reference kernel in float64", "[ops][fused]") {
  for (bool causal : {false, true}) {
    check_fast_against_reference(2, 2, 64, 16, BiasKind::none, causal, {64, 40}, 101);
    check_fast_against_reference(2, 3, 130, 16, BiasKind::relative, causal, {130, 97}, 111);  // three tiles
    check_fast_against_reference(3, 1, 70, 40, BiasKind::full, causal, {70, 1, 0}, 121);  // no key at all
    check_fast_against_reference(1, 2, 5, 3, BiasKind::relative, causal, {5}, 131);
    // A window and SSMax, apart and together.
    check_fast_against_reference(2, 3, 130, 16, BiasKind::relative, AttentionMask(causal, 20), {130, 97}, 151);
    check_fast_against_reference(3, 1, 70, 40, BiasKind::full, causal, {70, 1, 0}, 161, true);
    check_fast_against_reference(2, 2, 130, 8, BiasKind::none, AttentionMask(causal, 70), {130, 50}, 171, true);
    check_fast_against_reference(2, 2, 130, 8, BiasKind::relative, causal, {130, 50}, 181, false, true);
    check_fast_against_reference(2, 2, 70, 8, BiasKind::full, AttentionMask(causal, 30), {70, 0}, 191, true, true);
    // Relative keys, contiguous (three tiles) and gapped with a window and SSMax.
    const RelSpec contiguous = relative_spec(130, false), gapped = relative_spec(70, true);
    check_fast_against_reference(2, 2, 130, 8, BiasKind::none, causal, {130, 97}, 201, false, false, &contiguous);
    check_fast_against_reference(3, 2, 70, 5, BiasKind::none, AttentionMask(causal, 20), {70, 41, 0}, 211, true,
                                 false, &gapped);
    // d = 8: the keys read in place, gapped; d = 12: copied and padded to 16, contiguous.
    check_fast_against_reference(2, 2, 70, 8, BiasKind::none, causal, {70, 33}, 221, false, false, &gapped);
    const RelSpec contiguous70 = relative_spec(70, false);
    check_fast_against_reference(2, 2, 70, 12, BiasKind::none, causal, {70, 33}, 231, false, false, &contiguous70);
  }
}

TEST_CASE("the reference attention kernel's gradients", "[ops][fused]") {
  for (bool causal : {false, true})
    for (BiasKind kind : {BiasKind::none, BiasKind::relative, BiasKind::full})
      for (bool ssmax : {false, true}) {
        INFO("bias " << int(kind) << " causal " << causal << " ssmax and forget " << ssmax);
        const std::vector<int32_t> lengths = {5, 2};
        const AttentionMask mask(causal, ssmax ? 3 : 0);
        REQUIRE_GRADS_OK(check_gradients(
            [&](Tape& t, const std::vector<Var>& v) { return attend(Kernel::reference, t, v, kind, lengths, mask, 4); },
            attention_inputs(2, 3, 5, 4, kind, 141, ssmax, ssmax)));
      }
  for (bool causal : {false, true}) {  // relative keys, with SSMax
    INFO("relative keys, causal " << causal);
    const RelSpec rel = relative_spec(5, true);
    const std::vector<int32_t> lengths = {5, 2};
    REQUIRE_GRADS_OK(check_gradients(
        [&](Tape& t, const std::vector<Var>& v) {
          return attend(Kernel::reference, t, v, BiasKind::none, lengths, AttentionMask(causal, 0), 4, &rel);
        },
        attention_inputs(2, 3, 5, 4, BiasKind::none, 151, true, false, &rel)));
  }
}

TEST_CASE("fused attention with values of their own width (d_v != d_h, as PoPE's)", "[ops][fused][pope]") {
  // Finite differences of both kernels, then the fast kernel held to the reference, with
  // d_v = d / 2 (PoPE) and d_v > d, padding, one and two tiles, a bias and SSMax.
  struct Case { int64_t B, H, L, d, dv; BiasKind kind; std::vector<int32_t> lengths; };
  const std::vector<Case> cases = {{2, 2, 5, 4, 2, BiasKind::none, {5, 1}}, {2, 1, 6, 3, 5, BiasKind::relative, {6, 4}},
                                   {2, 1, 70, 4, 2, BiasKind::none, {70, 40}}};
  uint64_t stream = 301;
  for (const Case& c : cases)
    for (bool causal : {false, true}) {
      INFO("L " << c.L << " d " << c.d << " d_v " << c.dv << " causal " << causal);
      std::vector<Tensor> inputs = attention_inputs(c.B, c.H, c.L, c.d, c.kind, stream += 10, true);
      inputs[2] = random_tensor(Shape{c.B, c.L, c.H, c.dv}, stream + 2);
      for (Kernel kernel : {Kernel::fused, Kernel::reference})
        REQUIRE_GRADS_OK(check_gradients(
            [&](Tape& t, const std::vector<Var>& v) { return attend(kernel, t, v, c.kind, c.lengths, causal, c.d); },
            inputs));
      const auto fast = outputs_and_grads(Kernel::fused, inputs, c.kind, c.lengths, causal, stream + 9);
      const auto reference = outputs_and_grads(Kernel::reference, inputs, c.kind, c.lengths, causal, stream + 9);
      REQUIRE(fast.size() == reference.size());
      REQUIRE(fast[0].shape() == Shape{c.B, c.L, c.H, c.dv});
      for (size_t i = 0; i < fast.size(); ++i) {
        double size = 1;
        for (int64_t j = 0; j < reference[i].numel(); ++j) size = std::max(size, std::fabs(double(reference[i][j])));
        INFO("output or gradient " << i << ": max abs diff " << max_abs_diff(fast[i], reference[i]));
        REQUIRE(max_abs_diff(fast[i], reference[i]) <= 1e-12 * size);
      }
    }
}
