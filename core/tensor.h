// core/tensor.h: dense, row-major, contiguous tensors.
//
// A Tensor is a cheap handle: a shape plus shared storage. Copying a Tensor shares the
// storage (like a PyTorch tensor); clone() makes a deep copy. Storage comes from a
// size-class pool (core/tensor.cpp) so a training step that repeats the same shapes stops
// touching the heap after the first step.
//
// `Real` is float32 in the library users train with and float64 in the reference build
// that gradient checks run on (compiled with ORDO_REAL_DOUBLE).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"

namespace ordo {

#ifdef ORDO_REAL_DOUBLE
using Real = double;
#else
using Real = float;
#endif

// The logit of a masked score: softmax gives it weight 0.
constexpr Real kNegInf = -std::numeric_limits<Real>::infinity();

// A shape of up to kMaxRank dimensions, stored inline.
class Shape {
 public:
  static constexpr int kMaxRank = 6;
  Shape() = default;
  Shape(std::initializer_list<int64_t> dims);
  explicit Shape(const std::vector<int64_t>& dims);

  int rank() const { return rank_; }
  int64_t operator[](int axis) const;    // negative axes count from the end
  int64_t& operator[](int axis);
  int64_t numel() const;
  int64_t last() const { return (*this)[-1]; }
  // Product of all dimensions but the last: the number of rows of the 2-D view.
  int64_t rows() const { return rank_ == 0 ? 1 : numel() / last(); }
  std::vector<int64_t> dims() const { return {dims_.begin(), dims_.begin() + rank_}; }
  std::string str() const;  // "(2, 3, 4)"
  bool operator==(const Shape& o) const;
  bool operator!=(const Shape& o) const { return !(*this == o); }

 private:
  std::array<int64_t, kMaxRank> dims_{};
  int rank_ = 0;
};

std::ostream& operator<<(std::ostream& os, const Shape& s);

// Raw storage from the pool; returned to the pool when the last handle goes away.
std::shared_ptr<void> pool_allocate(size_t bytes);

// What the pool has taken from the system allocator so far (blocks are kept for reuse,
// never returned). A training step repeats its shapes, so after warm-up these stay flat.
struct PoolStats {
  int64_t system_allocations = 0;  // blocks obtained from aligned_alloc
  int64_t system_bytes = 0;        // their total size
  int64_t bytes_in_use = 0;        // bytes asked for by the tensors alive now
  int64_t peak_bytes_in_use = 0;   // the most bytes_in_use has been since the last reset
};
PoolStats pool_stats();
// Restarts peak_bytes_in_use from bytes_in_use (train/memory.h measures a step with it).
void reset_pool_peak();

template <class T>
class BasicTensor {
 public:
  BasicTensor() = default;

  // Uninitialised storage (from the pool). Use when every element is written next.
  static BasicTensor empty(const Shape& shape) {
    BasicTensor t;
    t.shape_ = shape;
    t.storage_ = pool_allocate(sizeof(T) * static_cast<size_t>(shape.numel()));
    return t;
  }
  static BasicTensor zeros(const Shape& shape) { return full(shape, T(0)); }
  static BasicTensor full(const Shape& shape, T value) {
    BasicTensor t = empty(shape);
    T* p = t.data();
    for (int64_t i = 0, n = t.numel(); i < n; ++i) p[i] = value;
    return t;
  }
  // From explicit values (row-major); the count must match the shape.
  static BasicTensor from(const Shape& shape, const std::vector<T>& values) {
    ORDO_CHECK(static_cast<int64_t>(values.size()) == shape.numel(), "Tensor::from: shape ",
               shape, " holds ", shape.numel(), " values, got ", values.size());
    BasicTensor t = empty(shape);
    if (!values.empty()) std::memcpy(t.data(), values.data(), sizeof(T) * values.size());
    return t;
  }
  static BasicTensor scalar(T value) { return full(Shape{}, value); }

  bool defined() const { return storage_ != nullptr; }
  const Shape& shape() const { return shape_; }
  int rank() const { return shape_.rank(); }
  int64_t dim(int axis) const { return shape_[axis]; }
  int64_t numel() const { return shape_.numel(); }

  T* data() { return static_cast<T*>(storage_.get()); }
  const T* data() const { return static_cast<const T*>(storage_.get()); }
  T& operator[](int64_t i) { return data()[i]; }
  const T& operator[](int64_t i) const { return data()[i]; }
  T item() const {
    ORDO_CHECK(numel() == 1, "Tensor::item: tensor of shape ", shape_, " is not a single value");
    return data()[0];
  }
  std::vector<T> to_vector() const { return std::vector<T>(data(), data() + numel()); }

  // Same storage, new shape with the same element count.
  BasicTensor reshaped(const Shape& shape) const {
    ORDO_CHECK(shape.numel() == numel(), "reshape: cannot view ", shape_, " (", numel(),
               " values) as ", shape, " (", shape.numel(), " values)");
    BasicTensor t = *this;
    t.shape_ = shape;
    return t;
  }
  BasicTensor clone() const {
    BasicTensor t = empty(shape_);
    if (numel() > 0) std::memcpy(t.data(), data(), sizeof(T) * numel());
    return t;
  }
  void fill(T value) {
    T* p = data();
    for (int64_t i = 0, n = numel(); i < n; ++i) p[i] = value;
  }
  void zero() {
    if (numel() > 0) std::memset(data(), 0, sizeof(T) * numel());
  }
  bool shares_storage(const BasicTensor& o) const { return storage_ == o.storage_; }

 private:
  Shape shape_;
  std::shared_ptr<void> storage_;
};

using Tensor = BasicTensor<Real>;
using TensorF32 = BasicTensor<float>;
using TensorI32 = BasicTensor<int32_t>;

// Throws "<op>: shapes differ: (..) vs (..)" unless a and b have the same shape.
void check_same_shape(const char* op, const Shape& a, const Shape& b);

// Largest absolute elementwise difference (shapes must match).
double max_abs_diff(const Tensor& a, const Tensor& b);

}  // namespace ordo
