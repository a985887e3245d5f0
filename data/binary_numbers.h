// data/binary_numbers.h: natural numbers as bit strings of any length, for the tasks that
// compute on binary numbers (binary_addition, binary_multiplication, compute_sqrt; docs/spec.md
// §3.10), whose operands reach hundreds of bits. Written once here.
//
// A number is a little-endian bit vector (bit i has weight 2^i), possibly with zero bits at
// its high end; `trimmed` drops them (zero is the empty vector).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/rng.h"

namespace ordo::binary {

using Bits = std::vector<int32_t>;

// Without the zero bits at the high end.
inline Bits trimmed(Bits x) {
  while (!x.empty() && x.back() == 0) x.pop_back();
  return x;
}

// Zero-padded at the high end to `width` bits (a wider number is left as it is).
inline Bits padded(Bits x, int64_t width) {
  if (static_cast<int64_t>(x.size()) < width) x.resize(width, 0);
  return x;
}

// Uniform over [1, 2^width - 1], `width` bits (width >= 1): width fair bits, redrawn while
// all are zero.
inline Bits uniform_nonzero(CounterRng& rng, int64_t width) {
  Bits x(width);
  do {
    for (int32_t& b : x) b = static_cast<int32_t>(rng.uniform_int(0, 1));
  } while (std::all_of(x.begin(), x.end(), [](int32_t b) { return b == 0; }));
  return x;
}

// The input of binary_addition and binary_multiplication at length n >= 3: `a 2 b` in
// little-endian binary, |a| uniform in [1, n - 2], |b| = n - 1 - |a|, each number uniform
// in [1, 2^width - 1] and written at its width (Deletang et al.'s code).
struct Operands {
  Bits a, b, input;
};
inline Operands draw_operands(CounterRng& rng, int64_t n) {
  const int64_t width_a = rng.uniform_int(1, n - 2), width_b = n - 1 - width_a;
  Operands o;
  o.a = uniform_nonzero(rng, width_a);
  o.b = uniform_nonzero(rng, width_b);
  o.input = o.a;
  o.input.push_back(2);
  o.input.insert(o.input.end(), o.b.begin(), o.b.end());
  return o;
}

inline Bits add(const Bits& a, const Bits& b) {
  Bits s(std::max(a.size(), b.size()) + 1, 0);
  int32_t carry = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const int32_t t = (i < a.size() ? a[i] : 0) + (i < b.size() ? b[i] : 0) + carry;
    s[i] = t & 1;
    carry = t >> 1;
  }
  return trimmed(s);
}

// Schoolbook: a shifted by i, added for every set bit i of b.
inline Bits multiply(const Bits& a, const Bits& b) {
  Bits p(a.size() + b.size() + 1, 0);
  for (size_t i = 0; i < b.size(); ++i) {
    if (b[i] == 0) continue;
    int32_t carry = 0;
    for (size_t j = 0; i + j < p.size(); ++j) {
      const int32_t t = p[i + j] + (j < a.size() ? a[j] : 0) + carry;
      p[i + j] = t & 1;
      carry = t >> 1;
      if (j >= a.size() && carry == 0) break;
    }
  }
  return trimmed(p);
}

// -1, 0, 1 as a < b, a == b, a > b.
inline int compare(const Bits& a, const Bits& b) {
  const Bits x = trimmed(a), y = trimmed(b);
  if (x.size() != y.size()) return x.size() < y.size() ? -1 : 1;
  for (size_t i = x.size(); i-- > 0;)
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

// a - b for a >= b.
inline Bits subtract(const Bits& a, const Bits& b) {
  Bits d = a;
  int32_t borrow = 0;
  for (size_t i = 0; i < d.size(); ++i) {
    int32_t t = d[i] - (i < b.size() ? b[i] : 0) - borrow;
    borrow = t < 0;
    d[i] = t + 2 * borrow;
  }
  return trimmed(d);
}

// floor(sqrt(x)), digit by digit: the root r gains one bit per pair of x's bits, from the
// top; the candidate 2r+1 (next bit 1) is kept when the remainder can pay for it.
inline Bits isqrt(const Bits& x) {
  const Bits v = trimmed(x);
  Bits root, remainder;
  const size_t pairs = (v.size() + 1) / 2;
  for (size_t k = pairs; k-- > 0;) {
    // remainder = 4 remainder + the next two bits of x
    Bits next = {2 * k < v.size() ? v[2 * k] : 0, 2 * k + 1 < v.size() ? v[2 * k + 1] : 0};
    next.insert(next.end(), remainder.begin(), remainder.end());
    remainder = trimmed(next);
    Bits candidate = {1};  // 4 root + 1 = (2 root + 1)^2 - (2 root)^2
    candidate.push_back(0);
    candidate.insert(candidate.end(), root.begin(), root.end());
    Bits shifted = {0};  // 2 root
    shifted.insert(shifted.end(), root.begin(), root.end());
    if (compare(remainder, candidate) >= 0) {
      remainder = subtract(remainder, candidate);
      shifted[0] = 1;
    }
    root = trimmed(shifted);
  }
  return root;
}

}  // namespace ordo::binary
