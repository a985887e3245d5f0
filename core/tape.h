// core/tape.h: tape-based reverse-mode autograd (a Wengert list).
//
// Every op appends one node to the tape: its output value and a closure that, given the
// gradient of the output, adds the gradients of its inputs. Nodes are created in
// topological order, so backward() is a reverse loop over the tape: no recursion, no
// reference-counted graph. Example:
//
//   Tape tape;
//   Parameter w("w", Tensor::from({2}, {3, -1}));
//   Var x = tape.input(Tensor::from({2}, {1, 2}));
//   Var y = sum(tape, mul(tape, tape.param(w), x));   // y = w . x
//   tape.backward(y);                                 // w.grad == x
//   tape.clear();                                     // end of step
#pragma once

#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace ordo {

// A trainable tensor: a value, its accumulated gradient and a hierarchical name
// ("blocks.0.attn.w_q"). Gradients accumulate over backward passes until zero_grad().
//
// A parameter may be bounded: after every optimizer update the trainer projects it back into
// [lower, upper] (project()), the projected gradient method by which e.g. Kerple keeps its
// kernel parameters positive (layers/posenc/kerple.cpp). Unbounded by default.
struct Parameter {
  Parameter() = default;
  Parameter(std::string name, Tensor value);
  std::string name;
  Tensor value;
  Tensor grad;
  Real lower = -std::numeric_limits<Real>::infinity();
  Real upper = std::numeric_limits<Real>::infinity();
  void zero_grad() { grad.zero(); }
  bool bounded() const { return lower > -std::numeric_limits<Real>::infinity() || upper < std::numeric_limits<Real>::infinity(); }
  // Clamps every element into [lower, upper]; nothing to do when unbounded.
  void project();
};

// A handle to a tape node. `epoch` ties it to one recording: after Tape::clear() it is
// stale and any use of it is an error.
struct Var {
  int32_t id = -1;
  uint32_t epoch = 0;
  bool defined() const { return id >= 0; }
};

class Tape {
 public:
  // Adds the input gradients given the output gradient `dout` (same shape as the output).
  using Backward = std::function<void(Tape&, const Tensor& dout)>;

  Tape();
  Tape(const Tape&) = delete;
  Tape& operator=(const Tape&) = delete;

  // A leaf whose gradient accumulates into p.grad. The node shares p.value's storage.
  Var param(Parameter& p);
  // A leaf that needs no gradient (data, masks, constants).
  Var input(Tensor value);
  // Appends an op's output. `backward` is kept only when some input needs a gradient
  // and gradients are enabled; otherwise the node is a plain value.
  Var push(const char* op, Tensor out, Backward backward, std::initializer_list<Var> inputs);
  Var push(const char* op, Tensor out, Backward backward, const std::vector<Var>& inputs);

  const Tensor& value(Var v) const;
  const Shape& shape(Var v) const { return value(v).shape(); }
  // ---- How a backward delivers an input's gradient: add_grad ---------------------------
  // A backward adds its contribution to the gradient of every input that needs one
  // (needs_grad), always through add_grad, in one of three forms:
  //
  //   t.add_grad(x, [&](auto into, Real* dx) { ... into(dx[i], value) ... });
  //       `write` visits every element of x's gradient exactly once, through `into`, which
  //       stores or adds. A GEMM passes `into.accumulate` as its beta (C = A B + beta C).
  //   t.add_grad(x, Tape::summed, [&](auto into, Real* dx) { ... dx[i] += value ... });
  //       for a scatter or a sum over a loop: `write` adds any number of contributions to
  //       each element, into a buffer that starts at zero when x has no gradient yet.
  //   t.add_grad(x, g);
  //       g is a buffer the backward gives up (an add's dout): x's first gradient adopts it,
  //       a later one adds it.
  //
  // Whether x already holds a gradient is the tape's knowledge, not the op's: x's first
  // gradient is stored into a new, uninitialised buffer (`into` is Store), later ones are
  // added (`into` is Add), and a parameter's gradient is always added to. (Zero-filling
  // every activation's gradient before adding was 8% of a tiny training step.) A write
  // that skips an element of a new buffer would leave garbage there: in the float64 build,
  // where the gradient checks run, and under set_check_numerics(true) a new buffer starts
  // as NaN, and check_gradients puts every input through both forms of `into`.
  struct Store {
    static constexpr bool accumulate = false;
    void operator()(Real& dst, Real value) const { dst = value; }
  };
  struct Add {
    static constexpr bool accumulate = true;
    void operator()(Real& dst, Real value) const { dst += value; }
  };
  struct Summed {};
  static constexpr Summed summed{};

  template <class Write>
  void add_grad(Var v, Write&& write);
  template <class Write>
  void add_grad(Var v, Summed, Write&& write);
  void add_grad(Var v, Tensor g);

  // ---- Several gradients at once: grad_slot ----------------------------------------------
  // A kernel that writes several inputs' gradients in one pass (the fused attention: q, k, v
  // and each logit term's input) holds their buffers open side by side, one slot each, in
  // place of add_grads nested one inside another:
  //
  //   Tape::GradSlot dq = t.grad_slot(q);              // the first form: every element once,
  //                                                    // stored when dq.store(), else added
  //   Tape::GradSlot ds = t.grad_slot(s, Tape::summed);  // the summed form: added to
  //   kernel(dq.data(), dq.store(), ds.data());
  //
  // A slot is open from grad_slot to its close() or its end, and then checks a new buffer as
  // add_grad does. An empty slot (GradSlot{}) stands for an input that needs no gradient.
  // add_grad is a slot held for one write.
  class GradSlot {
   public:
    GradSlot() = default;
    GradSlot(GradSlot&& o) noexcept
        : tape_(o.tape_), v_(o.v_), data_(o.data_), store_(o.store_), unwinding_(o.unwinding_) {
      o.tape_ = nullptr;
    }
    GradSlot(const GradSlot&) = delete;
    GradSlot& operator=(const GradSlot&) = delete;
    GradSlot& operator=(GradSlot&&) = delete;
    // Closes the slot, unless an exception is passing (a failed check of another slot):
    // then the buffer is left unchecked, and the error that is on its way stands.
    ~GradSlot() noexcept(false) {
      if (std::uncaught_exceptions() == unwinding_) close();
    }
    Real* data() const { return data_; }  // null for an empty slot
    bool store() const { return store_; }  // a new buffer: every element must be written
    // Under check_numerics, fails naming the op when a new buffer holds an element the
    // kernel never wrote (as add_grad does). Once; the slot is empty afterwards.
    void close();

   private:
    friend class Tape;
    GradSlot(Tape* tape, Var v, Real* data, bool store) : tape_(tape), v_(v), data_(data), store_(store) {}
    Tape* tape_ = nullptr;
    Var v_;
    Real* data_ = nullptr;
    bool store_ = false;
    int unwinding_ = std::uncaught_exceptions();  // exceptions in flight when it opened
  };
  GradSlot grad_slot(Var v);
  GradSlot grad_slot(Var v, Summed);

  bool needs_grad(Var v) const;

  // Seeds d(loss)/d(loss) = 1 and runs every recorded closure in reverse order. `loss`
  // must hold one value. Intermediate gradients are released as soon as they are used.
  void backward(Var loss);
  // Forgets every node (their buffers go back to the pool); existing Vars become stale.
  void clear();

  bool grad_enabled() const { return grad_enabled_; }
  void set_grad_enabled(bool on) { grad_enabled_ = on; }
  // When on, every op output (and every gradient in backward) is scanned for NaN/Inf,
  // and the first op that produces one is named in the error.
  void set_check_numerics(bool on) { check_numerics_ = on; }
  bool check_numerics() const { return check_numerics_; }

  // Op profiling: when on, the time from one push to the next is charged to the op pushed
  // (its forward) and each backward closure's time to its op. Totals live in the profile
  // until reset_profile(); `ordo bench --profile` prints them.
  struct OpTime {
    double forward_seconds = 0, backward_seconds = 0;
    int64_t calls = 0;
  };
  void set_profiling(bool on);
  const std::map<std::string, OpTime>& profile() const { return profile_; }
  void reset_profile() { profile_.clear(); }

  size_t size() const { return nodes_.size(); }
  size_t recorded_backwards() const;  // nodes holding a backward closure
  const char* op_name(Var v) const;

 private:
  struct Node {
    const char* op = "";
    Tensor value;
    Tensor grad;
    Backward backward;
    Parameter* param = nullptr;
    bool requires_grad = false;
  };
  Node& node(Var v);
  const Node& node(Var v) const;
  // v's gradient buffer to add to, or null when v has none yet (a parameter always has one).
  Tensor* existing_grad(Node& n);
  // A new gradient buffer for n: uninitialised, or NaN in the float64 build and under
  // check_numerics (see add_grad); `zeroed` for the summed form.
  Tensor& new_grad(Node& n, bool zeroed);
  // Under check_numerics: fails when a new gradient buffer holds a non-finite value after
  // the backward that wrote it.
  void check_written(const Node& n) const;
  void scan(const char* what, const char* op, const Tensor& t) const;

  std::deque<Node> nodes_;  // a deque: references from value() stay valid while ops push
  uint32_t epoch_ = 1;
  bool grad_enabled_ = true;
  bool check_numerics_ = false;
  bool backward_done_ = false;
  bool profiling_ = false;
  const char* running_ = "";  // the op whose backward is running
  double last_push_time_ = 0;
  std::map<std::string, OpTime> profile_;
};

template <class Write>
void Tape::add_grad(Var v, Write&& write) {
  GradSlot slot = grad_slot(v);
  if (slot.store()) write(Store{}, slot.data());
  else write(Add{}, slot.data());
}

template <class Write>
void Tape::add_grad(Var v, Summed, Write&& write) {
  write(Add{}, grad_slot(v, summed).data());
}

// RAII: no op recorded while it lives keeps a backward closure.
class NoGradGuard {
 public:
  explicit NoGradGuard(Tape& tape) : tape_(tape), previous_(tape.grad_enabled()) {
    tape_.set_grad_enabled(false);
  }
  ~NoGradGuard() { tape_.set_grad_enabled(previous_); }
  NoGradGuard(const NoGradGuard&) = delete;
  NoGradGuard& operator=(const NoGradGuard&) = delete;

 private:
  Tape& tape_;
  bool previous_;
};

}  // namespace ordo
