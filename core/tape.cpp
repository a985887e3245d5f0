// core/tape.cpp: the Wengert list.
#include "core/tape.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <type_traits>

#include "core/parallel.h"

namespace ordo {

Parameter::Parameter(std::string n, Tensor v)
    : name(std::move(n)), value(std::move(v)), grad(Tensor::zeros(value.shape())) {}

void Parameter::project() {
  if (!bounded()) return;
  for (int64_t i = 0; i < value.numel(); ++i) value[i] = std::min(std::max(value[i], lower), upper);
}

Tape::Tape() {
  static std::atomic<uint32_t> next_epoch{1};  // distinct epochs catch cross-tape use too
  epoch_ = next_epoch.fetch_add(1u << 20);
}

Tape::Node& Tape::node(Var v) {
  return const_cast<Node&>(static_cast<const Tape&>(*this).node(v));
}

const Tape::Node& Tape::node(Var v) const {
  ORDO_CHECK(v.defined(), "tape: use of an undefined Var");
  ORDO_CHECK(v.epoch == epoch_,
             "tape: use of a Var from a cleared tape (or from another tape); Vars live until "
             "Tape::clear()");
  ORDO_CHECK(v.id < static_cast<int32_t>(nodes_.size()), "tape: Var ", v.id, " out of range");
  return nodes_[v.id];
}

Var Tape::param(Parameter& p) {
  ORDO_CHECK(p.value.defined(), "tape: parameter '", p.name, "' has no value");
  Node n;
  n.op = "param";
  n.value = p.value;
  n.param = &p;
  n.requires_grad = grad_enabled_;
  nodes_.push_back(std::move(n));
  return Var{static_cast<int32_t>(nodes_.size() - 1), epoch_};
}

Var Tape::input(Tensor value) {
  Node n;
  n.op = "input";
  n.value = std::move(value);
  nodes_.push_back(std::move(n));
  return Var{static_cast<int32_t>(nodes_.size() - 1), epoch_};
}

Var Tape::push(const char* op, Tensor out, Backward backward, std::initializer_list<Var> inputs) {
  return push(op, std::move(out), std::move(backward), std::vector<Var>(inputs));
}

namespace {
double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

void Tape::set_profiling(bool on) {
  profiling_ = on;
  last_push_time_ = now_seconds();
}

Var Tape::push(const char* op, Tensor out, Backward backward, const std::vector<Var>& inputs) {
  if (profiling_) {
    const double now = now_seconds();
    OpTime& p = profile_[op];
    p.forward_seconds += now - last_push_time_;
    ++p.calls;
    last_push_time_ = now;
  }
  bool any = false;
  for (Var v : inputs) any = any || node(v).requires_grad;
  if (check_numerics_) scan("output", op, out);
  Node n;
  n.op = op;
  n.value = std::move(out);
  if (any && grad_enabled_) {
    n.requires_grad = true;
    n.backward = std::move(backward);
  }
  nodes_.push_back(std::move(n));
  return Var{static_cast<int32_t>(nodes_.size() - 1), epoch_};
}

const Tensor& Tape::value(Var v) const { return node(v).value; }

Tensor* Tape::existing_grad(Node& n) {
  if (n.param) return &n.param->grad;
  return n.grad.defined() ? &n.grad : nullptr;
}

Tensor& Tape::new_grad(Node& n, bool zeroed) {
  // NaN where a missed element must show: the float64 build is the one gradient checks run on.
  constexpr bool kPoison = std::is_same_v<Real, double>;
  if (zeroed) n.grad = Tensor::zeros(n.value.shape());
  else if (kPoison || check_numerics_) n.grad = Tensor::full(n.value.shape(), std::numeric_limits<Real>::quiet_NaN());
  else n.grad = Tensor::empty(n.value.shape());
  return n.grad;
}

Tape::GradSlot Tape::grad_slot(Var v) {
  Node& n = node(v);
  if (Tensor* g = existing_grad(n)) return GradSlot(this, v, g->data(), false);
  return GradSlot(this, v, new_grad(n, false).data(), true);
}

Tape::GradSlot Tape::grad_slot(Var v, Summed) {
  Node& n = node(v);
  Tensor* g = existing_grad(n);
  return GradSlot(this, v, g ? g->data() : new_grad(n, true).data(), false);
}

void Tape::GradSlot::close() {
  Tape* tape = tape_;
  tape_ = nullptr;
  if (tape && store_) tape->check_written(tape->node(v_));
}

void Tape::check_written(const Node& n) const {
  if (!check_numerics_) return;
  const Real* p = n.grad.data();
  for (int64_t i = 0, count = n.grad.numel(); i < count; ++i)
    if (!std::isfinite(p[i]))
      fail("numerics: the backward of op '", running_, "' wrote a non-finite gradient (", p[i],
           ") at element ", i, " of the gradient of op '", n.op, "' (shape ", n.grad.shape(),
           "); a NaN there may be an element it never wrote");
}

void Tape::add_grad(Var v, Tensor g) {
  Node& n = node(v);
  check_same_shape("add_grad", n.value.shape(), g.shape());
  Tensor* existing = existing_grad(n);
  if (!existing) {
    n.grad = std::move(g);
    return;
  }
  Real* dst = existing->data();
  const Real* src = g.data();
  const int64_t count = g.numel();
  parallel_for((count + 4095) / 4096, 4096, [&](int64_t c) {
    const int64_t i1 = std::min(count, (c + 1) * 4096);
#pragma omp simd
    for (int64_t i = c * 4096; i < i1; ++i) dst[i] += src[i];
  });
}

bool Tape::needs_grad(Var v) const { return node(v).requires_grad; }

const char* Tape::op_name(Var v) const { return node(v).op; }

size_t Tape::recorded_backwards() const {
  size_t n = 0;
  for (const Node& x : nodes_) n += x.backward ? 1 : 0;
  return n;
}

void Tape::scan(const char* what, const char* op, const Tensor& t) const {
  const Real* p = t.data();
  for (int64_t i = 0, n = t.numel(); i < n; ++i)
    if (!std::isfinite(p[i]))
      fail("numerics: non-finite ", what, " (", p[i], ") first produced by op '", op,
           "' (node ", nodes_.size(), ", shape ", t.shape(), ")");
}

void Tape::backward(Var loss) {
  Node& root = node(loss);
  ORDO_CHECK(!backward_done_, "tape: backward() already ran on this recording; clear() the tape "
                              "and record the forward pass again");
  ORDO_CHECK(root.value.numel() == 1, "tape: backward() needs a scalar loss, got shape ",
             root.value.shape());
  ORDO_CHECK(root.requires_grad,
             "tape: the loss does not depend on any parameter (did you record under NoGradGuard, "
             "or forget tape.param()?)");
  backward_done_ = true;
  Tensor* seed = existing_grad(root);
  (seed ? *seed : new_grad(root, false)).fill(1);
  for (int32_t i = loss.id; i >= 0; --i) {
    Node& n = nodes_[i];
    if (n.backward && n.grad.defined()) {
      if (check_numerics_) scan("gradient", n.op, n.grad);
      Backward bw = std::move(n.backward);
      Tensor dout = std::move(n.grad);
      const double t0 = profiling_ ? now_seconds() : 0;
      running_ = n.op;
      bw(*this, dout);
      if (profiling_) profile_[n.op].backward_seconds += now_seconds() - t0;
    }
    n.backward = nullptr;
    if (!n.param) n.grad = Tensor();
  }
}

void Tape::clear() {
  nodes_.clear();
  if (profiling_) last_push_time_ = now_seconds();
  ++epoch_;
  backward_done_ = false;
}

}  // namespace ordo
