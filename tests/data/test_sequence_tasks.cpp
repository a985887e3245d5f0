// tests/data/test_sequence_tasks.cpp: copy, reverse, sort, flipflop and recall generate what
// docs/spec.md §3.4-3.6 defines.
//
// Each task's targets are recomputed here from its tokens alone, by a reference written from
// the specification (not from the generator), on hand-built sequences first (so the
// reference itself is checked) and then on generated ones at many lengths.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "data/task.h"
#include "tests/data/data_test_util.h"

using namespace ordo;

namespace {

constexpr int32_t kSep = 1, kBlank = 2, kFirstSymbol = 3;  // §3.4

// The §3.4 answer for the input symbols x (ids): what answer slot i holds.
std::vector<int32_t> slot_answer(const std::string& task, std::vector<int32_t> x) {
  if (task == "reverse") std::reverse(x.begin(), x.end());
  if (task == "sort") std::sort(x.begin(), x.end());
  return x;
}

// Checks one answer-slot example against §3.4: the layout, the ids, the scored slots and
// their classes.
void check_slot_example(const std::string& task, const Example& e, int64_t length, int64_t symbols) {
  REQUIRE(static_cast<int64_t>(e.tokens.size()) == length);
  const int64_t n = (length - 1) / 2;
  const int64_t first = length % 2 == 0 ? 1 : 0;  // an even length starts with one BLANK
  if (first == 1) CHECK(e.tokens[0] == kBlank);
  std::vector<int32_t> x(e.tokens.begin() + first, e.tokens.begin() + first + n);
  for (int32_t id : x) REQUIRE((id >= kFirstSymbol && id < kFirstSymbol + symbols));
  REQUIRE(e.tokens[first + n] == kSep);
  const std::vector<int32_t> y = slot_answer(task, x);
  for (int64_t t = 0; t < length; ++t) {
    const bool slot = t > first + n;
    INFO(task << " length " << length << " position " << t);
    REQUIRE(e.scored[t] == (slot ? 1 : 0));
    if (slot) {
      REQUIRE(e.tokens[t] == kBlank);
      REQUIRE(e.targets[t] == y[t - first - n - 1] - kFirstSymbol);
    }
  }
}

// §3.5: the bit of the latest write before each read; -1 where nothing is scored.
std::vector<int32_t> flipflop_reference(const std::vector<int32_t>& tokens) {
  std::vector<int32_t> answer(tokens.size(), -1);
  int32_t memory = -1;
  for (size_t t = 0; t < tokens.size(); ++t) {
    if (tokens[t] == 1 || tokens[t] == 2) memory = tokens[t] - 1;  // W0, W1
    if (tokens[t] == 5) answer[t] = memory;                        // R
  }
  return answer;
}

}  // namespace

TEST_CASE("copy, reverse, sort: hand-built layouts", "[data][copy][reverse][sort]") {
  // Length 7: x = (a, b, c), SEP, three slots at positions 4, 5, 6. Length 8: one BLANK first.
  const std::vector<int32_t> x = {5, 3, 4};
  CHECK(slot_answer("copy", x) == std::vector<int32_t>{5, 3, 4});
  CHECK(slot_answer("reverse", x) == std::vector<int32_t>{4, 3, 5});
  CHECK(slot_answer("sort", {5, 3, 5, 4}) == std::vector<int32_t>{3, 4, 5, 5});  // repeats kept
  for (const char* name : {"copy", "reverse", "sort"}) {
    auto task = make_task(TaskConfig{.name = name});
    CHECK(task->head() == HeadKind::Token);
    CHECK(task->vocab_size() == 11);
    CHECK(task->num_classes() == 8);
    CHECK(task->chance_level() == Approx(0.125));
    CHECK(task->min_len() == 8);
    CHECK(task->max_len() == 32);
    const Example odd = task->example(1, 0, 7);
    CHECK(odd.scored == std::vector<uint8_t>{0, 0, 0, 0, 1, 1, 1});
    CHECK(odd.tokens[3] == kSep);
    const Example even = task->example(1, 0, 8);
    CHECK(even.scored == std::vector<uint8_t>{0, 0, 0, 0, 0, 1, 1, 1});
    CHECK(even.tokens[0] == kBlank);
    CHECK(even.tokens[4] == kSep);
    const Example shortest = task->example(1, 0, 3);  // one symbol, SEP, one slot
    CHECK(shortest.tokens[1] == kSep);
    CHECK(shortest.targets[2] == shortest.tokens[0] - kFirstSymbol);
    CHECK_THROWS_WITH(task->example(1, 0, 2), Catch::Contains("too short"));
  }
}

TEST_CASE("copy, reverse, sort: every generated sequence follows the definition", "[data][copy][reverse][sort]") {
  for (const char* name : {"copy", "reverse", "sort"}) {
    for (int64_t symbols : {2, 8, 30}) {
      auto task = make_task(TaskConfig{.name = name}.with("symbols", std::to_string(symbols)));
      for (int64_t length = 3; length <= 40; ++length)
        for (uint64_t index = 0; index < 8; ++index) check_slot_example(name, task->example(7, index, length), length, symbols);
    }
    // Batches: the training range, padding unscored.
    auto task = make_task(TaskConfig{.name = name});
    const Batch b = task->batch(3, 0, 16, /*same_length=*/false);
    for (int64_t s = 0; s < b.batch_size(); ++s)
      for (int64_t t = b.lengths[s]; t < b.length(); ++t) CHECK(b.score[s * b.length() + t] == Real(0));
  }
}

TEST_CASE("copy: input symbols are uniform and the stream is the task's own", "[data][copy]") {
  auto task = make_task(TaskConfig{.name = "copy"});
  std::vector<int64_t> counts(8, 0);
  for (uint64_t index = 0; index < 2000; ++index) {
    const Example e = task->example(5, index, 21);
    for (int64_t t = 0; t < 10; ++t) ++counts[e.tokens[t] - kFirstSymbol];
  }
  CHECK(test::chi_square_uniform(counts) < 24.3);  // 7 degrees of freedom, p = 0.001
  // copy and reverse draw from streams of their own: the same (seed, index) differ.
  auto reverse = make_task(TaskConfig{.name = "reverse"});
  int same = 0;
  for (uint64_t index = 0; index < 20; ++index)
    same += task->example(5, index, 21).tokens == reverse->example(5, index, 21).tokens ? 1 : 0;
  CHECK(same < 3);
}

TEST_CASE("copy, reverse, sort: bad settings are errors naming them", "[data][copy]") {
  CHECK_THROWS_WITH(make_task(TaskConfig{.name = "copy"}.with("symbols", "1")), Catch::Contains("--symbols must be >= 2"));
  CHECK_THROWS_WITH(make_task(TaskConfig{.name = "sort", .min_len = 2, .max_len = 9}), Catch::Contains("--min-len must be >= 3"));
}

TEST_CASE("flipflop: hand-built sequence", "[data][flipflop]") {
  // W1 I0 R W0 I1 R R: the reads at 2, 5 and 6 answer 1, 0, 0.
  const std::vector<int32_t> tokens = {2, 3, 5, 1, 4, 5, 5};
  CHECK(flipflop_reference(tokens) == std::vector<int32_t>{-1, -1, 1, -1, -1, 0, 0});
  auto task = make_task(TaskConfig{.name = "flipflop"});
  CHECK(task->vocab_size() == 6);
  CHECK(task->num_classes() == 2);
  CHECK(task->chance_level() == 0.5);
  CHECK(task->min_len() == 16);
  CHECK(task->max_len() == 64);
  const Example two = task->example(1, 0, 2);  // the shortest: a write, then its read
  CHECK((two.tokens[0] == 1 || two.tokens[0] == 2));
  CHECK(two.tokens[1] == 5);
  CHECK(two.targets[1] == two.tokens[0] - 1);
}

TEST_CASE("flipflop: reads answer the latest write, instruction shares follow --flipflop-p", "[data][flipflop]") {
  for (double p : {0.0, 0.5, 0.8, 0.98}) {
    auto task = make_task(TaskConfig{.name = "flipflop"}.with("flipflop-p", std::to_string(p)));
    int64_t writes = 0, ignores = 0, reads = 0;
    for (uint64_t index = 0; index < 400; ++index) {
      const int64_t length = 2 + static_cast<int64_t>(index % 100);
      const Example e = task->example(11, index, length);
      REQUIRE(static_cast<int64_t>(e.tokens.size()) == length);
      CHECK((e.tokens.front() == 1 || e.tokens.front() == 2));  // a write first
      CHECK(e.tokens.back() == 5);                               // a read last
      const std::vector<int32_t> want = flipflop_reference(e.tokens);
      for (int64_t t = 0; t < length; ++t) {
        REQUIRE(e.scored[t] == (want[t] >= 0 ? 1 : 0));
        if (want[t] >= 0) REQUIRE(e.targets[t] == want[t]);
        if (t == 0 || t == length - 1) continue;  // the fixed ends
        const int32_t id = e.tokens[t];
        (id <= 2 ? writes : id <= 4 ? ignores : reads) += 1;
      }
    }
    const double total = static_cast<double>(writes + ignores + reads);
    INFO("p " << p << ": writes " << writes << ", ignores " << ignores << ", reads " << reads);
    CHECK(ignores / total == Approx(p).margin(0.01));
    CHECK(writes / total == Approx((1 - p) / 2).margin(0.01));
    CHECK(reads / total == Approx((1 - p) / 2).margin(0.01));
  }
  CHECK_THROWS_WITH(make_task(TaskConfig{.name = "flipflop"}.with("flipflop-p", "1")),
                    Catch::Contains("--flipflop-p") && Catch::Contains("[0, 1)"));
}

TEST_CASE("recall: hand-built layout and the definition on generated sequences", "[data][recall]") {
  auto task = make_task(TaskConfig{.name = "recall", .min_len = 3, .max_len = 12}.with("keys", "5").with("values", "3"));
  CHECK(task->vocab_size() == 10);  // PAD, BLANK, 5 keys, 3 values
  CHECK(task->num_classes() == 3);
  CHECK(task->chance_level() == Approx(1.0 / 3));
  CHECK(task->max_valid_len() == 12);  // 5 pairs and the query, one BLANK
  const int32_t first_key = 2, first_value = 7;
  for (int64_t length = 3; length <= 12; ++length)
    for (uint64_t index = 0; index < 50; ++index) {
      const Example e = task->example(3, index, length);
      INFO("length " << length << " index " << index);
      REQUIRE(static_cast<int64_t>(e.tokens.size()) == length);
      const int64_t m = (length - 1) / 2, first = length % 2 == 0 ? 1 : 0;
      if (first == 1) CHECK(e.tokens[0] == 1);
      std::set<int32_t> keys;
      int64_t key_at = -1;
      for (int64_t i = 0; i < m; ++i) {
        const int32_t k = e.tokens[first + 2 * i], v = e.tokens[first + 2 * i + 1];
        REQUIRE((k >= first_key && k < first_value));
        REQUIRE((v >= first_value && v < first_value + 3));
        keys.insert(k);
        if (k == e.tokens[length - 1]) key_at = first + 2 * i;
      }
      CHECK(static_cast<int64_t>(keys.size()) == m);  // distinct keys
      REQUIRE(key_at >= 0);                            // the query is one of them
      for (int64_t t = 0; t < length; ++t) REQUIRE(e.scored[t] == (t == length - 1 ? 1 : 0));
      CHECK(e.targets[length - 1] == e.tokens[key_at + 1] - first_value);  // its value
      CHECK(e.distance == length - 1 - key_at);
    }
  CHECK_THROWS_WITH(task->example(3, 0, 13), Catch::Contains("too long") && Catch::Contains("<= 12"));
  CHECK_THROWS_WITH(make_task(TaskConfig{.name = "recall", .max_len = 140}),
                    Catch::Contains("--max-len 140") && Catch::Contains("--keys"));
  CHECK_THROWS_WITH(make_task(TaskConfig{.name = "recall"}.with("keys", "1")), Catch::Contains("--keys must be >= 2"));
}

TEST_CASE("recall: the query's pair is uniform among the pairs", "[data][recall]") {
  auto task = make_task(TaskConfig{.name = "recall"});
  std::vector<int64_t> counts(8, 0);  // length 17: 8 pairs, distances 2, 4, .., 16
  for (uint64_t index = 0; index < 4000; ++index) ++counts[(task->example(9, index, 17).distance - 2) / 2];
  CHECK(test::chi_square_uniform(counts) < 24.3);  // 7 degrees of freedom, p = 0.001
}

TEST_CASE("order: the recorded distance is |pos(A) - pos(B)|", "[data][order]") {
  auto task = make_task(TaskConfig{.name = "order"});
  for (uint64_t index = 0; index < 200; ++index) {
    const Example e = task->example(4, index, 20);
    const auto a = std::find(e.tokens.begin(), e.tokens.end(), 1) - e.tokens.begin();
    const auto b = std::find(e.tokens.begin(), e.tokens.end(), 2) - e.tokens.begin();
    CHECK(e.distance == std::abs(a - b));
    CHECK(task->eval_twin(e).distance == e.distance);
  }
  auto gap = make_task(TaskConfig{.name = "order"}.with("gap", "5"));
  for (uint64_t index = 0; index < 50; ++index) CHECK(gap->example(4, index, 20).distance == 5);
}
