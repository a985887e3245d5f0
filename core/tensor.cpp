// core/tensor.cpp: Shape and the storage pool.
#include "core/tensor.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <ostream>
#include <unordered_map>

#include <sys/mman.h>

namespace ordo {

Shape::Shape(std::initializer_list<int64_t> dims) : Shape(std::vector<int64_t>(dims)) {}

Shape::Shape(const std::vector<int64_t>& dims) {
  ORDO_CHECK(static_cast<int>(dims.size()) <= kMaxRank, "Shape: rank ", dims.size(),
             " exceeds the maximum rank ", kMaxRank);
  rank_ = static_cast<int>(dims.size());
  for (int i = 0; i < rank_; ++i) {
    ORDO_CHECK(dims[i] >= 0, "Shape: negative dimension ", dims[i]);
    dims_[i] = dims[i];
  }
}

int64_t Shape::operator[](int axis) const {
  int a = axis < 0 ? axis + rank_ : axis;
  ORDO_CHECK(a >= 0 && a < rank_, "Shape: axis ", axis, " out of range for rank ", rank_);
  return dims_[a];
}

int64_t& Shape::operator[](int axis) {
  int a = axis < 0 ? axis + rank_ : axis;
  ORDO_CHECK(a >= 0 && a < rank_, "Shape: axis ", axis, " out of range for rank ", rank_);
  return dims_[a];
}

int64_t Shape::numel() const {
  int64_t n = 1;
  for (int i = 0; i < rank_; ++i) n *= dims_[i];
  return n;
}

std::string Shape::str() const {
  std::string s = "(";
  for (int i = 0; i < rank_; ++i) {
    if (i) s += ", ";
    s += std::to_string(dims_[i]);
  }
  return s + ")";
}

bool Shape::operator==(const Shape& o) const {
  if (rank_ != o.rank_) return false;
  for (int i = 0; i < rank_; ++i)
    if (dims_[i] != o.dims_[i]) return false;
  return true;
}

std::ostream& operator<<(std::ostream& os, const Shape& s) { return os << s.str(); }

void check_same_shape(const char* op, const Shape& a, const Shape& b) {
  ORDO_CHECK(a == b, op, ": shapes differ: ", a, " vs ", b);
}

double max_abs_diff(const Tensor& a, const Tensor& b) {
  check_same_shape("max_abs_diff", a.shape(), b.shape());
  double m = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    double d = std::fabs(static_cast<double>(a[i]) - static_cast<double>(b[i]));
    if (std::isnan(d)) return d;
    m = std::max(m, d);
  }
  return m;
}

// ---------------------------------------------------------------------------------------
// The pool. Blocks are grouped in size classes (powers of two, 64-byte aligned); a freed
// block goes back on its class's free list. A training step repeats the same shapes, so
// after the first step every request is served from a free list: no heap growth.
namespace {

constexpr size_t kHugePage = size_t{2} << 20;

struct Pool {
  std::mutex mutex;
  std::unordered_map<size_t, std::vector<void*>> free_lists;  // class size -> blocks
  PoolStats stats;

  static size_t size_class(size_t bytes) {
    size_t c = 64;
    while (c < bytes) c <<= 1;
    return c;
  }
  void count(int64_t bytes) {  // with mutex held
    stats.bytes_in_use += bytes;
    stats.peak_bytes_in_use = std::max(stats.peak_bytes_in_use, stats.bytes_in_use);
  }
  void* take(size_t cls, size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      count(static_cast<int64_t>(bytes));
      auto& list = free_lists[cls];
      if (!list.empty()) {
        void* p = list.back();
        list.pop_back();
        return p;
      }
    }
    // Blocks of 2 MiB and more are 2 MiB aligned and asked to be backed by transparent huge
    // pages: GEMM and attention operands span megabytes, and on a VM every 4 KiB TLB miss
    // is a two-level page walk.
    const bool huge = cls >= kHugePage;
    void* p = std::aligned_alloc(huge ? kHugePage : 64, cls);
    if (p == nullptr) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        count(-static_cast<int64_t>(bytes));
      }
      fail("out of memory allocating ", cls, " bytes");
    }
#ifdef MADV_HUGEPAGE
    if (huge) madvise(p, cls, MADV_HUGEPAGE);  // advice only: failure changes nothing
#endif
    std::lock_guard<std::mutex> lock(mutex);
    ++stats.system_allocations;
    stats.system_bytes += static_cast<int64_t>(cls);
    return p;
  }
  void give(void* p, size_t cls, size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    count(-static_cast<int64_t>(bytes));
    free_lists[cls].push_back(p);
  }
  ~Pool() {
    for (auto& [cls, list] : free_lists)
      for (void* p : list) std::free(p);
  }
};

Pool& pool() {
  static Pool* p = new Pool();  // never destroyed: tensors may outlive static destructors
  return *p;
}

}  // namespace

PoolStats pool_stats() {
  std::lock_guard<std::mutex> lock(pool().mutex);
  return pool().stats;
}

void reset_pool_peak() {
  std::lock_guard<std::mutex> lock(pool().mutex);
  pool().stats.peak_bytes_in_use = pool().stats.bytes_in_use;
}

std::shared_ptr<void> pool_allocate(size_t bytes) {
  size_t cls = Pool::size_class(bytes == 0 ? 1 : bytes);
  void* p = pool().take(cls, bytes);
  return std::shared_ptr<void>(p, [cls, bytes](void* q) { pool().give(q, cls, bytes); });
}

}  // namespace ordo
