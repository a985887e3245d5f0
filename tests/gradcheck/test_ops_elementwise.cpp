// tests/gradcheck/test_ops_elementwise.cpp: gradients of add, sub, mul, div and scale over
// broadcasting in both directions, size-1 axes and scalars; the checker catching a wrong
// backward.
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "tests/gradcheck/test_ops_helpers.h"

using namespace ordo;
using namespace ordo::test;

namespace {

using BinaryOp = Var (*)(Tape&, Var, Var);

struct ShapePair {
  Shape a, b;
};

// Same shapes, the hot broadcasting cases in both directions, size-1 axes, scalars.
std::vector<ShapePair> shape_pairs() {
  return {
      {Shape{}, Shape{}},                      // scalars
      {Shape{5}, Shape{5}},
      {Shape{3, 4}, Shape{3, 4}},              // same shape
      {Shape{1, 1}, Shape{1, 1}},
      {Shape{4, 1}, Shape{4, 1}},
      {Shape{4, 5}, Shape{5}},                 // bias: (M, N) + (N)
      {Shape{5}, Shape{4, 5}},
      {Shape{4, 5}, Shape{1, 5}},
      {Shape{2, 3, 4}, Shape{3, 4}},           // (B, L, d) + (L, d)
      {Shape{3, 4}, Shape{2, 3, 4}},
      {Shape{2, 3, 4}, Shape{2, 3, 1}},        // (B, L, d) * (B, L, 1): a mask
      {Shape{2, 3, 1}, Shape{2, 3, 4}},
      {Shape{3, 1}, Shape{1, 4}},              // outer product
      {Shape{1, 4}, Shape{3, 1}},
      {Shape{2, 1, 4}, Shape{2, 3, 4}},        // a middle axis stretched
      {Shape{2, 3, 4}, Shape{1, 3, 1}},
      {Shape{2, 3, 1, 5}, Shape{3, 4, 1}},     // both stretched, different ranks
      {Shape{2, 3}, Shape{}},                  // scalar broadcast
      {Shape{}, Shape{2, 3}},
      {Shape{1}, Shape{2, 3}},
      {Shape{2, 1, 3, 1}, Shape{1, 2, 1, 3}},
  };
}

void check_binary(const char* name, BinaryOp op, bool b_away_from_zero) {
  uint64_t stream = 100;
  for (const ShapePair& sp : shape_pairs()) {
    INFO(name << " " << sp.a << " with " << sp.b);
    Tensor a = random_tensor(sp.a, ++stream);
    Tensor b = b_away_from_zero ? away_from_zero(sp.b, ++stream) : random_tensor(sp.b, ++stream);
    REQUIRE_GRADS_OK(check_gradients(
        [op](Tape& t, const std::vector<Var>& v) { return op(t, v[0], v[1]); }, {a, b}));
  }
}

}  // namespace

TEST_CASE("add gradients with broadcasting", "[ops][elementwise]") { check_binary("add", add, false); }
TEST_CASE("sub gradients with broadcasting", "[ops][elementwise]") { check_binary("sub", sub, false); }
TEST_CASE("mul gradients with broadcasting", "[ops][elementwise]") { check_binary("mul", mul, false); }
TEST_CASE("div gradients with broadcasting", "[ops][elementwise]") { check_binary("div", div, true); }

TEST_CASE("scale gradients", "[ops][elementwise]") {
  for (const Shape& s : {Shape{}, Shape{1}, Shape{7}, Shape{3, 1, 4}}) {
    INFO(s);
    REQUIRE_GRADS_OK(check_gradients(
        [](Tape& t, const std::vector<Var>& v) { return scale(t, v[0], Real(-2.5)); },
        {random_tensor(s, 7)}));
  }
}

TEST_CASE("binary ops with the same Var twice and with a constant operand", "[ops][elementwise]") {
  Tensor x = away_from_zero(Shape{3, 4}, 1), c = away_from_zero(Shape{4}, 2);
  for (BinaryOp op : {add, sub, mul, div}) {
    REQUIRE_GRADS_OK(check_gradients(
        [op](Tape& t, const std::vector<Var>& v) { return op(t, v[0], v[0]); }, {x}));
    REQUIRE_GRADS_OK(check_gradients(
        [op, c](Tape& t, const std::vector<Var>& v) { return op(t, v[0], t.input(c)); }, {x}));
    REQUIRE_GRADS_OK(check_gradients(
        [op, c](Tape& t, const std::vector<Var>& v) { return op(t, t.input(c), v[0]); }, {x}));
  }
}

// add and sub give dout's buffer to an intermediate first input (Tape::add_grad) instead of
// copying it: check the cases where that buffer is then added to (a == b, consumers of a
// before and after the add, a result added to itself).
TEST_CASE("add and sub with an intermediate first input: dout's buffer handed over", "[ops][elementwise]") {
  const Tensor x = away_from_zero(Shape{3, 4}, 5), w = random_tensor(Shape{3, 4}, 6);
  using Fn = std::function<Var(Tape&, const std::vector<Var>&)>;
  const std::vector<std::pair<const char*, Fn>> cases = {
      {"u + u", [](Tape& t, const std::vector<Var>& v) {
         Var u = scale(t, v[0], Real(1.5));
         return mul(t, add(t, u, u), v[0]);
       }},
      {"u - u * x (a consumer of u before the sub)", [](Tape& t, const std::vector<Var>& v) {
         Var u = scale(t, v[0], Real(1.5));
         Var z = mul(t, u, v[0]);
         return mul(t, sub(t, u, z), v[1]);
       }},
      {"s1 = u + w, s2 = s1 + u, s2 - s1 (consumers after)", [](Tape& t, const std::vector<Var>& v) {
         Var u = scale(t, v[0], Real(2));
         Var s1 = add(t, u, v[1]);
         Var s2 = add(t, s1, u);
         return mul(t, sub(t, s2, s1), s1);
       }},
      {"reshape(u + w) + itself", [](Tape& t, const std::vector<Var>& v) {
         Var s = reshape(t, add(t, scale(t, v[0], Real(-1)), v[1]), Shape{12});
         return add(t, s, s);
       }},
  };
  for (const auto& [name, fn] : cases) {
    INFO(name);
    REQUIRE_GRADS_OK(check_gradients(fn, {x, w}));
  }
}

// Large broadcast gradients take the chunked path (partial sums per chunk of rows): compare
// with a plain loop. dout is a fixed random R, seeded through sum(out * R).
TEST_CASE("chunked broadcast gradients equal a plain sum", "[ops][elementwise]") {
  struct Case { Shape a, b; };
  const Case cases[] = {{Shape{3000, 8}, Shape{8}},          // bias, many chunks
                        {Shape{1100, 2, 8}, Shape{2, 1}},    // inner axis reduced, chunked
                        {Shape{5, 40, 64}, Shape{40, 64}},   // (B, L, d) + (L, d)
                        {Shape{50, 30, 16}, Shape{50, 30, 1}}};
  for (const Case& c : cases) {
    INFO(c.a << " with " << c.b);
    Tensor A = random_tensor(c.a, 1), B = away_from_zero(c.b, 2);
    Tensor R = random_tensor(c.a, 3);  // out has a's shape in every case here
    Parameter pa("a", A), pb("b", B);
    Tape t;
    Var out = mul(t, t.param(pa), t.param(pb));
    t.backward(sum(t, mul(t, out, t.input(R))));
    // Plain reference: db[k] = sum over the rows that read b[k] of R * a.
    const Shape& sb = c.b;
    std::vector<double> want(B.numel(), 0.0);
    const int64_t n = A.numel();
    std::vector<int64_t> dims = c.a.dims();
    const int off = c.a.rank() - sb.rank();
    for (int64_t i = 0; i < n; ++i) {
      int64_t r = i, bi = 0, bstride = 1;
      for (int ax = c.a.rank() - 1; ax >= 0; --ax) {
        const int64_t idx = r % dims[ax];
        r /= dims[ax];
        if (ax >= off) {
          const int64_t bd = sb[ax - off];
          if (bd != 1) bi += idx * bstride;
          bstride *= bd;
        }
      }
      want[bi] += static_cast<double>(R[i]) * A[i];
    }
    double err = 0;
    for (int64_t k = 0; k < B.numel(); ++k) err = std::max(err, std::abs(pb.grad[k] - want[k]));
    REQUIRE(err < 1e-9);
  }
}

// ---- the checker must catch wrong backwards -------------------------------------------

namespace {

// y = 3 x, but the backward claims dy/dx = 6.
Var wrong_factor(Tape& t, Var x) {
  Tensor out = t.value(x).clone();
  for (int64_t i = 0; i < out.numel(); ++i) out[i] *= 3;
  return t.push("wrong_factor", std::move(out), [x](Tape& t, const Tensor& dout) {
    t.add_grad(x, [&](auto into, Real* dx) {
      for (int64_t i = 0; i < dout.numel(); ++i) into(dx[i], 6 * dout[i]);  // should be 3
    });
  }, {x});
}

// y = x W for square x (n, n) and constant W, with a backward that forgets to transpose W.
Var wrong_transpose(Tape& t, Var x, const Tensor& W) {
  const Tensor& X = t.value(x);
  const int64_t n = X.dim(0);
  Tensor out = Tensor::zeros(X.shape());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < n; ++k) out[i * n + j] += X[i * n + k] * W[k * n + j];
  return t.push("wrong_transpose", std::move(out), [x, W, n](Tape& t, const Tensor& dout) {
    t.add_grad(x, Tape::summed, [&](auto, Real* dx) {
      for (int64_t i = 0; i < n; ++i)
        for (int64_t k = 0; k < n; ++k)
          for (int64_t j = 0; j < n; ++j)
            dx[i * n + k] += dout[i * n + j] * W[j * n + k];  // should be W[k * n + j]
    });
  }, {x});
}

// y = 2 x but y_last = 0, with a backward that skips the last element, whose derivative is
// 0 (the mistake of a kernel that skips masked positions): right when it adds to a gradient,
// wrong when it stores x's first gradient into a new buffer.
Var misses_last(Tape& t, Var x) {
  Tensor out = t.value(x).clone();
  for (int64_t i = 0; i < out.numel(); ++i) out[i] = i + 1 < out.numel() ? 2 * out[i] : 0;
  return t.push("misses_last", std::move(out), [x](Tape& t, const Tensor& dout) {
    t.add_grad(x, [&](auto into, Real* dx) {
      for (int64_t i = 0; i + 1 < dout.numel(); ++i) into(dx[i], 2 * dout[i]);  // skips the last
    });
  }, {x});
}

}  // namespace

TEST_CASE("the gradient checker catches a wrong backward", "[ops][gradcheck]") {
  SECTION("a factor 2 off") {
    GradCheckResult r = check_gradients(
        [](Tape& t, const std::vector<Var>& v) { return wrong_factor(t, v[0]); },
        {random_tensor(Shape{3, 2}, 1)});
    REQUIRE_FALSE(r.ok);
    REQUIRE(r.worst.find("input 0") != std::string::npos);
  }
  SECTION("a transposed gradient") {
    Tensor W = random_tensor(Shape{3, 3}, 2);
    GradCheckResult r = check_gradients(
        [W](Tape& t, const std::vector<Var>& v) { return wrong_transpose(t, v[0], W); },
        {random_tensor(Shape{3, 3}, 3)});
    REQUIRE_FALSE(r.ok);
  }
  SECTION("an element a backward never writes into a new gradient buffer") {
    // Through the parameter it passes; through scale(x, 1) the last element stays NaN.
    GradCheckResult r = check_gradients(
        [](Tape& t, const std::vector<Var>& v) { return misses_last(t, v[0]); },
        {random_tensor(Shape{2, 3}, 4)});
    REQUIRE_FALSE(r.ok);
    INFO(r.worst);
    REQUIRE(r.worst.find("input 0 (first gradient stored) element 5") != std::string::npos);
    REQUIRE(r.worst.find("nan") != std::string::npos);
  }
  SECTION("and passes the same ops with their backward fixed") {
    // Control: a correct op built from the library passes, so the failures above are real.
    Tensor W = random_tensor(Shape{3, 3}, 2);
    REQUIRE_GRADS_OK(check_gradients(
        [W](Tape& t, const std::vector<Var>& v) { return matmul(t, v[0], t.input(W)); },
        {random_tensor(Shape{3, 3}, 3)}));
  }
}
