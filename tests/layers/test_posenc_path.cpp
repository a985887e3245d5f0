// tests/layers/test_posenc_path.cpp: PaTH (docs/spec.md §2.20). The fast kernel against the
// reference kernel (one row at a time), forward and backward; 1 and 2 threads give the same
// bits. Its definition computed
// literally (d x d matrices H_l multiplied out, loops over i and j, in double) against the
// kernel, padded with a window and packed; the encoding's reflection vectors and strengths
// computed literally from the layer input (low rank, causal convolution, SiLU, unit norm per
// head); beta = 0 is `none`; bidirectional is refused. Gradients against finite differences:
// tests/gradcheck/test_ops_path.cpp; the whole-model tests cover path by registry.
#include <catch2/catch.hpp>

#include <cmath>
#include <omp.h>

#include "core/ops.h"
#include "core/rng.h"
#include "layers/masks.h"
#include "layers/posenc/encoding.h"
#include "tests/layers/model_fixtures.h"

using namespace ordo;
using namespace ordo::testing;
using Catch::Matchers::Contains;

namespace {

Tensor normal_tensor(const Shape& s, uint64_t stream, double std = 1) {
  Tensor x = Tensor::empty(s);
  CounterRng rng(31, stream);
  for (int64_t i = 0; i < x.numel(); ++i) x[i] = static_cast<Real>(std * rng.normal());
  return x;
}

double at(const Tensor& x, int64_t i) { return static_cast<double>(x[i]); }

}  // namespace

TEST_CASE("path: the kernel computes q_i^T H_i ... H_{j+1} k_j attention as defined", "[layers][path]") {
  const int64_t B = 2, L = 8, H = 2, d = 4;
  const std::vector<int32_t> lengths{8, 5};
  const Real scale = Real(0.5);
  Tensor q = normal_tensor({B, L, H, d}, 1), k = normal_tensor({B, L, H, d}, 2), v = normal_tensor({B, L, H, d}, 3);
  Tensor w = normal_tensor({B, L, H, d}, 4), beta = Tensor::empty(Shape{B, L, H});
  for (int64_t r = 0; r < B * L * H; ++r) {  // unit vectors, strengths in (0, 2)
    double n = 0;
    for (int64_t c = 0; c < d; ++c) n += at(w, r * d + c) * at(w, r * d + c);
    for (int64_t c = 0; c < d; ++c) w[r * d + c] = static_cast<Real>(at(w, r * d + c) / std::sqrt(n));
    beta[r] = static_cast<Real>(2 / (1 + std::exp(-at(normal_tensor({1}, 100 + uint64_t(r)), 0))));
  }
  auto idx = [&](int64_t b, int64_t l, int64_t h) { return ((b * L + l) * H + h) * d; };

  for (int64_t window : {0, 3}) {
    // The definition: M = H_i H_{i-1} ... H_{j+1} as a d x d matrix, logit = scale q_i^T M k_j.
    Tensor expected = Tensor::zeros(q.shape());
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t i = 0; i < lengths[size_t(b)]; ++i) {
          const int64_t lo = window > 0 ? std::max<int64_t>(0, i - window + 1) : 0;
          std::vector<double> logit;
          for (int64_t j = lo; j <= i; ++j) {
            std::vector<double> M(size_t(d * d), 0.0);
            for (int64_t c = 0; c < d; ++c) M[size_t(c * d + c)] = 1;
            for (int64_t l = i; l > j; --l) {  // M <- M H_l
              std::vector<double> next(size_t(d * d), 0.0);
              for (int64_t r = 0; r < d; ++r)
                for (int64_t c = 0; c < d; ++c)
                  for (int64_t m = 0; m < d; ++m) {
                    const double hmc = (m == c ? 1.0 : 0.0) - at(beta, (b * L + l) * H + h) * at(w, idx(b, l, h) + m) *
                                                                 at(w, idx(b, l, h) + c);
                    next[size_t(r * d + c)] += M[size_t(r * d + m)] * hmc;
                  }
              M = next;
            }
            double z = 0;
            for (int64_t r = 0; r < d; ++r)
              for (int64_t c = 0; c < d; ++c) z += at(q, idx(b, i, h) + r) * M[size_t(r * d + c)] * at(k, idx(b, j, h) + c);
            logit.push_back(double(scale) * z);
          }
          double top = -INFINITY, total = 0;
          for (double z : logit) top = std::max(top, z);
          for (double& z : logit) total += z = std::exp(z - top);
          for (int64_t j = lo; j <= i; ++j)
            for (int64_t c = 0; c < d; ++c)
              expected[idx(b, i, h) + c] += static_cast<Real>(logit[size_t(j - lo)] / total * at(v, idx(b, j, h) + c));
        }

    Tape t;
    const Tensor got = t.value(path_attention(t, t.input(q), t.input(k), t.input(v), t.input(w), t.input(beta), lengths,
                                              AttentionMask(true, window), scale))
                           .clone();
    for (int64_t i = 0; i < got.numel(); ++i) {
      INFO("window " << window << " element " << i);
      REQUIRE(std::fabs(at(got, i) - at(expected, i)) <= 2e-5);
    }
    // Packed rows: the same real rows, bit for bit.
    Tape tp;
    auto pack = [&](const Tensor& x) { return pack_rows(tp, tp.input(x), lengths); };
    Var packed = path_attention_packed(tp, pack(q), pack(k), pack(v), pack(w), pack(beta), lengths, L,
                                       AttentionMask(true, window), scale);
    const Tensor unpacked = tp.value(unpack_rows(tp, packed, lengths, L)).clone();
    CHECK(unpacked.to_vector() == got.to_vector());
    // The maps: rows sum to 1 over the visible keys, and weigh v to the same output.
    const Tensor maps = path_attention_weights(q, k, w, beta, lengths, AttentionMask(true, window), scale);
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t i = 0; i < lengths[size_t(b)]; ++i) {
          double sum = 0, out0 = 0;
          for (int64_t j = 0; j < L; ++j) {
            const double p = at(maps, ((b * H + h) * L + i) * L + j);
            sum += p;
            out0 += p * at(v, idx(b, j, h));
          }
          CHECK(std::fabs(sum - 1) < 1e-5);
          CHECK(std::fabs(out0 - at(got, idx(b, i, h))) < 1e-5);
        }
  }
}

TEST_CASE("path: the fast kernel agrees with the reference kernel forward and backward", "[layers][path]") {
  // Several tiles of queries and blocks of keys (L > 64), head widths below, at and past a
  // vector (4, 16, 20), key padding and a window. The two differ in the last bits only
  // (docs/spec.md §2.20: core/fastmath.h's exp, the keys below a tile's own block by blocks,
  // the backward's sums across lanes).
  for (const auto& [L, d] : {std::pair<int64_t, int64_t>{150, 4}, {70, 16}, {131, 20}}) {
    const int64_t B = 2, H = 2;
    const Shape s{B, L, H, d};
    const std::vector<int32_t> lengths{int32_t(L), int32_t(L / 2 + 3)};
    Tensor w = normal_tensor(s, 44), beta = Tensor::empty(Shape{B, L, H});
    for (int64_t r = 0; r < B * L * H; ++r) {  // unit vectors, strengths in (0, 2)
      double n = 0;
      for (int64_t c = 0; c < d; ++c) n += at(w, r * d + c) * at(w, r * d + c);
      for (int64_t c = 0; c < d; ++c) w[r * d + c] = static_cast<Real>(at(w, r * d + c) / std::sqrt(n));
      beta[r] = static_cast<Real>(0.1 + 1.8 * double(r % 17) / 17);
    }
    const Tensor R = normal_tensor(s, 45);
    for (int64_t window : {0, 9}) {
      std::vector<Tensor> got[2];
      for (int reference = 0; reference < 2; ++reference) {
        std::vector<Parameter> p{{"q", normal_tensor(s, 41)}, {"k", normal_tensor(s, 42)}, {"v", normal_tensor(s, 43)},
                                 {"w", w.clone()}, {"beta", beta.clone()}};
        for (Parameter& x : p) x.grad = Tensor::zeros(x.value.shape());
        Tape t;
        Var out = (reference ? path_attention_reference : path_attention)(
            t, t.param(p[0]), t.param(p[1]), t.param(p[2]), t.param(p[3]), t.param(p[4]), lengths,
            AttentionMask(true, window), static_cast<Real>(1 / std::sqrt(double(d))));
        got[reference].push_back(t.value(out).clone());
        t.backward(sum(t, mul(t, out, t.input(R))));
        for (Parameter& x : p) got[reference].push_back(x.grad);
      }
      for (size_t i = 0; i < got[0].size(); ++i) {
        INFO("L " << L << " d " << d << " window " << window << " tensor " << i << " (out, dq, dk, dv, dw, dbeta)");
        CHECK(max_abs_diff(got[0][i], got[1][i]) <= 5e-5);
      }
    }
  }
}

TEST_CASE("path: 1 and 2 threads give the same bits", "[layers][path]") {
  const int64_t B = 3, L = 90, H = 2, d = 8;
  const Shape s{B, L, H, d};
  const std::vector<int32_t> lengths{90, 41, 1};
  Tensor beta = Tensor::empty(Shape{B, L, H});
  for (int64_t r = 0; r < B * L * H; ++r) beta[r] = static_cast<Real>(0.1 + 1.8 * double(r % 13) / 13);
  auto run = [&] {
    std::vector<Parameter> p{{"q", normal_tensor(s, 51)}, {"k", normal_tensor(s, 52)}, {"v", normal_tensor(s, 53)},
                             {"w", normal_tensor(s, 54, 0.3)}, {"beta", beta.clone()}};
    for (Parameter& x : p) x.grad = Tensor::zeros(x.value.shape());
    Tape t;
    Var out = path_attention(t, t.param(p[0]), t.param(p[1]), t.param(p[2]), t.param(p[3]), t.param(p[4]), lengths,
                             AttentionMask(true), Real(0.35));
    std::vector<Tensor> r{t.value(out).clone()};
    t.backward(sum(t, mul(t, out, t.input(normal_tensor(s, 55)))));
    for (Parameter& x : p) r.push_back(x.grad);
    return r;
  };
  std::vector<Tensor> one, two;
  const int previous = omp_get_max_threads();
  omp_set_num_threads(1);
  one = run();
  omp_set_num_threads(2);
  two = run();
  omp_set_num_threads(previous);
  for (size_t i = 0; i < one.size(); ++i) CHECK(one[i].to_vector() == two[i].to_vector());
}

TEST_CASE("path: the reflections op agrees with the composition and gives the same bits on 1 and 2 threads",
          "[layers][path]") {
  // Rows past the convolution's width and heads of 16 (a default head); the values as the
  // encoding sees them after training has moved them (0.5 spreads).
  const int64_t B = 3, L = 70, d = 64, heads = 4;
  const Tensor R = normal_tensor({B, L, heads, d / heads}, 73);
  auto run = [&](bool reference) {
    std::vector<Parameter> p{{"u", normal_tensor({B, L, d}, 71, 0.5)}, {"conv", normal_tensor({3, d}, 72, 0.5)}};
    for (Parameter& x : p) x.grad = Tensor::zeros(x.value.shape());
    Tape t;
    Var w = (reference ? path_reflections_reference : path_reflections)(t, t.param(p[0]), t.param(p[1]), heads,
                                                                        Real(1e-6));
    std::vector<Tensor> r{t.value(w).clone()};
    t.backward(sum(t, mul(t, w, t.input(R))));
    for (Parameter& x : p) r.push_back(x.grad);
    return r;
  };
  const std::vector<Tensor> reference = run(true);
  const int previous = omp_get_max_threads();
  omp_set_num_threads(1);
  const std::vector<Tensor> one = run(false);
  omp_set_num_threads(2);
  const std::vector<Tensor> two = run(false);
  omp_set_num_threads(previous);
  for (size_t i = 0; i < one.size(); ++i) {
    INFO("tensor " << i << " (w, du, dconv)");
    CHECK(one[i].to_vector() == two[i].to_vector());
    double scale = 0;
    for (int64_t j = 0; j < reference[i].numel(); ++j) scale = std::max(scale, std::fabs(at(reference[i], j)));
    CHECK(max_abs_diff(one[i], reference[i]) <= 2e-6 * std::max(1.0, scale));
  }
}

TEST_CASE("path: w and beta from the layer input as the authors build them", "[layers][path]") {
  EncodingConfig cfg;
  cfg.d_model = 8;
  cfg.n_heads = 2;
  cfg.n_layers = 2;
  cfg.causal = true;
  cfg.seed = 4;
  auto path = make_encoding("path", cfg);
  for (Parameter* p : path->parameters()) {  // away from the tiny init, so the norm's eps is negligible
    CounterRng rng(9, hash64(p->name));
    for (int64_t i = 0; i < p->value.numel(); ++i) p->value[i] = static_cast<Real>(0.4 * rng.normal());
  }
  auto param = [&](const std::string& name) -> const Tensor& { return parameter_named(*path, name).value; };
  const int64_t B = 2, L = 6, D = 8, H = 2, dh = 4, R = 32;
  const std::vector<int32_t> lengths{6, 4};
  const Tensor x = normal_tensor({B, L, D}, 7);
  const Tensor &down = param("posenc.path.1.w_down.weight"), &up = param("posenc.path.1.w_up.weight");
  const Tensor &conv = param("posenc.path.1.conv"), &bw = param("posenc.path.1.beta.weight"),
               &bb = param("posenc.path.1.beta.bias");
  CHECK(down.shape() == Shape{D, R});
  CHECK(up.shape() == Shape{R, D});
  CHECK(conv.shape() == Shape{3, D});

  Positions pos = make_positions(L, lengths);
  Tape t;
  const AttentionForm form = path->form(t, LayerInput{t.input(x), Var{}, &pos, 1});
  const PathForm* f = std::get_if<PathForm>(&form);
  REQUIRE(f);
  const Tensor w = t.value(f->w).clone(), beta = t.value(f->beta).clone();
  REQUIRE(w.shape() == Shape{B, L, H, dh});
  REQUIRE(beta.shape() == Shape{B, L, H});
  for (int64_t b = 0; b < B; ++b) {
    std::vector<std::vector<double>> u(size_t(L), std::vector<double>(size_t(D), 0.0));
    for (int64_t l = 0; l < L; ++l) {
      std::vector<double> low(size_t(R), 0.0);
      for (int64_t r = 0; r < R; ++r)
        for (int64_t c = 0; c < D; ++c) low[size_t(r)] += at(x, (b * L + l) * D + c) * at(down, c * R + r);
      for (int64_t c = 0; c < D; ++c)
        for (int64_t r = 0; r < R; ++r) u[size_t(l)][size_t(c)] += low[size_t(r)] * at(up, r * D + c);
    }
    for (int64_t l = 0; l < L; ++l) {
      std::vector<double> y(size_t(D), 0.0);
      for (int64_t c = 0; c < D; ++c) {
        for (int64_t s = 0; s < 3 && s <= l; ++s) y[size_t(c)] += at(conv, s * D + c) * u[size_t(l - s)][size_t(c)];
        y[size_t(c)] /= 1 + std::exp(-y[size_t(c)]);  // SiLU
      }
      for (int64_t h = 0; h < H; ++h) {
        double n = 1e-6;
        for (int64_t c = 0; c < dh; ++c) n += y[size_t(h * dh + c)] * y[size_t(h * dh + c)];
        for (int64_t c = 0; c < dh; ++c) {
          INFO("b " << b << " l " << l << " h " << h << " c " << c);
          CHECK(std::fabs(at(w, ((b * L + l) * H + h) * dh + c) - y[size_t(h * dh + c)] / std::sqrt(n)) < 1e-5);
        }
        double z = at(bb, h);
        for (int64_t c = 0; c < D; ++c) z += at(x, (b * L + l) * D + c) * at(bw, c * H + h);
        CHECK(std::fabs(at(beta, (b * L + l) * H + h) - 2 / (1 + std::exp(-z))) < 1e-5);
      }
    }
  }
  // Packed input: the real rows' factors, bit for bit.
  Tape tp;
  const AttentionForm packed = path->form(tp, LayerInput{pack_rows(tp, tp.input(x), lengths), Var{}, &pos, 1});
  const PathForm* fp = std::get_if<PathForm>(&packed);
  REQUIRE(fp);
  CHECK(tp.value(unpack_rows(tp, fp->w, lengths, L)).to_vector() ==
        t.value(unpack_rows(t, pack_rows(t, f->w, lengths), lengths, L)).to_vector());
}

TEST_CASE("path with beta = 0 is none", "[layers][path]") {
  // Both models spread alike (the blocks' parameters share their names). beta = 2
  // sigmoid(-200) = 0 in float32: every H_l = I, the logits plain q . k.
  TensorI32 x = random_tokens(3, 11, 12, 131);
  const std::vector<int32_t> lengths{11, 6, 1};
  ModelConfig c = small_model("path", HeadType::Token, true);
  auto path = spread_model(c);
  auto logits = [&](EncoderModel& m) {
    Tape t;
    return t.value(m.forward(t, x, lengths).logits).to_vector();
  };
  const std::vector<Real> spread = logits(*path);
  for (Parameter* p : path->encoding().parameters())
    if (p->name.find(".beta.") != std::string::npos)
      for (int64_t i = 0; i < p->value.numel(); ++i) p->value[i] = p->name.ends_with(".bias") ? Real(-200) : Real(0);
  c.encoding = "none";
  auto none = spread_model(c);
  CHECK(max_diff(logits(*path), logits(*none)) < 1e-5);
  // ...and with its own beta it is not.
  CHECK(max_diff(spread, logits(*none)) > 1e-2);
}

TEST_CASE("path has its factors per layer and is refused bidirectionally", "[layers][path]") {
  EncodingConfig cfg;
  cfg.d_model = 8;
  cfg.n_heads = 2;
  cfg.n_layers = 3;
  cfg.causal = true;
  CHECK(make_encoding("path", cfg)->parameters().size() == 3 * 5);  // w_down, w_up, conv, beta weight and bias
  cfg.causal = false;
  REQUIRE_THROWS_WITH(make_encoding("path", cfg), Contains("causal attention only"));
  CHECK(!encoding_info("path").takes_random_positions);
  Tape t;
  const Shape s{1, 3, 1, 2};
  REQUIRE_THROWS_WITH(path_attention(t, t.input(Tensor::zeros(s)), t.input(Tensor::zeros(s)), t.input(Tensor::zeros(s)),
                                     t.input(Tensor::zeros(s)), t.input(Tensor::zeros(Shape{1, 3, 1})), {3},
                                     AttentionMask(false), 1),
                      Contains("needs a causal mask"));
}
