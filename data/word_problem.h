// data/word_problem.h: the word problems of finite groups (docs/spec.md §3.11; Merrill, Petty
// and Sabharwal 2024, "The illusion of state in state-space models"), written once for `s5`,
// `a5` and `z60`.
//
// A sequence is n group elements x_1 .. x_n, each i.i.d. uniform over the group; position t
// is scored with the running product y_t = y_{t-1} . x_t (y_1 = x_1), so every position is
// an answer and the model tracks the state of the whole prefix. Ids: 0 = PAD, element e is
// id e + 1; classes: the elements. Token head; chance 1 / |G|.
//
// Elements are numbered as in the authors' code (jopetty/word-problem, which builds groups
// with the abstract_algebra package): a permutation group lists its permutations of
// (0 .. k-1) in lexicographic order, so element 0 is the identity; the product is
// composition, (a . b)[i] = a[b[i]] (b acts first). A subgroup (A5 in S5) keeps the order of
// its elements in the full group and numbers them 0, 1, ...; Z_m is the integers mod m under
// addition.
//
// A group is its multiplication table; a task subclasses WordProblemTask with its group:
//   class S5Task final : public WordProblemTask {
//     S5Task(const TaskConfig& c) : WordProblemTask(c, word_problem::symmetric(5)) {}
//     std::string name() const override { return "s5"; }
//   };
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "core/rng.h"
#include "data/task.h"

namespace ordo {
namespace word_problem {

// A finite group as its table: product[a][b] = a . b, elements 0 .. size-1.
struct Group {
  std::vector<std::vector<int32_t>> product;
  int64_t size() const { return static_cast<int64_t>(product.size()); }
};

using Permutation = std::vector<int32_t>;

// (a . b)[i] = a[b[i]]: b acts first.
inline Permutation compose(const Permutation& a, const Permutation& b) {
  Permutation c(b.size());
  for (size_t i = 0; i < b.size(); ++i) c[i] = a[b[i]];
  return c;
}

// Even iff its cycle decomposition has an even number of even-length cycles; counted here
// as the parity of the number of inversions.
inline bool is_even(const Permutation& p) {
  int64_t inversions = 0;
  for (size_t i = 0; i < p.size(); ++i)
    for (size_t j = i + 1; j < p.size(); ++j) inversions += p[i] > p[j];
  return inversions % 2 == 0;
}

// The table of the group formed by `elements` (closed under composition, listed in the
// order that numbers them).
inline Group permutation_group(const std::vector<Permutation>& elements) {
  std::map<Permutation, int32_t> index;
  for (size_t e = 0; e < elements.size(); ++e) index[elements[e]] = static_cast<int32_t>(e);
  Group g;
  g.product.assign(elements.size(), std::vector<int32_t>(elements.size()));
  for (size_t a = 0; a < elements.size(); ++a)
    for (size_t b = 0; b < elements.size(); ++b) {
      const auto it = index.find(compose(elements[a], elements[b]));
      ORDO_CHECK(it != index.end(), "word_problem: the permutations are not closed under composition");
      g.product[a][b] = it->second;
    }
  return g;
}

// Every permutation of (0 .. k-1), in lexicographic order.
inline std::vector<Permutation> permutations(int32_t k) {
  Permutation p(k);
  std::iota(p.begin(), p.end(), 0);
  std::vector<Permutation> all;
  do all.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  return all;
}

// S_k: all k! permutations.
inline Group symmetric(int32_t k) { return permutation_group(permutations(k)); }

// A_k: the k!/2 even permutations, in their order within S_k.
inline Group alternating(int32_t k) {
  std::vector<Permutation> even;
  for (const Permutation& p : permutations(k))
    if (is_even(p)) even.push_back(p);
  return permutation_group(even);
}

// Z_m: 0 .. m-1 under addition mod m.
inline Group cyclic(int32_t m) {
  Group g;
  g.product.assign(m, std::vector<int32_t>(m));
  for (int32_t a = 0; a < m; ++a)
    for (int32_t b = 0; b < m; ++b) g.product[a][b] = (a + b) % m;
  return g;
}

}  // namespace word_problem

class WordProblemTask : public Task {
 public:
  // Merrill et al. train and test at one length, 20; ordo trains on 1..20 and tests longer.
  static constexpr int64_t kDefaultMinLen = 1, kDefaultMaxLen = 20;

  HeadKind head() const override { return HeadKind::Token; }
  int64_t vocab_size() const override { return 1 + group_.size(); }
  int64_t num_classes() const override { return group_.size(); }
  double chance_level() const override { return 1.0 / static_cast<double>(group_.size()); }
  int64_t min_valid_len() const override { return 1; }
  std::vector<MetricInfo> metrics() const override {
    return {{"acc", "share of positions whose running product is right"},
            {"exact", "share of sequences with every running product right"},
            {"loss", "mean cross-entropy per position"}};
  }

  Example example(uint64_t seed, uint64_t index, int64_t length) const override {
    check_length(length);
    CounterRng rng(seed, data_stream(name() + "/example", index));
    Example e;
    e.tokens.resize(length);
    e.targets.resize(length);
    e.scored.assign(length, 1);
    int32_t state = 0;  // the identity (element 0 in every group here), so y_1 = x_1
    for (int64_t t = 0; t < length; ++t) {
      const auto x = static_cast<int32_t>(rng.uniform_int(0, group_.size() - 1));
      state = group_.product[state][x];
      e.tokens[t] = x + 1;
      e.targets[t] = state;
    }
    return e;
  }

  const word_problem::Group& group() const { return group_; }

 protected:
  WordProblemTask(const TaskConfig& config, word_problem::Group group) : Task(config), group_(std::move(group)) {
    config_ = resolve_range(config_, kDefaultMinLen, kDefaultMaxLen);
  }

 private:
  word_problem::Group group_;
};

}  // namespace ordo
