// tests/core/test_determinism.cpp: every op of core/ops.h gives bit-identical forward values
// and gradients with 1 and with 2 OpenMP threads.
//
// Inputs are sized (~4096 x 64) so that parallel_for takes its OpenMP path. Each op runs as
// loss = sum(op(inputs) * R) with R a fixed random tensor; the output and the gradient of
// every input are compared with memcmp.
//
// Every op declared in core/ops.h had its .cpp when this file was written (elementwise,
// reduce, unary, shape, matmul, softmax, cross_entropy, layernorm, embedding, dropout,
// positional, attention; later pack), so nothing is skipped.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <omp.h>

#include "core/ops.h"
#include "core/rng.h"
#include "tests/test_tensors.h"

using namespace ordo;

namespace {

Tensor random_tensor(const Shape& shape, uint64_t stream, double lo = -1, double hi = 1) {
  return test::uniform_tensor(shape, 2024, stream, lo, hi);
}

// |x| in [0.5, 1.5) with a random sign: safe divisors.
Tensor away_from_zero(const Shape& shape, uint64_t stream) { return test::away_from_zero_tensor(shape, 2024, stream); }

using OpFn = std::function<Var(Tape&, const std::vector<Var>&)>;

// The output of f and the gradient of every input, computed with `threads` OpenMP threads.
std::vector<Tensor> run(int threads, const OpFn& f, const std::vector<Tensor>& inputs) {
  const int previous = omp_get_max_threads();
  omp_set_num_threads(threads);
  REQUIRE(omp_get_max_threads() == threads);
  std::vector<Parameter> params;
  params.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) params.emplace_back("in" + std::to_string(i), inputs[i].clone());
  Tape t;
  std::vector<Var> vars;
  for (auto& p : params) vars.push_back(t.param(p));
  Var out = f(t, vars);
  std::vector<Tensor> results = {t.value(out).clone()};
  Tensor R = random_tensor(t.shape(out), 77);
  t.backward(sum(t, mul(t, out, t.input(R))));
  for (auto& p : params) results.push_back(p.grad.clone());
  omp_set_num_threads(previous);
  return results;
}

using test::bit_equal;

void require_deterministic(const std::string& name, const OpFn& f, const std::vector<Tensor>& inputs) {
  INFO(name);
  const std::vector<Tensor> one = run(1, f, inputs), two = run(2, f, inputs);
  REQUIRE(one.size() == two.size());
  for (size_t i = 0; i < one.size(); ++i) {
    INFO((i == 0 ? std::string("output") : "gradient of input " + std::to_string(i - 1)));
    REQUIRE(bit_equal(one[i], two[i]));
  }
}

const Shape kRows{4096, 64};  // (N, d)
const Shape kBLd{64, 64, 64};  // (B, L, d)

}  // namespace

TEST_CASE("elementwise ops are bit-identical for 1 and 2 threads", "[ops][determinism]") {
  struct Pair { const char* what; Shape a, b; };
  const Pair pairs[] = {{"same shape", kRows, kRows},
                        {"bias (N, d) + (d)", kRows, Shape{64}},
                        {"(d) + (N, d)", Shape{64}, kRows},
                        {"(B, L, d) + (L, d)", kBLd, Shape{64, 64}},
                        {"(B, L, d) * (B, L, 1)", kBLd, Shape{64, 64, 1}},
                        {"(B, 1, d) with (1, L, 1)", Shape{64, 1, 64}, Shape{1, 64, 1}},
                        {"(N, d) with a scalar", kRows, Shape{}}};
  using BinaryOp = Var (*)(Tape&, Var, Var);
  const std::pair<const char*, BinaryOp> ops[] = {{"add", add}, {"sub", sub}, {"mul", mul}, {"div", div}};
  uint64_t stream = 1;
  for (const auto& [name, op] : ops)
    for (const Pair& p : pairs) {
      BinaryOp f = op;
      require_deterministic(std::string(name) + " " + p.what,
                            [f](Tape& t, const std::vector<Var>& v) { return f(t, v[0], v[1]); },
                            {random_tensor(p.a, ++stream), away_from_zero(p.b, ++stream)});
    }
  require_deterministic("scale", [](Tape& t, const std::vector<Var>& v) { return scale(t, v[0], Real(0.3)); },
                        {random_tensor(kRows, 100)});
}

TEST_CASE("reductions are bit-identical for 1 and 2 threads", "[ops][determinism]") {
  using UnaryOp = Var (*)(Tape&, Var);
  const std::pair<const char*, UnaryOp> ops[] = {
      {"sum", sum}, {"mean", mean}, {"sum_last", sum_last}, {"mean_last", mean_last}};
  for (const auto& [name, op] : ops) {
    UnaryOp f = op;
    require_deterministic(name, [f](Tape& t, const std::vector<Var>& v) { return f(t, v[0]); },
                          {random_tensor(kRows, 200)});
  }
}

TEST_CASE("unary ops are bit-identical for 1 and 2 threads", "[ops][determinism]") {
  using UnaryOp = Var (*)(Tape&, Var);
  const std::pair<const char*, UnaryOp> ops[] = {
      {"exp", ordo::exp}, {"tanh", ordo::tanh}, {"relu", relu}, {"gelu", gelu}};
  for (const auto& [name, op] : ops) {
    UnaryOp f = op;
    require_deterministic(name, [f](Tape& t, const std::vector<Var>& v) { return f(t, v[0]); },
                          {random_tensor(kRows, 300, -3, 3)});
  }
  require_deterministic("log", [](Tape& t, const std::vector<Var>& v) { return ordo::log(t, v[0]); },
                        {random_tensor(kRows, 301, 0.1, 3)});
}

TEST_CASE("shape ops are bit-identical for 1 and 2 threads", "[ops][determinism]") {
  require_deterministic("reshape", [](Tape& t, const std::vector<Var>& v) {
    return reshape(t, v[0], kBLd);
  }, {random_tensor(kRows, 400)});
  require_deterministic("permute (B, L, H, dh) -> (B, H, L, dh)", [](Tape& t, const std::vector<Var>& v) {
    return permute(t, v[0], {0, 2, 1, 3});
  }, {random_tensor(Shape{64, 64, 4, 16}, 401)});
  require_deterministic("transpose", [](Tape& t, const std::vector<Var>& v) {
    return transpose(t, v[0], 0, 1);
  }, {random_tensor(kRows, 402)});
  require_deterministic("concat axis 1", [](Tape& t, const std::vector<Var>& v) {
    return concat(t, {v[0], v[1]}, 1);
  }, {random_tensor(Shape{4096, 24}, 403), random_tensor(Shape{4096, 40}, 404)});
  require_deterministic("concat axis 0", [](Tape& t, const std::vector<Var>& v) {
    return concat(t, {v[0], v[1]}, 0);
  }, {random_tensor(kRows, 405), random_tensor(kRows, 406)});
  require_deterministic("slice", [](Tape& t, const std::vector<Var>& v) {
    return slice(t, v[0], 1, 8, 40);
  }, {random_tensor(kRows, 407)});
  // Packing: 64 sequences of lengths 1..64 in a (64, 64, 64) batch, and back.
  std::vector<int32_t> lengths(64);
  for (int i = 0; i < 64; ++i) lengths[i] = (i * 37) % 64 + 1;
  int64_t T = 0;
  for (int32_t n : lengths) T += n;
  require_deterministic("pack_rows", [&](Tape& t, const std::vector<Var>& v) {
    return pack_rows(t, v[0], lengths);
  }, {random_tensor(kBLd, 408)});
  require_deterministic("unpack_rows", [&](Tape& t, const std::vector<Var>& v) {
    return unpack_rows(t, v[0], lengths, 64);
  }, {random_tensor(Shape{T, 64}, 409)});
}

TEST_CASE("matmul is bit-identical for 1 and 2 threads", "[ops][determinism]") {
  for (int ta = 0; ta < 2; ++ta)
    for (int tb = 0; tb < 2; ++tb) {
      const bool a_t = ta, b_t = tb;
      const Shape sa = a_t ? Shape{64, 4096} : Shape{4096, 64};
      require_deterministic("matmul 2-D ta " + std::to_string(ta) + " tb " + std::to_string(tb),
                            [a_t, b_t](Tape& t, const std::vector<Var>& v) { return matmul(t, v[0], v[1], a_t, b_t); },
                            {random_tensor(sa, 500), random_tensor(Shape{64, 64}, 501)});
      require_deterministic("matmul batched ta " + std::to_string(ta) + " tb " + std::to_string(tb),
                            [a_t, b_t](Tape& t, const std::vector<Var>& v) { return matmul(t, v[0], v[1], a_t, b_t); },
                            {random_tensor(Shape{16, 64, 64}, 502), random_tensor(Shape{16, 64, 64}, 503)});
    }
  require_deterministic("matmul shared b", [](Tape& t, const std::vector<Var>& v) {
    return matmul(t, v[0], v[1]);
  }, {random_tensor(Shape{16, 256, 64}, 504), random_tensor(Shape{64, 64}, 505)});
}

// Products too small for parallel_for to split (a pooled head: rows x d times d x 2) run on
// the calling thread, outside any parallel region, where oneDNN would spread one call over
// the OpenMP threads: core/gemm.cpp keeps every call single-threaded.
TEST_CASE("small products run on the calling thread are bit-identical for 1 and 2 threads", "[ops][determinism]") {
  for (int64_t d : {24, 40, 64, 96})
    for (int64_t rows : {72, 128}) {
      require_deterministic("linear (" + std::to_string(rows) + ", " + std::to_string(d) + ") x (" + std::to_string(d) + ", 2)",
                            [](Tape& t, const std::vector<Var>& v) { return linear(t, v[0], v[1], v[2]); },
                            {random_tensor(Shape{rows, d}, 520), random_tensor(Shape{d, 2}, 521),
                             random_tensor(Shape{2}, 522)});
    }
}

TEST_CASE("softmax, log_softmax and cross_entropy are bit-identical for 1 and 2 threads",
          "[ops][determinism]") {
  require_deterministic("softmax", [](Tape& t, const std::vector<Var>& v) { return softmax(t, v[0]); },
                        {random_tensor(kRows, 600, -4, 4)});
  // A key-padding style mask: row r masks its last r % 64 entries (row 0 none, and rows
  // with r % 64 == 0 fully open); plus one fully masked row.
  Tensor mask = Tensor::zeros(kRows);
  for (int64_t r = 0; r < 4096; ++r)
    for (int64_t j = 64 - r % 64; j < 64; ++j) mask[r * 64 + j] = -std::numeric_limits<Real>::infinity();
  for (int64_t j = 0; j < 64; ++j) mask[5 * 64 + j] = -std::numeric_limits<Real>::infinity();
  require_deterministic("softmax with mask", [mask](Tape& t, const std::vector<Var>& v) {
    return softmax(t, v[0], mask);
  }, {random_tensor(kRows, 601, -4, 4)});
  require_deterministic("log_softmax", [](Tape& t, const std::vector<Var>& v) { return log_softmax(t, v[0]); },
                        {random_tensor(kRows, 602, -4, 4)});
  TensorI32 targets = TensorI32::empty({4096});
  Tensor score = Tensor::empty({4096});
  CounterRng rng(9, 9);
  for (int64_t i = 0; i < 4096; ++i) {
    targets[i] = static_cast<int32_t>(rng.uniform_int(0, 63));
    score[i] = rng.uniform() < 0.8 ? Real(1) : Real(0);
  }
  require_deterministic("cross_entropy", [targets, score](Tape& t, const std::vector<Var>& v) {
    return cross_entropy(t, v[0], targets, score);
  }, {random_tensor(kRows, 603, -4, 4)});
}

TEST_CASE("layernorm, embedding and dropout are bit-identical for 1 and 2 threads", "[ops][determinism]") {
  require_deterministic("layernorm", [](Tape& t, const std::vector<Var>& v) {
    return layernorm(t, v[0], v[1], v[2]);
  }, {random_tensor(kRows, 700, -2, 2), random_tensor(Shape{64}, 701, 0.5, 1.5), random_tensor(Shape{64}, 702)});
  TensorI32 ids = TensorI32::empty({64, 64});
  CounterRng rng(10, 10);
  for (int64_t i = 0; i < ids.numel(); ++i) ids[i] = static_cast<int32_t>(rng.uniform_int(0, 99));  // many repeats
  require_deterministic("embedding", [ids](Tape& t, const std::vector<Var>& v) {
    return embedding(t, v[0], ids);
  }, {random_tensor(Shape{100, 64}, 703)});
  require_deterministic("dropout", [](Tape& t, const std::vector<Var>& v) {
    return dropout(t, v[0], Real(0.1), 7, 3);
  }, {random_tensor(kRows, 704)});
}

TEST_CASE("rotate_pairs and expand_relative are bit-identical for 1 and 2 threads", "[ops][determinism]") {
  const int64_t L = 64, D = 64;
  Tensor cos = Tensor::empty({L, D / 2}), sin = Tensor::empty({L, D / 2});
  for (int64_t l = 0; l < L; ++l)
    for (int64_t i = 0; i < D / 2; ++i) {
      const double angle = static_cast<double>(l) * std::pow(10000.0, -2.0 * i / D);
      cos[l * D / 2 + i] = static_cast<Real>(std::cos(angle));
      sin[l * D / 2 + i] = static_cast<Real>(std::sin(angle));
    }
  require_deterministic("rotate_pairs", [cos, sin](Tape& t, const std::vector<Var>& v) {
    return rotate_pairs(t, v[0], cos, sin);
  }, {random_tensor(Shape{16, 4, L, D}, 800)});
  require_deterministic("expand_relative", [](Tape& t, const std::vector<Var>& v) {
    return expand_relative(t, v[0], 128, 128);
  }, {random_tensor(Shape{8, 255}, 801)});
}

TEST_CASE("relative_logits is bit-identical for 1 and 2 threads", "[ops][determinism]") {
  const int64_t L = 40, N = 2 * L - 1;
  TensorI32 idx = TensorI32::empty(Shape{L, L});
  for (int64_t i = 0; i < L; ++i)
    for (int64_t j = 0; j < L; ++j) idx[i * L + j] = static_cast<int32_t>(i - j + L - 1);
  require_deterministic("relative_logits", [idx](Tape& t, const std::vector<Var>& v) {
    return relative_logits(t, v[0], v[1], idx);
  }, {random_tensor(Shape{6, 4, L, 16}, 802), random_tensor(Shape{N, 4, 16}, 803)});
}

TEST_CASE("fused_attention is bit-identical for 1 and 2 threads", "[ops][determinism]") {
  const int64_t B = 4, H = 4, L = 128, dh = 16;
  const Shape qkv{B, L, H, dh};
  const std::vector<int32_t> key_lengths = {128, 100, 1, 64};
  for (int causal = 0; causal < 2; ++causal) {
    const bool c = causal;
    require_deterministic("fused_attention, relative bias, causal " + std::to_string(causal),
                          [c, key_lengths](Tape& t, const std::vector<Var>& v) {
                            FusedAttentionBias bias;
                            bias.values = v[3];
                            bias.relative = true;
                            return fused_attention(t, v[0], v[1], v[2], bias, key_lengths, c, Real(0.25));
                          },
                          {random_tensor(qkv, 900), random_tensor(qkv, 901), random_tensor(qkv, 902),
                           random_tensor(Shape{H, 2 * L - 1}, 903)});
  }
  require_deterministic("fused_attention, no bias", [key_lengths](Tape& t, const std::vector<Var>& v) {
    return fused_attention(t, v[0], v[1], v[2], FusedAttentionBias{}, key_lengths, false, Real(0.25));
  }, {random_tensor(qkv, 904), random_tensor(qkv, 905), random_tensor(qkv, 906)});
  const Shape packed{128 + 100 + 1 + 64, H, dh};  // the same sequences packed: (T, H, d_h)
  require_deterministic("fused_attention_packed, relative bias, causal", [key_lengths](Tape& t, const std::vector<Var>& v) {
    return fused_attention_packed(t, v[0], v[1], v[2], FusedAttentionBias{v[3], true}, key_lengths, L, true,
                                  Real(0.25));
  }, {random_tensor(packed, 907), random_tensor(packed, 908), random_tensor(packed, 909),
      random_tensor(Shape{H, 2 * L - 1}, 910)});
}
