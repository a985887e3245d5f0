// tests/core/test_fused_attention.cpp: fused_attention (float32) against its reference
// kernel (attention_reference: plain loops) and against the unfused composition of ops
// (matmul, scale, expand_relative, add, softmax with the additive mask, matmul): values and
// gradients of q, k, v and the bias agree within 1e-5, for relative
// (ALiBi-like and random T5-like) and full biases, key padding and causal masks, one tile
// and several; Transformer-XL's relative keys at contiguous and randomized positions;
// bit-identical results for 1 and 2 threads; a fully masked row gives zeros.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <omp.h>
#include <vector>

#include "core/ops.h"
#include "core/rng.h"
#include "layers/masks.h"
#include "tests/test_tensors.h"

using namespace ordo;
using Catch::Matchers::Contains;

namespace {

Tensor random_tensor(const Shape& shape, uint64_t stream, double lo = -1, double hi = 1) {
  return test::uniform_tensor(shape, 29, stream, lo, hi);
}

using test::bit_equal;
using test::with_threads;

bool all_finite(const Tensor& a) {
  for (int64_t i = 0; i < a.numel(); ++i)
    if (!std::isfinite(a[i])) return false;
  return true;
}

enum class BiasKind { none, alibi, t5, full };

// One attention problem: inputs, the gradient seed R and the mask settings.
struct Problem {
  int64_t B, H, L, d;
  BiasKind bias = BiasKind::none;
  bool causal = false;
  int64_t window = 0;            // AttentionMask::window
  bool ssmax = false;            // LogitTerms::log_length_scale, s = s_values
  bool forget = false;           // LogitTerms::forget, F = f_values
  std::vector<int32_t> lengths;  // (B)
  Tensor q, k, v, bias_values, R, s_values, f_values;
  // LogitTerms::relative_keys (set_relative_keys): queries rq (q's shape), keys rk (N, H, d).
  bool relative_keys = false;
  std::vector<int32_t> rel_positions;  // empty: 0..L-1
  int64_t rel_offset = 0;
  Tensor rq, rk;

  // Relative keys of N rows at these positions (empty: contiguous), row = pos(t) - pos(u) +
  // offset, the offset 3 rows above the least it can be.
  void set_relative_keys(std::vector<int32_t> positions, uint64_t seed) {
    relative_keys = true;
    rel_positions = std::move(positions);
    const int64_t span = rel_positions.empty() ? L - 1 : rel_positions.back() - rel_positions.front();
    rel_offset = span + 3;
    rq = random_tensor(Shape{B, L, H, d}, seed);
    rk = random_tensor(Shape{2 * span + 7, H, d}, seed + 1);
  }
  // The (L, L) rows the pairs read.
  TensorI32 rel_rows() const {
    TensorI32 rows = TensorI32::empty(Shape{L, L});
    auto pos = [&](int64_t t) { return rel_positions.empty() ? t : int64_t(rel_positions[size_t(t)]); };
    for (int64_t t = 0; t < L; ++t)
      for (int64_t u = 0; u < L; ++u) rows[t * L + u] = static_cast<int32_t>(pos(t) - pos(u) + rel_offset);
    return rows;
  }

  Problem(int64_t B_, int64_t H_, int64_t L_, int64_t d_, BiasKind kind, bool causal_,
          std::vector<int32_t> lengths_, uint64_t seed)
      : B(B_), H(H_), L(L_), d(d_), bias(kind), causal(causal_), lengths(std::move(lengths_)) {
    const Shape s{B, L, H, d};  // the op's layout, heads inner
    q = random_tensor(s, seed);
    k = random_tensor(s, seed + 1);
    v = random_tensor(s, seed + 2);
    R = random_tensor(s, seed + 3);
    s_values = random_tensor(Shape{H}, seed + 5, 0.5, 1.5);
    f_values = random_tensor(Shape{B, L, H}, seed + 6, -3, 0);
    if (kind == BiasKind::alibi) {  // -m_h |u - t| with slopes 2^(-8h/H)
      bias_values = Tensor::empty(Shape{H, 2 * L - 1});
      for (int64_t h = 0; h < H; ++h)
        for (int64_t j = 0; j < 2 * L - 1; ++j)
          bias_values[h * (2 * L - 1) + j] =
              static_cast<Real>(-std::pow(2.0, -8.0 * (h + 1) / H) * std::abs(double(j - (L - 1))));
    } else if (kind == BiasKind::t5) {
      bias_values = random_tensor(Shape{H, 2 * L - 1}, seed + 4);
    } else if (kind == BiasKind::full) {
      bias_values = random_tensor(Shape{H, L, L}, seed + 4);
    }
  }
  bool relative() const { return bias == BiasKind::alibi || bias == BiasKind::t5; }
  AttentionMask mask() const { return AttentionMask(causal, window); }
  Real scale() const { return static_cast<Real>(1.0 / std::sqrt(double(d))); }
};

// Output and gradients of loss = sum(attention(q, k, v) * R).
struct Result {
  Tensor out, dq, dk, dv, dbias, ds, dF, drq, drk;
};

// Rows t < lengths[b] of a (B, L, ...) tensor, sequence after sequence: (T, ...).
Tensor packed_copy(const Tensor& x, const std::vector<int32_t>& lengths) {
  const int64_t B = x.dim(0), L = x.dim(1), w = x.numel() / (B * L);
  int64_t T = 0;
  for (int32_t n : lengths) T += n;
  std::vector<int64_t> dims = x.shape().dims();
  dims.erase(dims.begin());
  dims[0] = T;
  Tensor out = Tensor::empty(Shape(dims));
  int64_t r = 0;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t t = 0; t < lengths[b]; ++t, ++r) std::copy(x.data() + (b * L + t) * w, x.data() + (b * L + t + 1) * w, out.data() + r * w);
  return out;
}

// Which computation of attention a run takes: the fast kernel, the reference kernel
// (core/ops/attention_reference.cpp: plain loops) or the composition of unfused ops.
enum class Kernel { fused, reference, unfused };

// through_op: q, k and v reach the op through scale(., 1) (exact), so their gradient
// buffers are fresh and the fused backward stores instead of adding (as inside the model).
// packed: fused_attention_packed on the real rows (R's real rows as the output gradient).
Result run(const Problem& pb, Kernel kernel, bool through_op = false, bool packed = false) {
  auto leaf = [&](const Tensor& x) { return packed ? packed_copy(x, pb.lengths) : x.clone(); };
  Parameter pq("q", leaf(pb.q)), pk("k", leaf(pb.k)), pv("v", leaf(pb.v));
  Parameter pbias("bias", pb.bias_values.defined() ? pb.bias_values.clone() : Tensor::zeros(Shape{1}));
  Parameter ps("s", pb.s_values.clone());
  // F's rows follow q's: packed, the real rows only.
  Parameter pf("F", packed ? packed_copy(pb.f_values, pb.lengths) : pb.f_values.clone());
  Parameter prq("rq", pb.relative_keys ? leaf(pb.rq) : Tensor::zeros(Shape{1}));
  Parameter prk("rk", pb.relative_keys ? pb.rk.clone() : Tensor::zeros(Shape{1}));
  for (Parameter* p : {&pq, &pk, &pv, &pbias, &ps, &pf, &prq, &prk}) p->grad = Tensor::zeros(p->value.shape());
  Tape t;
  Var q = t.param(pq), k = t.param(pk), v = t.param(pv);
  if (through_op) q = scale(t, q, 1), k = scale(t, k, 1), v = scale(t, v, 1);
  std::optional<Var> bias;
  if (pb.bias != BiasKind::none) bias = t.param(pbias);
  std::optional<Var> F;
  if (pb.forget) F = through_op ? scale(t, t.param(pf), 1) : t.param(pf);
  LogitTerms terms(FusedAttentionBias{bias, pb.relative()}, pb.ssmax ? std::optional<Var>(t.param(ps)) : std::nullopt,
                   F);
  if (pb.relative_keys)
    terms.relative_keys = RelativeKeys{through_op ? scale(t, t.param(prq), 1) : t.param(prq), t.param(prk),
                                       pb.rel_positions, pb.rel_offset};
  Var out;
  if (packed) {
    out = fused_attention_packed(t, q, k, v, terms, pb.lengths, pb.L,
                                 pb.mask(), pb.scale());
  } else if (kernel == Kernel::fused) {
    out = fused_attention(t, q, k, v, terms, pb.lengths, pb.mask(),
                          pb.scale());
  } else if (kernel == Kernel::reference) {
    out = attention_reference(t, q, k, v, terms, pb.lengths, pb.mask(),
                              pb.scale());
  } else {  // on (B, H, L, d) permutes, as the attention layer's unfused path
    const std::vector<int> heads_outer{0, 2, 1, 3};
    Var scores = scale(t, matmul(t, permute(t, q, heads_outer), permute(t, k, heads_outer), false, true),
                       pb.scale());
    if (bias) scores = add(t, scores, pb.relative() ? expand_relative(t, *bias, pb.L, pb.L) : *bias);
    if (F) {  // F_t - F_u
      Var Fh = permute(t, *F, {0, 2, 1});  // (B, H, L)
      scores = add(t, scores, sub(t, reshape(t, Fh, Shape{pb.B, pb.H, pb.L, 1}), reshape(t, Fh, Shape{pb.B, pb.H, 1, pb.L})));
    }
    if (pb.relative_keys) {
      const RelativeKeys& r = *terms.relative_keys;
      scores = add(t, scores, scale(t, relative_logits(t, permute(t, r.queries, heads_outer), r.keys, pb.rel_rows()),
                                    pb.scale()));
    }
    if (pb.ssmax) {  // row t of head h times s_h log n_t, n_t counted by the mask's definition
      Tensor logn = Tensor::zeros(Shape{pb.B, 1, pb.L, 1});
      for (int64_t b = 0; b < pb.B; ++b)
        for (int64_t row = 0; row < pb.L; ++row) {
          int64_t n = 0;
          for (int64_t u = 0; u < pb.L; ++u) n += pb.mask().visible(row, u, pb.lengths[b]);
          if (n > 0) logn[b * pb.L + row] = static_cast<Real>(std::log(double(n)));
        }
      scores = mul(t, scores, mul(t, t.input(logn), reshape(t, t.param(ps), Shape{pb.H, 1, 1})));
    }
    Var probs = softmax(t, scores, attention_mask(make_positions(pb.L, pb.lengths), pb.mask()));
    out = permute(t, matmul(t, probs, permute(t, v, heads_outer)), heads_outer);
  }
  Result r;
  r.out = t.value(out).clone();
  t.backward(sum(t, mul(t, out, t.input(leaf(pb.R)))));
  r.dq = pq.grad, r.dk = pk.grad, r.dv = pv.grad, r.dbias = pbias.grad, r.ds = ps.grad, r.dF = pf.grad;
  r.drq = prq.grad, r.drk = prk.grad;
  return r;
}

// |a - b| <= tol relative to the size of the reference (at least 1).
void require_close(const char* what, const Tensor& fused, const Tensor& ref, double tol = 1e-5) {
  REQUIRE(fused.shape() == ref.shape());
  double scale = 1;
  for (int64_t i = 0; i < ref.numel(); ++i) scale = std::max(scale, std::fabs(double(ref[i])));
  INFO(what << ": max abs diff " << max_abs_diff(fused, ref) << " (reference scale " << scale << ")");
  REQUIRE(all_finite(fused));
  REQUIRE(max_abs_diff(fused, ref) <= tol * scale);
}

void check_against_references(const Problem& pb) {
  INFO("B " << pb.B << " H " << pb.H << " L " << pb.L << " d " << pb.d << " bias " << int(pb.bias)
            << " causal " << pb.causal << " window " << pb.window << " ssmax " << pb.ssmax << " forget " << pb.forget
            << " relative keys " << pb.relative_keys << " positions " << pb.rel_positions.size());
  const Result f = run(pb, Kernel::fused), r = run(pb, Kernel::reference), u = run(pb, Kernel::unfused);
  // Stored (fresh) gradients equal accumulated ones bit for bit, masked keys included.
  const Result s = run(pb, Kernel::fused, true);
  REQUIRE(bit_equal(s.out, f.out));
  REQUIRE(bit_equal(s.dq, f.dq));
  REQUIRE(bit_equal(s.dk, f.dk));
  REQUIRE(bit_equal(s.dv, f.dv));
  REQUIRE(bit_equal(s.dF, f.dF));
  REQUIRE(bit_equal(s.drq, f.drq));
  REQUIRE(bit_equal(s.drk, f.drk));
  // The fast kernel against the reference kernel, and both against the unfused ops.
  for (const Result* ref : {&r, &u}) {
    INFO((ref == &r ? "against the reference kernel" : "against the unfused composition"));
    require_close("out", f.out, ref->out);
    require_close("dq", f.dq, ref->dq);
    require_close("dk", f.dk, ref->dk);
    require_close("dv", f.dv, ref->dv);
    if (pb.bias != BiasKind::none) require_close("dbias", f.dbias, ref->dbias);
    // ds_h sums B L^2 terms of either sign in float32 (the float64 build holds it to 1e-12).
    if (pb.ssmax) require_close("ds", f.ds, ref->ds, 1e-4);
    if (pb.forget) require_close("dF", f.dF, ref->dF);
    if (pb.relative_keys) require_close("dqr", f.drq, ref->drq), require_close("dkeys", f.drk, ref->drk);
  }
  require_close("reference out", r.out, u.out);
  require_close("reference dq", r.dq, u.dq);
  require_close("reference dk", r.dk, u.dk);
  require_close("reference dv", r.dv, u.dv);
  if (pb.bias != BiasKind::none) require_close("reference dbias", r.dbias, u.dbias);
  if (pb.ssmax) require_close("reference ds", r.ds, u.ds, 1e-4);
  if (pb.forget) require_close("reference dF", r.dF, u.dF);
  if (pb.relative_keys) require_close("reference dqr", r.drq, u.drq), require_close("reference dkeys", r.drk, u.drk);
}

}  // namespace

TEST_CASE("fused attention matches the reference kernel and the unfused composition without a bias", "[ops][fused]") {
  for (bool causal : {false, true}) {
    check_against_references(Problem(2, 2, 64, 16, BiasKind::none, causal, {64, 64}, 1));
    check_against_references(Problem(3, 1, 7, 5, BiasKind::none, causal, {7, 4, 1}, 11));
    check_against_references(Problem(1, 1, 1, 3, BiasKind::none, causal, {1}, 21));
    // d = 40: column blocks of two vectors and a last one of one (AVX2 and AVX-512); L = 33:
    // row blocks of 8 and a last one of 4.
    check_against_references(Problem(2, 2, 33, 40, BiasKind::none, causal, {33, 20}, 23));
  }
}

TEST_CASE("fused attention matches the reference kernel and the unfused composition with an ALiBi-like relative bias",
          "[ops][fused]") {
  for (bool causal : {false, true}) {
    check_against_references(Problem(2, 4, 32, 8, BiasKind::alibi, causal, {32, 20}, 31));
    check_against_references(Problem(2, 3, 130, 16, BiasKind::alibi, causal, {130, 97}, 41));
  }
}

TEST_CASE("fused attention matches the reference kernel and the unfused composition with a learned (T5-like) relative bias",
          "[ops][fused]") {
  for (bool causal : {false, true}) {
    check_against_references(Problem(3, 2, 130, 16, BiasKind::t5, causal, {130, 70, 1}, 51));
    check_against_references(Problem(2, 3, 5, 4, BiasKind::t5, causal, {5, 2}, 61));
    check_against_references(Problem(1, 2, 64, 32, BiasKind::t5, causal, {64}, 71));
  }
}

TEST_CASE("fused attention matches the reference kernel and the unfused composition with a full bias", "[ops][fused]") {
  for (bool causal : {false, true}) {
    check_against_references(Problem(2, 2, 70, 8, BiasKind::full, causal, {70, 33}, 81));
    check_against_references(Problem(3, 1, 130, 16, BiasKind::full, causal, {128, 130, 1}, 91));
  }
}

// A window skips key tiles, starts a row's keys past u0 = 0 and leaves padded query rows
// with no key: the cases below cross tile edges (L = 130, tiles of 64) with windows of one
// key, less than a tile, about a tile and more than L.
TEST_CASE("fused attention with a sliding window matches the reference kernel and the unfused composition",
          "[ops][fused][window]") {
  uint64_t seed = 401;
  for (int64_t window : {1, 5, 63, 70, 200})
    for (BiasKind kind : {BiasKind::none, BiasKind::alibi, BiasKind::full})
      for (bool causal : {false, true}) {
        Problem pb(3, 2, 130, 8, kind, causal, {130, 97, 20}, seed += 10);
        pb.window = window;
        check_against_references(pb);
      }
}

TEST_CASE("fused attention: a window of at least L is no window, bit for bit", "[ops][fused][window]") {
  for (bool causal : {false, true}) {
    Problem pb(2, 2, 130, 16, BiasKind::t5, causal, {130, 77}, 451);
    const Result all = run(pb, Kernel::fused);
    pb.window = 130;
    const Result windowed = run(pb, Kernel::fused);
    REQUIRE(bit_equal(all.out, windowed.out));
    REQUIRE(bit_equal(all.dq, windowed.dq));
    REQUIRE(bit_equal(all.dk, windowed.dk));
    REQUIRE(bit_equal(all.dv, windowed.dv));
    REQUIRE(bit_equal(all.dbias, windowed.dbias));
  }
}

// The window's definition, literally: with W = 1 each query sees itself alone, so the output
// is v_t; with W = 2 and causal, query t mixes v_{t-1} and v_t only.
TEST_CASE("fused attention: the keys a window shows", "[ops][fused][window]") {
  Problem pb(1, 1, 70, 4, BiasKind::none, false, {70}, 461);
  pb.window = 1;
  const Result one = run(pb, Kernel::fused);
  REQUIRE(max_abs_diff(one.out, pb.v) <= 1e-6);
  pb.window = 2;
  pb.causal = true;
  Tensor v_changed = pb.v.clone();
  for (int64_t c = 0; c < pb.d; ++c) v_changed[10 * pb.d + c] += 1;  // key 10: seen by queries 10 and 11 only
  const Result before = run(pb, Kernel::fused);
  pb.v = v_changed;
  const Result after = run(pb, Kernel::fused);
  for (int64_t t = 0; t < pb.L; ++t) {
    double diff = 0;
    for (int64_t c = 0; c < pb.d; ++c) diff += std::fabs(double(after.out[t * pb.d + c] - before.out[t * pb.d + c]));
    INFO("query " << t);
    REQUIRE((diff > 0) == (t == 10 || t == 11));
  }
}

TEST_CASE("fused attention with SSMax matches the reference kernel and the unfused composition",
          "[ops][fused][ssmax]") {
  uint64_t seed = 501;
  for (int64_t window : {0, 9})
    for (BiasKind kind : {BiasKind::none, BiasKind::alibi, BiasKind::t5, BiasKind::full})
      for (bool causal : {false, true}) {
        Problem pb(3, 2, 130, 8, kind, causal, {130, 97, 1}, seed += 10);
        pb.window = window;
        pb.ssmax = true;
        check_against_references(pb);
      }
}

TEST_CASE("fused attention with FoX's forget term matches the reference kernel and the unfused composition",
          "[ops][fused][fox]") {
  uint64_t seed = 601;
  for (int64_t window : {0, 9})
    for (bool ssmax : {false, true})
      for (BiasKind kind : {BiasKind::none, BiasKind::alibi, BiasKind::full})
        for (bool causal : {false, true}) {
          Problem pb(3, 2, 130, 8, kind, causal, {130, 97, 1}, seed += 10);
          pb.window = window;
          pb.ssmax = ssmax;
          pb.forget = true;
          check_against_references(pb);
        }
}

TEST_CASE("fused attention: a forget term of zeros changes no bit", "[ops][fused][fox]") {
  for (bool causal : {false, true}) {
    Problem pb(2, 2, 130, 16, BiasKind::t5, causal, {130, 77}, 651);
    const Result plain = run(pb, Kernel::fused);
    pb.forget = true;
    pb.f_values = Tensor::zeros(pb.f_values.shape());
    const Result zero = run(pb, Kernel::fused);
    REQUIRE(bit_equal(plain.out, zero.out));
    REQUIRE(bit_equal(plain.dq, zero.dq));
    REQUIRE(bit_equal(plain.dk, zero.dk));
    REQUIRE(bit_equal(plain.dv, zero.dv));
    REQUIRE(bit_equal(plain.dbias, zero.dbias));
  }
}

// Nakanishi 2025: SSMax is the softmax of (s log n) z; with s log n = 1 it is the softmax.
// Without padding and bidirectional, every query sees n = L keys: s = 1 / log L.
TEST_CASE("fused attention: SSMax with s log n = 1 changes nothing", "[ops][fused][ssmax]") {
  for (BiasKind kind : {BiasKind::none, BiasKind::t5}) {
    Problem pb(2, 3, 70, 8, kind, false, {70, 70}, 551);
    const Result plain = run(pb, Kernel::fused);
    pb.ssmax = true;
    for (int64_t h = 0; h < pb.H; ++h) pb.s_values[h] = static_cast<Real>(1 / std::log(70.0));
    const Result scaled = run(pb, Kernel::fused);
    require_close("out", scaled.out, plain.out);
    require_close("dq", scaled.dq, plain.dq);
    require_close("dk", scaled.dk, plain.dk);
    require_close("dv", scaled.dv, plain.dv);
    if (kind != BiasKind::none) require_close("dbias", scaled.dbias, plain.dbias);
  }
}

// The definition literally: query t sees n_t keys and its weights are n_t^(s z) normalised,
// in float64 arithmetic on the fused kernel's float32 output.
TEST_CASE("fused attention: SSMax weights are n^(s z) over their sum", "[ops][fused][ssmax]") {
  Problem pb(1, 1, 12, 4, BiasKind::alibi, true, {12}, 561);
  pb.ssmax = true;
  pb.window = 5;
  const Result r = run(pb, Kernel::fused);
  const double s = pb.s_values[0], inv = 1 / std::sqrt(4.0);
  for (int64_t t = 0; t < pb.L; ++t) {
    const int64_t lo = std::max<int64_t>(0, t - 4), n = t - lo + 1;
    std::vector<double> w;
    double total = 0;
    for (int64_t u = lo; u <= t; ++u) {
      double z = 0;
      for (int64_t c = 0; c < pb.d; ++c) z += double(pb.q[t * pb.d + c]) * double(pb.k[u * pb.d + c]);
      z = z * inv + double(pb.bias_values[(u - t) + pb.L - 1]);
      w.push_back(std::pow(double(n), s * z));
      total += w.back();
    }
    for (int64_t c = 0; c < pb.d; ++c) {
      double o = 0;
      for (int64_t u = lo; u <= t; ++u) o += w[size_t(u - lo)] / total * double(pb.v[u * pb.d + c]);
      INFO("query " << t << " channel " << c);
      REQUIRE(std::fabs(double(r.out[t * pb.d + c]) - o) <= 1e-5);
    }
  }
}

// Positions increasing with gaps of 1 to 9 (randomized positions, docs/spec.md §2.13).
static std::vector<int32_t> gapped_positions(int64_t L, uint64_t seed) {
  const Tensor g = random_tensor(Shape{L}, seed, 1, 10);
  std::vector<int32_t> pos(static_cast<size_t>(L));
  int32_t at = static_cast<int32_t>(g[0]);
  for (int64_t t = 0; t < L; ++t) pos[size_t(t)] = at += static_cast<int32_t>(g[t]);
  return pos;
}

TEST_CASE("fused attention with relative keys matches the reference kernel and the unfused composition",
          "[ops][fused][relative_keys]") {
  uint64_t seed = 601;
  // L = 70: two tiles; d = 5: the keys copied and padded to 8; d = 8: read in place;
  // lengths with padding and a single key.
  for (int64_t d : {5, 8})
  for (bool gapped : {false, true})
    for (bool causal : {false, true})
      for (int64_t window : {0, 9}) {
        Problem pb(3, 2, 70, d, BiasKind::none, causal, {70, 41, 1}, seed += 10);
        pb.window = window;
        pb.ssmax = window > 0;  // SSMax scales the relative term with the rest of the row
        pb.set_relative_keys(gapped ? gapped_positions(pb.L, seed + 7) : std::vector<int32_t>{}, seed + 8);
        check_against_references(pb);
      }
  Problem one(1, 1, 1, 3, BiasKind::none, false, {1}, 701);  // one token: the term of distance 0 only
  one.set_relative_keys({}, 702);
  check_against_references(one);
}

TEST_CASE("fused attention: relative keys of one constant row add nothing", "[ops][fused][relative_keys]") {
  // keys[n] = c for every n: each query's logits all move by scale qr_t . c, which the softmax removes.
  Problem pb(2, 2, 40, 8, BiasKind::none, false, {40, 25}, 801);
  pb.set_relative_keys(gapped_positions(pb.L, 802), 803);
  for (int64_t n = 0; n < pb.rk.dim(0); ++n)
    for (int64_t c = 0; c < pb.H * pb.d; ++c) pb.rk[n * pb.H * pb.d + c] = pb.rk[c];
  const Result with = run(pb, Kernel::fused);
  pb.relative_keys = false;
  const Result without = run(pb, Kernel::fused);
  require_close("out", with.out, without.out, 1e-6);
  require_close("dq", with.dq, without.dq, 1e-6);
  require_close("dv", with.dv, without.dv, 1e-6);
}

TEST_CASE("fused attention gives the same bits for 1 and 2 threads", "[ops][fused]") {
  for (BiasKind kind : {BiasKind::none, BiasKind::t5, BiasKind::full})
    for (bool causal : {false, true}) {
      const Problem pb(4, 2, 130, 16, kind, causal, {130, 100, 64, 3}, 101);
      Result one, two;
      with_threads(1, [&] { one = run(pb, Kernel::fused); });
      with_threads(2, [&] { two = run(pb, Kernel::fused); });
      INFO("bias " << int(kind) << " causal " << causal);
      REQUIRE(bit_equal(one.out, two.out));
      REQUIRE(bit_equal(one.dq, two.dq));
      REQUIRE(bit_equal(one.dk, two.dk));
      REQUIRE(bit_equal(one.dv, two.dv));
      REQUIRE(bit_equal(one.dbias, two.dbias));
    }
  for (int64_t d : {5, 8})  // relative keys, copied and in place: the keys' gradient is summed head by head
  for (bool causal : {false, true}) {
    Problem pb(4, 2, 130, d, BiasKind::none, causal, {130, 100, 64, 3}, 111);
    pb.set_relative_keys(causal ? gapped_positions(pb.L, 112) : std::vector<int32_t>{}, 113);
    Result one, two;
    with_threads(1, [&] { one = run(pb, Kernel::fused); });
    with_threads(2, [&] { two = run(pb, Kernel::fused); });
    INFO("relative keys, d " << d << ", causal " << causal);
    REQUIRE(bit_equal(one.out, two.out));
    REQUIRE(bit_equal(one.dq, two.dq));
    REQUIRE(bit_equal(one.drq, two.drq));
    REQUIRE(bit_equal(one.drk, two.drk));
  }
}

TEST_CASE("fused attention: a previous call's scratch reaches no result where tiles are masked in part",
          "[ops][fused][window]") {
  // Under a causal mask or a window the kernels leave the masked part of a tile out of their
  // products (QueryBands) and write zeros there, and the pair scratch is reused across calls
  // unwritten. A call on NaN inputs with nothing masked (so the plain products write every row
  // and column of the tiles; the scratch's main arrays are placed by L and d alone, the terms'
  // after them) fills every thread's scratch with NaN first: the next call must give the bits
  // it gave before, every value finite.
  struct Case {
    bool causal;
    int64_t window;
    BiasKind bias;
    bool forget, relative_keys;
  };
  for (const Case& c : {Case{true, 0, BiasKind::none, false, false}, Case{true, 0, BiasKind::t5, true, false},
                        Case{true, 5, BiasKind::none, false, true}, Case{false, 5, BiasKind::alibi, false, false},
                        Case{false, 20, BiasKind::full, false, false}, Case{true, 16, BiasKind::none, false, false}}) {
    INFO("causal " << c.causal << " window " << c.window << " bias " << int(c.bias));
    for (int64_t d : {8, 16, 40}) {
      Problem pb(2, 2, 70, d, c.bias, c.causal, {70, 33}, 141 + d);
      pb.window = c.window;
      pb.forget = c.forget;
      if (c.relative_keys) pb.set_relative_keys({}, 151);
      const Result before = run(pb, Kernel::fused);
      Problem poison(2, 2, 70, d, BiasKind::none, false, {70, 70}, 161);
      for (Tensor* x : {&poison.q, &poison.k, &poison.v, &poison.R}) x->fill(Real(NAN));
      const Result nan = run(poison, Kernel::fused);
      REQUIRE_FALSE(all_finite(nan.dv));  // the scratch did see NaN (dP = dO v^T)
      const Result after = run(pb, Kernel::fused);
      for (const auto& [name, x, y] : {std::tuple{"out", &before.out, &after.out}, std::tuple{"dq", &before.dq, &after.dq},
                                       std::tuple{"dk", &before.dk, &after.dk}, std::tuple{"dv", &before.dv, &after.dv}}) {
        INFO(name << " d " << d);
        REQUIRE(all_finite(*y));
        REQUIRE(bit_equal(*x, *y));
      }
    }
  }
}

TEST_CASE("fused attention: a row with every key masked gives zeros and zero gradients",
          "[ops][fused]") {
  for (bool causal : {false, true}) {
    // Batch entry 1 has no real key at all.
    const Problem pb(2, 2, 70, 8, BiasKind::t5, causal, {70, 0}, 111);
    const Result r = run(pb, Kernel::fused, true);  // fresh gradient buffers: zeros must be stored
    for (const Tensor* g : {&r.out, &r.dq, &r.dk, &r.dv, &r.dbias}) REQUIRE(all_finite(*g));
    const int64_t per_batch = pb.H * pb.L * pb.d;
    for (int64_t i = per_batch; i < 2 * per_batch; ++i) {
      REQUIRE(r.out[i] == 0);
      REQUIRE(r.dq[i] == 0);
      REQUIRE(r.dk[i] == 0);
      REQUIRE(r.dv[i] == 0);
    }
    // Entry 0 alone gives the same bias gradient: entry 1 contributes nothing.
    const Problem alone(1, 2, 70, 8, BiasKind::t5, causal, {70}, 111);
    REQUIRE(max_abs_diff(run(alone, Kernel::fused).dbias, r.dbias) <= 1e-6);
    // The reference kernel says the same (the unfused ops refuse a sequence of no token).
    const Result ref = run(pb, Kernel::reference);
    require_close("out", r.out, ref.out);
    require_close("dq", r.dq, ref.dq);
    require_close("dk", r.dk, ref.dk);
    require_close("dv", r.dv, ref.dv);
    require_close("dbias", r.dbias, ref.dbias);
  }
}

TEST_CASE("fused attention: padded query rows attend to the real keys", "[ops][fused]") {
  const Problem pb(1, 1, 6, 4, BiasKind::none, false, {2}, 121);
  const Result r = run(pb, Kernel::fused);
  // Row 5 (padding) is a convex combination of v_0 and v_1, not zero.
  double norm = 0;
  for (int64_t c = 0; c < pb.d; ++c) norm += std::fabs(r.out[5 * pb.d + c]);
  REQUIRE(norm > 0);
  check_against_references(pb);
}

TEST_CASE("fused attention: only the real keys matter", "[ops][fused]") {
  // Changing k and v at padded key positions changes nothing.
  Problem a(1, 2, 70, 8, BiasKind::alibi, false, {40}, 131);
  Problem b = a;
  b.k = a.k.clone();
  b.v = a.v.clone();
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t u = 40; u < 70; ++u)
      for (int64_t c = 0; c < 8; ++c) {
        b.k[(u * 2 + h) * 8 + c] = 100;  // (B, L, H, d)
        b.v[(u * 2 + h) * 8 + c] = -100;
      }
  const Result ra = run(a, Kernel::fused), rb = run(b, Kernel::fused);
  REQUIRE(bit_equal(ra.out, rb.out));
  REQUIRE(bit_equal(ra.dq, rb.dq));
}

TEST_CASE("fused attention rejects bad shapes and lengths with a message", "[ops][fused]") {
  Tape t;
  Var q = t.input(random_tensor(Shape{2, 5, 3, 4}, 1));  // (B, L, H, d)
  Var k = t.input(random_tensor(Shape{2, 5, 3, 4}, 2));
  Var v = t.input(random_tensor(Shape{2, 5, 3, 4}, 3));
  Var rel = t.input(random_tensor(Shape{3, 8}, 4));
  Var full = t.input(random_tensor(Shape{3, 5, 4}, 5));
  REQUIRE_THROWS_WITH(fused_attention(t, q, k, v, {}, {5}, false, 1),
                      Contains("key_lengths") && Contains("batch of 2"));
  REQUIRE_THROWS_WITH(fused_attention(t, q, k, v, {}, {5, 6}, false, 1), Contains("key_lengths[1] = 6"));
  REQUIRE_THROWS_WITH(fused_attention(t, q, k, v, FusedAttentionBias{rel, true}, {5, 5}, false, 1),
                      Contains("(H, 2L - 1) = (3, 9)") && Contains("(3, 8)"));
  REQUIRE_THROWS_WITH(fused_attention(t, q, k, v, FusedAttentionBias{full, false}, {5, 5}, false, 1),
                      Contains("(H, L, L) = (3, 5, 5)"));
  Var bad = t.input(random_tensor(Shape{2, 6, 3, 4}, 6));
  REQUIRE_THROWS_WITH(fused_attention(t, q, bad, v, {}, {5, 5}, false, 1), Contains("q and k must have one shape"));
  // v may differ from q in its last dimension only.
  REQUIRE_THROWS_WITH(fused_attention(t, q, k, bad, {}, {5, 5}, false, 1),
                      Contains("v (B, L, H, d_v)") && Contains("v (2, 6, 3, 4)"));
  Var s2 = t.input(random_tensor(Shape{2}, 7));
  REQUIRE_THROWS_WITH(fused_attention(t, q, k, v, LogitTerms({}, s2), {5, 5}, false, 1),
                      Contains("log-length scale") && Contains("(H) = (3)"));
  REQUIRE_THROWS_WITH(fused_attention(t, q, k, v, {}, {5, 5}, AttentionMask(false, -1), 1), Contains("window must be >= 0"));
}


TEST_CASE("packed fused attention gives the padded op's bits on the real rows", "[ops][fused][pack]") {
  struct Case { int64_t L, d; std::vector<int32_t> lengths; };
  // (d = 5: the relative keys copied and padded, not read in place)
  const std::vector<Case> cases = {{130, 16, {130, 100, 0, 64, 3}}, {70, 8, {5, 70, 33}}, {12, 32, {12, 1}},
                                   {40, 5, {40, 7, 0}}};
  uint64_t seed = 141;
  for (const Case& c : cases)
    for (BiasKind kind : {BiasKind::none, BiasKind::alibi, BiasKind::t5, BiasKind::full})
      for (int64_t window : {0, 9})
      for (bool causal : {false, true}) {
        Problem pb(static_cast<int64_t>(c.lengths.size()), 2, c.L, c.d, kind, causal, c.lengths, seed += 10);
        pb.window = window;
        pb.ssmax = window > 0;  // one SSMax case per window setting
        pb.forget = causal;
        if (kind == BiasKind::none) pb.set_relative_keys(window > 0 ? gapped_positions(pb.L, seed + 3) : std::vector<int32_t>{}, seed + 4);
        // The padded reference gets a zero output gradient at the padding, as the model's
        // output mask gives it.
        for (int64_t b = 0; b < pb.B; ++b)
          for (int64_t i = c.lengths[b] * pb.H * pb.d; i < pb.L * pb.H * pb.d; ++i) pb.R[b * pb.L * pb.H * pb.d + i] = 0;
        INFO("L " << c.L << " d " << c.d << " bias " << int(kind) << " causal " << causal << " window " << window);
        const Result padded = run(pb, Kernel::fused);
        for (bool through_op : {false, true}) {
          const Result packed = run(pb, Kernel::fused, through_op, true);
          REQUIRE(bit_equal(packed.out, packed_copy(padded.out, pb.lengths)));
          REQUIRE(bit_equal(packed.dq, packed_copy(padded.dq, pb.lengths)));
          REQUIRE(bit_equal(packed.dk, packed_copy(padded.dk, pb.lengths)));
          REQUIRE(bit_equal(packed.dv, packed_copy(padded.dv, pb.lengths)));
          REQUIRE(bit_equal(packed.dbias, padded.dbias));
          REQUIRE(bit_equal(packed.ds, padded.ds));
          if (pb.forget) REQUIRE(bit_equal(packed.dF, packed_copy(padded.dF, pb.lengths)));
          if (pb.relative_keys) {
            REQUIRE(bit_equal(packed.drq, packed_copy(padded.drq, pb.lengths)));
            REQUIRE(bit_equal(packed.drk, padded.drk));
          }
        }
        Result one, two;
        with_threads(1, [&] { one = run(pb, Kernel::fused, true, true); });
        with_threads(2, [&] { two = run(pb, Kernel::fused, true, true); });
        REQUIRE(bit_equal(one.out, two.out));
        REQUIRE(bit_equal(one.dq, two.dq));
        REQUIRE(bit_equal(one.dk, two.dk));
        REQUIRE(bit_equal(one.dv, two.dv));
        REQUIRE(bit_equal(one.dbias, two.dbias));
      }
}

TEST_CASE("fused attention with values of their own width (d_v != d_h, as PoPE's) matches the references",
          "[ops][fused][pope]") {
  // PoPE's queries and keys are 2 d_h wide and its values d_h: d_v = d / 2; and d_v > d, with
  // widths off the vector size (d_v = 5, 24), every term beside them.
  struct Case { int64_t L, d, dv; std::vector<int32_t> lengths; };
  const std::vector<Case> cases = {{64, 32, 16, {64, 40}}, {70, 16, 8, {70, 1, 33}}, {33, 8, 5, {33, 20}},
                                   {40, 8, 24, {40, 2, 17}}};
  uint64_t seed = 601;
  for (const Case& c : cases)
    for (bool causal : {false, true})
      for (BiasKind kind : {BiasKind::none, BiasKind::t5}) {
        Problem pb(static_cast<int64_t>(c.lengths.size()), 2, c.L, c.d, kind, causal, c.lengths, seed += 10);
        pb.v = random_tensor(Shape{pb.B, pb.L, pb.H, c.dv}, seed + 7);
        pb.R = random_tensor(Shape{pb.B, pb.L, pb.H, c.dv}, seed + 8);
        pb.ssmax = kind == BiasKind::t5;
        pb.forget = causal;
        if (kind == BiasKind::none) pb.set_relative_keys({}, seed + 9);
        INFO("d_v " << c.dv);
        check_against_references(pb);
        // Packed: the padded op's bits on the real rows (a zero output gradient at the padding).
        for (int64_t b = 0; b < pb.B; ++b)
          for (int64_t i = c.lengths[b] * pb.H * c.dv; i < pb.L * pb.H * c.dv; ++i) pb.R[b * pb.L * pb.H * c.dv + i] = 0;
        const Result padded = run(pb, Kernel::fused), packed = run(pb, Kernel::fused, true, true);
        REQUIRE(padded.out.dim(3) == c.dv);
        REQUIRE(bit_equal(packed.out, packed_copy(padded.out, pb.lengths)));
        REQUIRE(bit_equal(packed.dq, packed_copy(padded.dq, pb.lengths)));
        REQUIRE(bit_equal(packed.dk, packed_copy(padded.dk, pb.lengths)));
        REQUIRE(bit_equal(packed.dv, packed_copy(padded.dv, pb.lengths)));
      }
}

TEST_CASE("packed fused attention rejects bad shapes and lengths with a message", "[ops][fused][pack]") {
  Tape t;
  Var q = t.input(random_tensor(Shape{7, 3, 4}, 1));  // (T, H, d)
  Var k = t.input(random_tensor(Shape{7, 3, 4}, 2));
  Var v = t.input(random_tensor(Shape{7, 3, 4}, 3));
  Var rel = t.input(random_tensor(Shape{3, 8}, 4));
  REQUIRE_THROWS_WITH(fused_attention_packed(t, q, k, v, {}, {5, 3}, 5, false, 1),
                      Contains("7 rows") && Contains("sum to 8"));
  REQUIRE_THROWS_WITH(fused_attention_packed(t, q, k, v, {}, {6, 1}, 5, false, 1), Contains("lengths[0] = 6"));
  REQUIRE_THROWS_WITH(fused_attention_packed(t, q, k, v, FusedAttentionBias{rel, true}, {5, 2}, 5, false, 1),
                      Contains("(H, 2L - 1) = (3, 9)"));
  REQUIRE_THROWS_WITH(fused_attention_packed(t, q, k, v, {}, {5, 2}, 0, false, 1), Contains("L must be >= 1"));
  Var q4 = t.input(random_tensor(Shape{1, 7, 3, 4}, 5));
  REQUIRE_THROWS_WITH(fused_attention_packed(t, q4, k, v, {}, {5, 2}, 5, false, 1), Contains("(T, H, d_h)"));
}

TEST_CASE("fused attention: a term in LogitTerms::more must name a unit of the kernel's list", "[fused_attention]") {
  Tape t;
  Var q = t.input(Tensor::zeros(Shape{1, 4, 2, 8}));
  LogitTerms unknown;
  unknown.more["alibi_slopes"] = {t.input(Tensor::zeros(Shape{2}))};
  CHECK_THROWS_WITH(fused_attention(t, q, q, q, unknown, {4}, AttentionMask(true), 1),
                    Catch::Contains("no logit term named 'alibi_slopes' (the terms: bias, forget, relative_keys)"));
  CHECK_THROWS_WITH(fused_attention_packed(t, t.input(Tensor::zeros(Shape{4, 2, 8})), t.input(Tensor::zeros(Shape{4, 2, 8})),
                                           t.input(Tensor::zeros(Shape{4, 2, 8})), unknown, {4}, 4, AttentionMask(true), 1),
                    Catch::Contains("fused_attention_packed: no logit term named 'alibi_slopes'"));
  LogitTerms field;  // a built-in term has its field
  field.more["forget"] = {t.input(Tensor::zeros(Shape{1, 4, 2}))};
  CHECK_THROWS_WITH(fused_attention(t, q, q, q, field, {4}, AttentionMask(true), 1),
                    Catch::Contains("the logit term 'forget' has a field of its own in LogitTerms"));
  // The reference kernel runs the same list of units (their slices).
  CHECK_THROWS_WITH(attention_reference(t, q, q, q, unknown, {4}, AttentionMask(true), 1),
                    Catch::Contains("attention_reference: no logit term named 'alibi_slopes' (the terms: bias, forget, relative_keys)"));
}
