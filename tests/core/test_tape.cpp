// tests/core/test_tape.cpp: how backwards deliver gradients (Tape::add_grad, Tape::grad_slot),
// in float32.
#include <catch2/catch.hpp>

#include <string>

#include "core/ops.h"
#include "core/tape.h"

using namespace ordo;

namespace {

// y = c x with the gradient delivered through `into`; records which form the tape chose.
Var scale_noting(Tape& t, Var x, Real c, std::string& forms) {
  Tensor out = t.value(x).clone();
  for (int64_t i = 0; i < out.numel(); ++i) out[i] *= c;
  return t.push("scale_noting", std::move(out), [x, c, &forms](Tape& t, const Tensor& dout) {
    t.add_grad(x, [&](auto into, Real* dx) {
      forms += into.accumulate ? "add " : "store ";
      for (int64_t i = 0; i < dout.numel(); ++i) into(dx[i], c * dout[i]);
    });
  }, {x});
}

// y = 2 x but y_last = 0, and a backward that skips the last element (its derivative is 0):
// right when it adds, a garbage element when it stores a first gradient.
Var misses_last(Tape& t, Var x) {
  Tensor out = t.value(x).clone();
  for (int64_t i = 0; i < out.numel(); ++i) out[i] = i + 1 < out.numel() ? 2 * out[i] : 0;
  return t.push("misses_last", std::move(out), [x](Tape& t, const Tensor& dout) {
    t.add_grad(x, [&](auto into, Real* dx) {
      for (int64_t i = 0; i + 1 < dout.numel(); ++i) into(dx[i], 2 * dout[i]);
    });
  }, {x});
}

// y = 2 a + 3 b, its backward holding both inputs' gradients at once (Tape::grad_slot), as a
// fused kernel does: summed slots, or the first form noting which it got. With skip_last,
// the last element of each is never written.
Var two_slots(Tape& t, Var a, Var b, bool summed, std::string& forms, bool skip_last = false) {
  Tensor out = t.value(a).clone();
  for (int64_t i = 0; i < out.numel(); ++i) out[i] = 2 * out[i] + 3 * t.value(b)[i];
  return t.push("two_slots", std::move(out), [a, b, summed, skip_last, &forms](Tape& t, const Tensor& dout) {
    const Tape::GradSlot da = summed ? t.grad_slot(a, Tape::summed) : t.grad_slot(a);
    const Tape::GradSlot db = summed ? t.grad_slot(b, Tape::summed) : t.grad_slot(b);
    forms += std::string(da.store() ? "store " : "add ") + (db.store() ? "store " : "add ");
    const int64_t n = dout.numel() - (skip_last ? 1 : 0);
    for (int64_t i = 0; i < n; ++i) {
      da.data()[i] = (da.store() ? 0 : da.data()[i]) + 2 * dout[i];
      db.data()[i] = (db.store() ? 0 : db.data()[i]) + 3 * dout[i];
    }
  }, {a, b});
}

}  // namespace

TEST_CASE("add_grad stores an intermediate's first gradient, adds the rest, and always adds to a parameter's",
          "[tape]") {
  Parameter p("p", Tensor::from(Shape{3}, {1, 2, 3}));
  p.grad.fill(10);  // a gradient from an earlier backward: added to, never overwritten
  std::string forms;
  Tape t;
  Var u = scale(t, t.param(p), 1);  // an intermediate that feeds two ops
  Var y = add(t, scale_noting(t, u, 2, forms), scale_noting(t, u, 5, forms));
  t.backward(sum(t, y));
  // Backward runs in reverse: the 5 u branch first (stores), then the 2 u branch (adds).
  CHECK(forms == "store add ");
  for (int64_t i = 0; i < 3; ++i) CHECK(p.grad[i] == 17);
  forms.clear();
  Tape t2;
  t2.backward(sum(t2, scale_noting(t2, t2.param(p), 3, forms)));
  CHECK(forms == "add ");
  for (int64_t i = 0; i < 3; ++i) CHECK(p.grad[i] == 20);
}

TEST_CASE("add_grad's summed form starts a new gradient at zero and adds to an existing one", "[tape]") {
  // slice leaves the elements outside its window at zero, also for a first gradient.
  Parameter p("p", Tensor::from(Shape{4}, {1, 2, 3, 4}));
  Tape t;
  Var u = scale(t, t.param(p), 1);
  t.backward(sum(t, add(t, slice(t, u, 0, 1, 3), slice(t, u, 0, 0, 2))));
  CHECK(p.grad[0] == 1);
  CHECK(p.grad[1] == 2);
  CHECK(p.grad[2] == 1);
  CHECK(p.grad[3] == 0);
}

TEST_CASE("under check_numerics an element a backward never writes is named with the op", "[tape][errors]") {
  Parameter p("p", Tensor::from(Shape{2, 3}, {1, 2, 3, 4, 5, 6}));
  {
    Tape t;  // through a parameter the skipped element keeps its 0: right
    t.set_check_numerics(true);
    t.backward(sum(t, misses_last(t, t.param(p))));
    CHECK(p.grad[5] == 0);
    CHECK(p.grad[0] == 2);
  }
  Tape t;  // through an intermediate the first gradient is stored, and element 5 never is
  t.set_check_numerics(true);
  Var y = misses_last(t, scale(t, t.param(p), 1));
  try {
    t.backward(sum(t, y));
    FAIL("no error");
  } catch (const Error& e) {
    const std::string msg = e.what();
    INFO(msg);
    CHECK(msg.find("the backward of op 'misses_last'") != std::string::npos);
    CHECK(msg.find("at element 5 of the gradient of op 'scale'") != std::string::npos);
  }
}

TEST_CASE("grad_slot holds several gradients at once: stores into a new buffer, adds to an existing one",
          "[tape]") {
  Parameter p("p", Tensor::from(Shape{3}, {1, 2, 3}));
  std::string forms;
  Tape t;
  Var u = scale(t, t.param(p), 1), w = scale(t, t.param(p), 1);
  // Backward runs in reverse: 5 u stores u's gradient first; then two_slots adds to u's and
  // stores w's.
  Var y = two_slots(t, u, w, false, forms);
  Var z = scale(t, u, 5);
  t.backward(sum(t, add(t, y, z)));
  CHECK(forms == "add store ");
  for (int64_t i = 0; i < 3; ++i) CHECK(p.grad[i] == 2 + 3 + 5);
  CHECK_FALSE(Tape::GradSlot{}.data());  // an empty slot: an input that needs no gradient
}

TEST_CASE("grad_slot's summed form: one Var as both inputs gets both contributions", "[tape]") {
  Parameter p("p", Tensor::from(Shape{3}, {1, 2, 3}));
  std::string forms;
  Tape t;
  Var u = scale(t, t.param(p), 1);
  t.backward(sum(t, two_slots(t, u, u, true, forms)));
  CHECK(forms == "add add ");
  for (int64_t i = 0; i < 3; ++i) CHECK(p.grad[i] == 5);
}

TEST_CASE("under check_numerics a slot left partly unwritten fails when it closes, once", "[tape][errors]") {
  Parameter p("p", Tensor::from(Shape{3}, {1, 2, 3}));
  std::string forms;
  Tape t;
  t.set_check_numerics(true);
  Var u = scale(t, t.param(p), 1), w = scale(t, t.param(p), 1);
  Var y = two_slots(t, u, w, false, forms, true);
  try {
    t.backward(sum(t, y));
    FAIL("no error");
  } catch (const Error& e) {  // both slots miss an element: w's closes first and fails, u's stays quiet
    const std::string msg = e.what();
    INFO(msg);
    CHECK(msg.find("the backward of op 'two_slots'") != std::string::npos);
    CHECK(msg.find("at element 2 of the gradient of op 'scale'") != std::string::npos);
  }
}
