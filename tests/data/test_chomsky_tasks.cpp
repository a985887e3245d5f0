// tests/data/test_chomsky_tasks.cpp: the Chomsky-hierarchy tasks generate what docs/spec.md
// §3.10 defines: the transduction layout (input symbols, then BLANK answer slots, `length`
// counting input symbols) and each task's answer.
//
// Each answer is recomputed here from the example's input alone, by a reference written from
// the specification (not from the generator). Hand-built inputs are checked first, against
// answers worked out by hand, on examples the generator drew with exactly that input; then
// every generated example at many lengths is checked against the reference.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "data/binary_numbers.h"
#include "data/task.h"

using namespace ordo;

namespace {

constexpr int32_t kBlank = 1, kFirstSymbol = 2;  // §3.10

struct Decoded {
  std::vector<int32_t> input;   // the input symbols, 0-based
  std::vector<int32_t> answer;  // the classes of the scored slots
};

// Checks the §3.10 layout of an example of length n and reads it back.
Decoded decode(const Task& task, const Example& e, int64_t n, int64_t input_length, int64_t alphabet) {
  REQUIRE(static_cast<int64_t>(e.tokens.size()) == task.tokens(n));
  REQUIRE(e.targets.size() == e.tokens.size());
  REQUIRE(e.scored.size() == e.tokens.size());
  Decoded d;
  for (int64_t t = 0; t < static_cast<int64_t>(e.tokens.size()); ++t) {
    if (t < input_length) {
      REQUIRE((e.tokens[t] >= kFirstSymbol && e.tokens[t] < kFirstSymbol + alphabet));
      REQUIRE(e.scored[t] == 0);
      d.input.push_back(e.tokens[t] - kFirstSymbol);
    } else {
      REQUIRE(e.tokens[t] == kBlank);
      if (e.scored[t]) d.answer.push_back(e.targets[t]);
    }
  }
  return d;
}

// The §3.10 answers, written from the definitions.
int32_t parity(const std::vector<int32_t>& x) {
  int32_t p = 0;
  for (int32_t b : x) p ^= b;
  return p;
}
int32_t even_pairs(const std::vector<int32_t>& x) {
  return x.front() != x.back() ? 1 : 0;  // odd number of 01/10 pairs iff the ends differ
}
int32_t cycle_navigation(const std::vector<int32_t>& x) {
  int64_t steps = 0;
  for (int32_t m : x) steps += m - 1;
  return static_cast<int32_t>(((steps % 5) + 5) % 5);
}
// Digits 0..m-1, + = m, - = m+1, * = m+2: first every product, then the signed sum.
int32_t modular_arithmetic(const std::vector<int32_t>& x, int32_t m) {
  std::vector<int64_t> terms{x[0]};
  std::vector<int32_t> signs{1};
  for (size_t i = 1; i < x.size(); i += 2) {
    if (x[i] == m + 2) {
      terms.back() *= x[i + 1];
    } else {
      terms.push_back(x[i + 1]);
      signs.push_back(x[i] == m ? 1 : -1);
    }
  }
  int64_t v = 0;
  for (size_t t = 0; t < terms.size(); ++t) v += signs[t] * terms[t];
  return static_cast<int32_t>(((v % m) + m) % m);
}

// Expressions written as text, for the hand-built cases: "2+3*4".
std::vector<int32_t> expression(const std::string& text, int32_t m) {
  std::vector<int32_t> x;
  for (char c : text) x.push_back(c == '+' ? m : c == '-' ? m + 1 : c == '*' ? m + 2 : c - '0');
  return x;
}

// Draws examples of length n until every input of `wanted` has been seen (or a bound is
// reached), and returns the answer the generator gave each one.
std::map<std::vector<int32_t>, std::vector<int32_t>> find_inputs(const Task& task, int64_t n,
                                                                  const std::set<std::vector<int32_t>>& wanted,
                                                                  int64_t input_length, int64_t alphabet) {
  std::map<std::vector<int32_t>, std::vector<int32_t>> seen;
  for (uint64_t index = 0; index < 200000 && seen.size() < wanted.size(); ++index) {
    const Decoded d = decode(task, task.example(11, index, n), n, input_length, alphabet);
    if (wanted.count(d.input)) seen[d.input] = d.answer;
  }
  REQUIRE(seen.size() == wanted.size());
  return seen;
}

}  // namespace

TEST_CASE("chomsky tasks: length counts input symbols, one answer slot after them", "[data][chomsky]") {
  for (const char* name : {"parity", "even_pairs", "cycle_navigation", "modular_arithmetic"}) {
    INFO(name);
    auto task = make_task(TaskConfig{.name = name});
    CHECK(task->min_len() == 1);
    CHECK(task->max_len() == 40);
    CHECK(task->head() == HeadKind::Token);
    for (int64_t n : {1, 2, 3, 40, 41, 500}) {
      const int64_t input = std::string(name) == "modular_arithmetic" && n % 2 == 0 ? n - 1 : n;
      CHECK(task->tokens(n) == input + 1);
      const Example e = task->example(3, 7, n);
      CHECK(static_cast<int64_t>(e.tokens.size()) == input + 1);
      CHECK(e.tokens.back() == kBlank);
      CHECK(e.scored.back() == 1);
    }
  }
}

TEST_CASE("chomsky tasks: parity and even_pairs on hand-built inputs", "[data][chomsky]") {
  auto p = make_task(TaskConfig{.name = "parity"});
  const std::map<std::vector<int32_t>, int32_t> parity_by_hand = {
      {{0, 0, 0, 0}, 0}, {{1, 0, 0, 0}, 1}, {{0, 1, 1, 0}, 0}, {{1, 1, 1, 0}, 1}, {{1, 1, 1, 1}, 0}};
  std::set<std::vector<int32_t>> wanted;
  for (const auto& [x, _] : parity_by_hand) wanted.insert(x);
  for (const auto& [x, answer] : find_inputs(*p, 4, wanted, 4, 2)) CHECK(answer == std::vector<int32_t>{parity_by_hand.at(x)});

  // even_pairs counts 01 and 10: 0110 has two (even, 0), 0100 two (0), 0111 one (odd, 1),
  // 1010 three (1), 0000 none (0).
  auto ep = make_task(TaskConfig{.name = "even_pairs"});
  const std::map<std::vector<int32_t>, int32_t> pairs_by_hand = {
      {{0, 1, 1, 0}, 0}, {{0, 1, 0, 0}, 0}, {{0, 1, 1, 1}, 1}, {{1, 0, 1, 0}, 1}, {{0, 0, 0, 0}, 0}};
  wanted.clear();
  for (const auto& [x, _] : pairs_by_hand) wanted.insert(x);
  for (const auto& [x, answer] : find_inputs(*ep, 4, wanted, 4, 2)) CHECK(answer == std::vector<int32_t>{pairs_by_hand.at(x)});
}

TEST_CASE("chomsky tasks: cycle_navigation and modular_arithmetic on hand-built inputs", "[data][chomsky]") {
  // Moves 0 = left, 1 = stay, 2 = right from state 0 of 5: 2,2,2 ends at 3; 0,0 at 4 (wraps).
  auto c = make_task(TaskConfig{.name = "cycle_navigation"});
  const std::map<std::vector<int32_t>, int32_t> cycle_by_hand = {
      {{2, 2, 2}, 3}, {{0, 0, 1}, 3}, {{0, 1, 1}, 4}, {{1, 1, 1}, 0}, {{2, 0, 2}, 1}};
  std::set<std::vector<int32_t>> wanted;
  for (const auto& [x, _] : cycle_by_hand) wanted.insert(x);
  for (const auto& [x, answer] : find_inputs(*c, 3, wanted, 3, 3)) CHECK(answer == std::vector<int32_t>{cycle_by_hand.at(x)});

  // * binds tighter than + and -: 2+3*4 = 14 = 4 (mod 5), not (2+3)*4 = 0; 1-2-3 = -4 = 1;
  // 4-1*3 = 1; 2*3-4 = 2; 3*4*2 = 24 = 4.
  auto ma = make_task(TaskConfig{.name = "modular_arithmetic"});
  const std::map<std::string, int32_t> by_hand = {{"2+3*4", 4}, {"1-2-3", 1}, {"4-1*3", 1}, {"2*3-4", 2}, {"3*4*2", 4}};
  std::set<std::vector<int32_t>> expressions;
  for (const auto& [text, value] : by_hand) {
    CHECK(modular_arithmetic(expression(text, 5), 5) == value);  // the reference itself
    expressions.insert(expression(text, 5));
  }
  const auto seen = find_inputs(*ma, 5, expressions, 5, 8);
  for (const auto& [text, value] : by_hand) CHECK(seen.at(expression(text, 5)) == std::vector<int32_t>{value});
}

TEST_CASE("chomsky tasks: every generated answer equals the reference", "[data][chomsky]") {
  for (int32_t modulus : {5, 7}) {
    auto ma = make_task(TaskConfig{.name = "modular_arithmetic"}.with("modulus", std::to_string(modulus)));
    CHECK(ma->num_classes() == modulus);
    for (int64_t n = 1; n <= 60; ++n)
      for (uint64_t i = 0; i < 40; ++i) {
        const int64_t m = n % 2 == 1 ? n : n - 1;
        const Decoded d = decode(*ma, ma->example(2, i + 100 * n, n), n, m, modulus + 3);
        for (int64_t t = 0; t < m; ++t)  // digits at even places, operators at odd ones
          REQUIRE((t % 2 == 0) == (d.input[t] < modulus));
        REQUIRE(d.answer == std::vector<int32_t>{modular_arithmetic(d.input, modulus)});
      }
  }
  auto p = make_task(TaskConfig{.name = "parity"});
  auto ep = make_task(TaskConfig{.name = "even_pairs"});
  auto c = make_task(TaskConfig{.name = "cycle_navigation"});
  for (int64_t n = 1; n <= 60; ++n)
    for (uint64_t i = 0; i < 40; ++i) {
      Decoded d = decode(*p, p->example(2, i, n), n, n, 2);
      REQUIRE(d.answer == std::vector<int32_t>{parity(d.input)});
      d = decode(*ep, ep->example(2, i, n), n, n, 2);
      REQUIRE(d.answer == std::vector<int32_t>{even_pairs(d.input)});
      d = decode(*c, c->example(2, i, n), n, n, 3);
      REQUIRE(d.answer == std::vector<int32_t>{cycle_navigation(d.input)});
    }
}

TEST_CASE("chomsky tasks: duplicate_string and odds_first, n answer slots and more", "[data][chomsky]") {
  auto dup = make_task(TaskConfig{.name = "duplicate_string"});
  auto odds = make_task(TaskConfig{.name = "odds_first"});
  for (int64_t n : {1, 2, 7, 40, 200}) {
    CHECK(dup->tokens(n) == 3 * n);
    CHECK(odds->tokens(n) == 2 * n);
  }
  // By hand: 011 twice is 011011; 00110101 has 0111 at its odd places (1, 3, 5, 7) and 0100
  // at its even ones.
  const std::vector<int32_t> x3 = {0, 1, 1}, x8 = {0, 0, 1, 1, 0, 1, 0, 1};
  CHECK(find_inputs(*dup, 3, {x3}, 3, 2).at(x3) == std::vector<int32_t>{0, 1, 1, 0, 1, 1});
  CHECK(find_inputs(*odds, 8, {x8}, 8, 2).at(x8) == std::vector<int32_t>{0, 1, 1, 1, 0, 1, 0, 0});
  for (int64_t n = 1; n <= 60; ++n)
    for (uint64_t i = 0; i < 20; ++i) {
      Decoded d = decode(*dup, dup->example(4, i, n), n, n, 2);
      std::vector<int32_t> twice = d.input;
      twice.insert(twice.end(), d.input.begin(), d.input.end());
      REQUIRE(d.answer == twice);
      d = decode(*odds, odds->example(4, i, n), n, n, 2);
      std::vector<int32_t> reordered;
      for (int64_t t = 0; t < n; ++t)
        if (t % 2 == 1) reordered.push_back(d.input[t]);
      for (int64_t t = 0; t < n; ++t)
        if (t % 2 == 0) reordered.push_back(d.input[t]);
      REQUIRE(d.answer == reordered);
    }
}

TEST_CASE("chomsky tasks: symbols and answers are spread over their alphabets", "[data][chomsky]") {
  // Every answer class turns up, and no symbol is missing from the inputs: a generator stuck
  // on one class or one symbol would pass the reference check above.
  for (const char* name : {"parity", "even_pairs", "cycle_navigation", "modular_arithmetic"}) {
    INFO(name);
    auto task = make_task(TaskConfig{.name = name});
    std::set<int32_t> classes, symbols;
    for (uint64_t i = 0; i < 400; ++i) {
      const Example e = task->example(5, i, 9);
      for (size_t t = 0; t + 1 < e.tokens.size(); ++t) symbols.insert(e.tokens[t]);
      classes.insert(e.targets.back());
    }
    CHECK(static_cast<int64_t>(classes.size()) == task->num_classes());
    CHECK(static_cast<int64_t>(symbols.size()) == task->vocab_size() - kFirstSymbol);
  }
  CHECK_THROWS_WITH(make_task(TaskConfig{.name = "modular_arithmetic"}.with("modulus", "1")),
                    Catch::Matchers::Contains("--modulus must be >= 2"));
}

namespace {

uint64_t to_u64(const std::vector<int32_t>& little_endian) {
  uint64_t v = 0;
  for (size_t i = little_endian.size(); i-- > 0;) v = 2 * v + static_cast<uint64_t>(little_endian[i]);
  return v;
}
std::vector<int32_t> to_bits(uint64_t v) {  // little-endian, "0" for zero
  std::vector<int32_t> bits;
  do {
    bits.push_back(static_cast<int32_t>(v & 1));
    v >>= 1;
  } while (v != 0);
  return bits;
}
uint64_t isqrt_u64(uint64_t x) {
  auto r = static_cast<uint64_t>(std::sqrt(static_cast<long double>(x)));
  while (r * r > x) --r;
  while ((r + 1) * (r + 1) <= x) ++r;
  return r;
}

}  // namespace

TEST_CASE("binary numbers: add, multiply, compare, subtract and isqrt against 64-bit arithmetic", "[data][chomsky]") {
  CounterRng rng(9, 1);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t a = rng.uniform_int(0, (int64_t{1} << 30) - 1), b = rng.uniform_int(0, (int64_t{1} << 30) - 1);
    const auto A = binary::trimmed(to_bits(a)), B = binary::trimmed(to_bits(b));
    REQUIRE(to_u64(binary::add(A, B)) == a + b);
    REQUIRE(to_u64(binary::multiply(A, B)) == a * b);
    REQUIRE(binary::compare(A, B) == (a < b ? -1 : a > b ? 1 : 0));
    if (a >= b) REQUIRE(to_u64(binary::subtract(A, B)) == a - b);
    REQUIRE(to_u64(binary::isqrt(binary::multiply(A, B))) == isqrt_u64(a * b));
  }
  // Hundreds of bits: r = isqrt(x) has r^2 <= x < (r + 1)^2.
  for (int64_t width : {61, 200, 501}) {
    const binary::Bits x = binary::uniform_nonzero(rng, width), r = binary::isqrt(x);
    CHECK(binary::compare(binary::multiply(r, r), x) <= 0);
    const binary::Bits r1 = binary::add(r, {1});
    CHECK(binary::compare(binary::multiply(r1, r1), x) > 0);
    CHECK(static_cast<int64_t>(r.size()) <= (width + 1) / 2);
  }
}

TEST_CASE("chomsky tasks: the binary tasks and missing_duplicate on the authors' examples", "[data][chomsky]") {
  // binary_addition: 001 2 01101 (4 + 22, little-endian) -> 26 = 01011, end, 0s to n + 1 = 10.
  auto add = make_task(TaskConfig{.name = "binary_addition"});
  const std::vector<int32_t> sum_in = {0, 0, 1, 2, 0, 1, 1, 0, 1};
  CHECK(add->tokens(9) == 19);
  CHECK(find_inputs(*add, 9, {sum_in}, 9, 3).at(sum_in) == std::vector<int32_t>{0, 1, 0, 1, 1, 2});
  // binary_multiplication: 4 x 22 = 88 = 0001101, end: n = 9 slots, 0 after the end token.
  auto mul = make_task(TaskConfig{.name = "binary_multiplication"});
  CHECK(mul->tokens(9) == 18);
  CHECK(find_inputs(*mul, 9, {sum_in}, 9, 3).at(sum_in) == std::vector<int32_t>{0, 0, 0, 1, 1, 0, 1, 2});
  // compute_sqrt: 100101 = 37 -> 6 = 110 (3 slots; the authors' docstring writes 101);
  // 111 = 7 -> 2 = 10.
  auto sq = make_task(TaskConfig{.name = "compute_sqrt"});
  CHECK(sq->tokens(6) == 9);
  const std::vector<int32_t> x37 = {1, 0, 0, 1, 0, 1}, x7 = {1, 1, 1};
  CHECK(find_inputs(*sq, 6, {x37}, 6, 2).at(x37) == std::vector<int32_t>{1, 1, 0});
  CHECK(find_inputs(*sq, 3, {x7}, 3, 2).at(x7) == std::vector<int32_t>{1, 0});
  // missing_duplicate: 0110 0 [1] 10 -> 1; 101 1 [0] 1, padded with 3 -> 0.
  auto md = make_task(TaskConfig{.name = "missing_duplicate"});
  const std::vector<int32_t> m8 = {0, 1, 1, 0, 0, 2, 1, 0}, m7 = {1, 0, 1, 1, 2, 1, 3};
  CHECK(find_inputs(*md, 8, {m8}, 8, 4).at(m8) == std::vector<int32_t>{1});
  CHECK(find_inputs(*md, 7, {m7}, 7, 4).at(m7) == std::vector<int32_t>{0});
}

TEST_CASE("chomsky tasks: every binary task's answer equals the reference", "[data][chomsky]") {
  auto add = make_task(TaskConfig{.name = "binary_addition"});
  auto mul = make_task(TaskConfig{.name = "binary_multiplication"});
  auto sq = make_task(TaskConfig{.name = "compute_sqrt"});
  auto md = make_task(TaskConfig{.name = "missing_duplicate"});
  for (int64_t n = 1; n <= 60; ++n)
    for (uint64_t i = 0; i < 30; ++i) {
      INFO("n = " << n << ", example " << i);
      // a 2 b, both little-endian and non-zero, |a| + |b| = n - 1 (n >= 3); one number below.
      for (const Task* t : {add.get(), mul.get()}) {
        const bool is_add = t == add.get();
        const Example ex = t->example(6, i, n);
        const Decoded d = decode(*t, ex, n, n, 3);
        const auto sep = std::find(d.input.begin(), d.input.end(), 2);
        uint64_t answer = 0;
        if (n <= 2) {
          REQUIRE(sep == d.input.end());
          answer = is_add ? to_u64(d.input) : 0;
        } else {
          REQUIRE(std::count(d.input.begin(), d.input.end(), 2) == 1);
          const std::vector<int32_t> a(d.input.begin(), sep), b(sep + 1, d.input.end());
          REQUIRE((!a.empty() && !b.empty() && to_u64(a) > 0 && to_u64(b) > 0));
          answer = is_add ? to_u64(a) + to_u64(b) : to_u64(a) * to_u64(b);
        }
        std::vector<int32_t> want = n <= 2 && !is_add ? std::vector<int32_t>(n - 1, 0) : to_bits(answer);
        want.push_back(2);  // the end token; nothing after it is scored
        REQUIRE(d.answer == want);
        REQUIRE(static_cast<int64_t>(ex.tokens.size()) == (is_add ? 2 * n + 1 : 2 * n));
      }
      const Decoded s = decode(*sq, sq->example(6, i, n), n, n, 2);
      uint64_t x = 0;
      for (int32_t bit : s.input) x = 2 * x + static_cast<uint64_t>(bit);  // big-endian
      REQUIRE(x > 0);
      std::vector<int32_t> root = to_bits(isqrt_u64(x));
      root.resize((n + 1) / 2, 0);
      REQUIRE(s.answer == std::vector<int32_t>(root.rbegin(), root.rend()));
      if (n == 1) continue;
      const Decoded m = decode(*md, md->example(6, i, n), n, n, 4);
      const int64_t h = n / 2;
      REQUIRE(std::count(m.input.begin(), m.input.begin() + 2 * h, 2) == 1);
      REQUIRE((n % 2 == 0 || m.input.back() == 3));
      for (int64_t t = 0; t < h; ++t) {  // the two copies agree wherever neither is masked
        if (m.input[t] == 2) REQUIRE(m.answer == std::vector<int32_t>{m.input[t + h]});
        else if (m.input[t + h] == 2) REQUIRE(m.answer == std::vector<int32_t>{m.input[t]});
        else REQUIRE(m.input[t] == m.input[t + h]);
      }
    }
  CHECK(decode(*md, md->example(6, 0, 1), 1, 1, 4).answer == std::vector<int32_t>{1});
}

namespace {

// A recursive-descent reading of a bracketed expression (§3.10's grammar) with the given ids
// for + - * ( ), -1 where an id is absent: its value mod m, and where it ends.
struct Parser {
  const std::vector<int32_t>& s;
  int32_t m, plus, minus, times, open, close;
  size_t i = 0;
  int64_t mod(int64_t v) const { return ((v % m) + m) % m; }
  int64_t expr() {
    REQUIRE(i < s.size());
    const int32_t t = s[i++];
    if (t >= 0 && t < m) return t;
    if (t == minus) return mod(-expr());
    REQUIRE(t == open);
    const int64_t left = expr();
    REQUIRE(i < s.size());
    if (s[i] == close) return ++i, left;
    const int32_t op = s[i++];
    const int64_t right = expr();
    REQUIRE(i < s.size());
    REQUIRE(s[i++] == close);
    if (op == plus) return mod(left + right);
    if (op == minus) return mod(left - right);
    REQUIRE(op == times);
    return mod(left * right);
  }
};

std::vector<int32_t> bracket_text(const std::string& text, int32_t m) {  // "((1-2)*3)"
  std::vector<int32_t> x;
  for (char c : text)
    x.push_back(c == '+' ? m : c == '-' ? m + 1 : c == '*' ? m + 2 : c == '(' ? m + 3 : c == ')' ? m + 4 : c - '0');
  return x;
}

}  // namespace

TEST_CASE("chomsky tasks: the context-free tasks on hand-built inputs", "[data][chomsky]") {
  // The authors' examples: stack 0110, PUSH 1, POP, POP -> 1 1 0 (top first), end; stack
  // 110, POP x3 -> empty, end.
  auto st = make_task(TaskConfig{.name = "stack_manipulation"});
  CHECK(st->tokens(7) == 15);
  const std::vector<int32_t> s7 = {0, 1, 1, 0, 4, 2, 2}, s6 = {1, 1, 0, 2, 2, 2};
  CHECK(find_inputs(*st, 7, {s7}, 7, 5).at(s7) == std::vector<int32_t>{1, 1, 0, 2});
  CHECK(find_inputs(*st, 6, {s6}, 6, 5).at(s6) == std::vector<int32_t>{2});
  // Brackets mod 5: (1+2) = 3, (3*4) = 2, (1-2) = 4, (-3) = 2, ((1-2)*3) = 2.
  auto br = make_task(TaskConfig{.name = "modular_arithmetic_brackets"});
  const std::map<std::string, int32_t> by_hand = {{"(1+2)", 3}, {"(3*4)", 2}, {"(1-2)", 4}, {"(-3)", 2}, {"((1-2)*3)", 2}};
  for (const auto& [text, value] : by_hand) {
    const std::vector<int32_t> x = bracket_text(text, 5);
    Parser p{x, 5, 5, 6, 7, 8, 9};
    CHECK(p.expr() == value);  // the reference itself
    const auto n = static_cast<int64_t>(x.size());
    CHECK(find_inputs(*br, n, {x}, n, 10).at(x) == std::vector<int32_t>{value});
  }
  // solve_equation mod 5 (ids: + 5, - 6, ( 7, ) 8, x 9, = 10): (x-2)=4 -> x = 1; (3+x)=0 -> 2.
  auto se = make_task(TaskConfig{.name = "solve_equation"});
  const std::vector<int32_t> e1 = {7, 9, 6, 2, 8, 10, 4}, e2 = {7, 3, 5, 9, 8, 10, 0};
  CHECK(find_inputs(*se, 7, {e1, e2}, 7, 11) ==
        std::map<std::vector<int32_t>, std::vector<int32_t>>{{e1, {1}}, {e2, {2}}});
}

TEST_CASE("chomsky tasks: every context-free answer equals the reference", "[data][chomsky]") {
  auto st = make_task(TaskConfig{.name = "stack_manipulation"});
  auto br = make_task(TaskConfig{.name = "modular_arithmetic_brackets"});
  auto se = make_task(TaskConfig{.name = "solve_equation"});
  for (int64_t n = 1; n <= 60; ++n)
    for (uint64_t i = 0; i < 30; ++i) {
      INFO("n = " << n << ", example " << i);
      // The stack: bits first (at least one), then actions; replayed here.
      const Decoded s = decode(*st, st->example(8, i, n), n, n, 5);
      std::vector<int32_t> stack;
      size_t t = 0;
      for (; t < s.input.size() && s.input[t] < 2; ++t) stack.push_back(s.input[t]);
      REQUIRE(!stack.empty());
      REQUIRE((n == 1 || stack.size() < s.input.size()));
      for (; t < s.input.size(); ++t) {
        REQUIRE(s.input[t] >= 2);
        if (s.input[t] == 2 && !stack.empty()) stack.pop_back();
        if (s.input[t] > 2) stack.push_back(s.input[t] - 3);
      }
      std::vector<int32_t> want(stack.rbegin(), stack.rend());
      want.push_back(2);
      REQUIRE(s.answer == want);
      // The expression: exactly n symbols, well formed, its value the class.
      const Decoded b = decode(*br, br->example(8, i, n), n, n, 10);
      Parser p{b.input, 5, 5, 6, 7, 8, 9};
      REQUIRE(b.answer == std::vector<int32_t>{static_cast<int32_t>(p.expr())});
      REQUIRE(p.i == b.input.size());
      // The equation: one x, "= v" at the end; the class is the only digit that makes the
      // left side equal v.
      const Decoded q = decode(*se, se->example(8, i, n), n, n, 11);
      if (n < 3) {
        REQUIRE(q.input == std::vector<int32_t>(n, 0));
        REQUIRE(q.answer == std::vector<int32_t>{0});
        continue;
      }
      REQUIRE(q.input[n - 2] == 10);
      REQUIRE(std::count(q.input.begin(), q.input.end(), 9) == 1);
      std::vector<int32_t> solutions;
      for (int32_t d = 0; d < 5; ++d) {
        std::vector<int32_t> lhs(q.input.begin(), q.input.end() - 2);
        std::replace(lhs.begin(), lhs.end(), 9, d);
        Parser pe{lhs, 5, 5, 6, -1, 7, 8};
        if (pe.expr() == q.input[n - 1]) solutions.push_back(d);
        REQUIRE(pe.i == lhs.size());
      }
      REQUIRE(solutions == q.answer);
    }
}
