// data/modular_expressions.h: the bracketed expressions mod m of Deletang et al. 2023's
// modular_arithmetic_brackets and solve_equation (docs/spec.md §3.10), and the --modulus
// option every modular task shares.
//
// An expression of exactly `length` symbols (the authors' grammar): length 1 is a digit d,
// 2 is -d, 3 is (d), 4 is (-d); longer ones are (L o R) with |L| uniform in [1, length - 4],
// |R| = length - 3 - |L|, both drawn the same way, and o uniform over + - (and * with `mult`).
// Digits are uniform over 0..m-1. Symbols: digits 0..m-1, + m, - m+1, * m+2, ( m+3, ) m+4.
#pragma once

#include <cstdint>
#include <vector>

#include "core/options.h"
#include "core/rng.h"

namespace ordo::modular {

inline OptionSpec modulus_option() {
  return {"modulus", OptionType::Int, "5", "the modulus: digits 0..m-1, m classes", ">= 2",
          [](double v) { return v >= 2; }};
}

struct Expression {
  std::vector<int32_t> symbols;
  int64_t value = 0;  // in [0, m)
};

inline Expression bracket_expression(CounterRng& rng, int64_t length, int64_t m, bool mult) {
  const auto plus = static_cast<int32_t>(m), minus = plus + 1, times = plus + 2, open = plus + 3, close = plus + 4;
  auto mod = [m](int64_t v) { return ((v % m) + m) % m; };
  if (length <= 4) {
    const auto d = static_cast<int32_t>(rng.uniform_int(0, m - 1));
    switch (length) {
      case 1: return {{d}, d};
      case 2: return {{minus, d}, mod(-d)};
      case 3: return {{open, d, close}, d};
      default: return {{open, minus, d, close}, mod(-d)};
    }
  }
  const int64_t left_length = rng.uniform_int(1, length - 4);
  const Expression left = bracket_expression(rng, left_length, m, mult);
  const Expression right = bracket_expression(rng, length - 3 - left_length, m, mult);
  const int64_t op = rng.uniform_int(0, mult ? 2 : 1);
  Expression e;
  e.symbols.push_back(open);
  e.symbols.insert(e.symbols.end(), left.symbols.begin(), left.symbols.end());
  e.symbols.push_back(op == 0 ? plus : op == 1 ? minus : times);
  e.symbols.insert(e.symbols.end(), right.symbols.begin(), right.symbols.end());
  e.symbols.push_back(close);
  e.value = op == 0 ? mod(left.value + right.value) : op == 1 ? mod(left.value - right.value) : mod(left.value * right.value);
  return e;
}

}  // namespace ordo::modular
