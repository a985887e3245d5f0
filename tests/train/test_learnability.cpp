// tests/train/test_learnability.cpp: each task is learnable by the encodings that should
// learn it, and not by the one that cannot (docs/spec.md §2 and §3).
//
// Calibration (small model d=32, H=2, 2 layers, d_ff=64, batch 32, lr 3e-3, warmup 100,
// measured on this 2-core machine, 1 thread, seeds 0-2):
//   order, sinusoidal, 1000 steps: 0.996-0.998 at training lengths (needs >= 0.95;
//     600 steps gave 0.959 for one seed, too close);
//   order, none: exactly 0.5 on the swap-paired set at every step;
//   shift (k = 10), rope, 300 steps: 1.000 at training lengths (needs >= 0.98);
//   periodic (complete), 1000 steps: rope 0.662, none 0.326 (needs rope - none >= 0.2;
//     500 steps gave 0.521 vs 0.322, too close).
// The answer-slot tasks, flipflop and recall (seeds 1 and 2; the test runs seed 1):
//   copy, rope, 2000 steps: 0.994, 0.953 (needs >= 0.9; 1000 steps gave 0.90, 0.42);
//     none, 500 steps: 0.301, 0.301 (its slots are identical, so it can only name the
//     input's commonest symbol; needs <= 0.4);
//   reverse, rope, 1500 steps (1000 gave 0.943, 1.000): needs >= 0.9;
//   sort, rope, 1000 steps: 0.998, 1.000 (needs >= 0.95);
//   flipflop, rope, 500 steps: 0.994, 0.996 (needs >= 0.97); none: 0.709, 0.708 (the
//     written bits' majority; needs <= 0.8);
//   recall with 2 keys and 4 values, lengths 5-6 (two pairs), rope, 2000 steps: 1.000, 1.000
//     (it leaves the 0.63 plateau of naming a value present after 1500 and 500 steps); none,
//     500 steps: 0.60, 0.63 (needs <= 0.7). With 4 or more keys neither this model nor the
//     default one left that plateau within 20,000 steps (issue 21's note).
//   passkey at lengths 12-16, rope, 3000 steps: 0.956, 1.000, 1.000 for seeds 1-3 (needs
//     >= 0.95 in one of them); none, 1000 steps: 0.364 (its five slots are identical, so
//     it gives them one digit; needs <= 0.5).
//   counting with --count-max 24, lengths 2-12, rope, 800 steps: 0.994, 0.997, 1.000 for
//     seeds 1-3 (needs >= 0.95; 500 steps gave 0.988); none, 500 steps: 0.166 (its copies
//     are identical, so it gives them one count; needs <= 0.3).
//   even_pairs (Chomsky, regular) at lengths 1-10, batch 64, lr 1e-3 (at batch 32, lr 3e-3
//     rope solved it in 2 of 6 seeds within 1500 steps), rope, 1000 steps: 1.000, 1.000,
//     1.000, 1.000, 1.000, 0.996 for seeds 1-6 (500 steps: 0.912-1.000); none, 1000 steps:
//     0.691, 0.680, 0.674 for seeds 1-3 (the symbol counts tell short strings apart, never
//     which symbol is first and which last; needs <= 0.76); transformer_xl (Deletang et al.'s
//     relative encoding), 1000 steps: 1.000 for seeds 1-4 (0.941, 0.781, 0.832, 0.676 at
//     length 12). s5 and z60 at lengths 1-4 stayed
//     at their majority rate (0.397, 0.405) in 2000 steps for rope and none, so the state
//     tasks have no learnability test at this size.
#include <catch2/catch.hpp>

#include <algorithm>

#include "train/trainer.h"

using namespace ordo;

namespace {

TrainConfig learnability_run(const std::string& task, const std::string& encoding, int64_t steps, uint64_t seed) {
  TrainConfig c;
  c.task.name = task;
  c.model.encoding = encoding;
  c.model.d_model = 32;
  c.model.n_heads = 2;
  c.model.n_layers = 2;
  c.model.d_ff = 64;
  c.batch_size = 32;
  c.lr = 3e-3;
  c.steps = steps;
  c.eval_every = 0;  // only at the end (and the untrained baseline)
  c.seed = seed;
  return c;
}

// Accuracy on the evaluation set drawn from the training length range, after training.
double final_accuracy(Trainer& t) { return t.log().eval.at(0).back().acc; }

// Trains the run of `c` and returns final_accuracy.
double trained_accuracy(const TrainConfig& c) {
  Trainer t(c);
  t.run();
  return final_accuracy(t);
}

}  // namespace

TEST_CASE("order: sinusoidal learns which of A and B comes first", "[train][learnability]") {
  CHECK(trained_accuracy(learnability_run("order", "sinusoidal", 1000, 1)) >= 0.95);
}

TEST_CASE("order: with no positional encoding the model sits exactly at chance", "[train][learnability]") {
  Trainer t(learnability_run("order", "none", 200, 1));
  t.run();
  // Swap-paired evaluation sets and a permutation-invariant model: exactly half right at
  // every length and every evaluation, not 0.5 plus noise.
  for (const auto& [length, points] : t.log().eval)
    for (const EvalPoint& p : points) {
      INFO("length " << length << " step " << p.step);
      CHECK(p.acc == 0.5);
    }
}

TEST_CASE("shift: rope learns y_i = x_{i-10}", "[train][learnability]") {
  CHECK(trained_accuracy(learnability_run("shift", "rope", 300, 1)) >= 0.98);
}

TEST_CASE("periodic: rope completes masked patterns far better than no encoding", "[train][learnability]") {
  const double rope = trained_accuracy(learnability_run("periodic", "rope", 1000, 1));
  const double none = trained_accuracy(learnability_run("periodic", "none", 1000, 1));
  INFO("rope " << rope << ", none " << none);
  CHECK(rope - none >= 0.2);
}

TEST_CASE("copy: rope learns to copy through blank answer slots, none only names one symbol for all", "[train][learnability]") {
  const double rope = trained_accuracy(learnability_run("copy", "rope", 2000, 1));
  const double none = trained_accuracy(learnability_run("copy", "none", 500, 1));
  INFO("rope " << rope << ", none " << none);
  CHECK(rope >= 0.9);
  CHECK(none <= 0.4);
}

TEST_CASE("reverse: rope learns to reverse", "[train][learnability]") {
  CHECK(trained_accuracy(learnability_run("reverse", "rope", 1500, 1)) >= 0.9);
}

TEST_CASE("sort: rope learns to sort", "[train][learnability]") {
  CHECK(trained_accuracy(learnability_run("sort", "rope", 1000, 1)) >= 0.95);
}

TEST_CASE("flipflop: rope reads the last written bit, none only guesses the majority", "[train][learnability]") {
  const double rope = trained_accuracy(learnability_run("flipflop", "rope", 500, 1));
  const double none = trained_accuracy(learnability_run("flipflop", "none", 500, 1));
  INFO("rope " << rope << ", none " << none);
  CHECK(rope >= 0.97);
  CHECK(none <= 0.8);
}

TEST_CASE("recall: rope looks up the queried key's value, none cannot pair keys with values", "[train][learnability]") {
  auto recall_run = [](const std::string& encoding, int64_t steps) {
    TrainConfig c = learnability_run("recall", encoding, steps, 1);
    c.task.min_len = 5, c.task.max_len = 6;  // two pairs
    c.task.options.set("keys", "2");
    c.task.options.set("values", "4");
    c.eval_lens = {6};
    return c;
  };
  // When a seed leaves the plateau depends on the bits, which differ by instruction set
  // (oneDNN's kernels; docs/spec.md §9): seed 1 ends at 0.943 on one AVX2 machine, above 0.95
  // on one AVX-512 machine and at 0.668 on another (it left the plateau after 3000 steps
  // there), where seeds 2 and 3 reach 1.000 by 1000 and 1500 steps. So rope is asked to learn
  // it in one of three seeds: the property is that it can, which none cannot in any.
  double rope = 0;
  for (uint64_t seed = 1; seed <= 3 && rope < 0.90; ++seed) {
    TrainConfig c = recall_run("rope", 2000);
    c.seed = seed;
    rope = std::max(rope, trained_accuracy(c));
  }
  const double none = trained_accuracy(recall_run("none", 500));
  INFO("rope (best seed) " << rope << ", none " << none);
  // Chance is 0.25 and none stays at or below 0.70, so 0.90 separates looking up from guessing.
  CHECK(rope >= 0.90);
  CHECK(none <= 0.7);
}

TEST_CASE("counting: rope counts on from the start number, none gives every copy one count", "[train][learnability]") {
  auto counting_run = [](const std::string& encoding, int64_t steps) {
    TrainConfig c = learnability_run("counting", encoding, steps, 1);
    c.task.max_len = 12;
    c.task.options.set("count-max", "24");
    c.eval_lens = {24};
    return c;
  };
  const double rope = trained_accuracy(counting_run("rope", 800));
  const double none = trained_accuracy(counting_run("none", 500));
  INFO("rope " << rope << ", none " << none);
  CHECK(rope >= 0.95);
  CHECK(none <= 0.3);
}

TEST_CASE("passkey: rope copies the key's five digits into the slots, none gives them one digit", "[train][learnability]") {
  auto passkey_run = [](const std::string& encoding, int64_t steps, uint64_t seed) {
    TrainConfig c = learnability_run("passkey", encoding, steps, seed);
    c.task.min_len = 12, c.task.max_len = 16;
    c.eval_lens = {24};
    return c;
  };
  double rope = 0;  // in one of three seeds, as recall: when a seed gets there depends on the bits
  for (uint64_t seed = 1; seed <= 3 && rope < 0.95; ++seed) rope = std::max(rope, trained_accuracy(passkey_run("rope", 3000, seed)));
  const double none = trained_accuracy(passkey_run("none", 1000, 1));
  INFO("rope (best seed) " << rope << ", none " << none);
  CHECK(rope >= 0.95);
  CHECK(none <= 0.5);
}

TEST_CASE("even_pairs: rope and transformer_xl tell whether the first and last symbols agree, none only guesses from the counts", "[train][learnability]") {
  auto even_pairs_run = [](const std::string& encoding, uint64_t seed) {
    TrainConfig c = learnability_run("even_pairs", encoding, 1000, seed);
    c.task.max_len = 10;
    c.batch_size = 64;
    c.lr = 1e-3;
    c.eval_lens = {12};
    return c;
  };
  double rope = 0;  // in one of three seeds, as recall (it took all six on this machine)
  for (uint64_t seed = 1; seed <= 3 && rope < 0.97; ++seed) rope = std::max(rope, trained_accuracy(even_pairs_run("rope", seed)));
  double xl = 0;
  for (uint64_t seed = 1; seed <= 3 && xl < 0.97; ++seed) xl = std::max(xl, trained_accuracy(even_pairs_run("transformer_xl", seed)));
  const double none = trained_accuracy(even_pairs_run("none", 1));
  INFO("rope (best seed) " << rope << ", transformer_xl (best seed) " << xl << ", none " << none);
  CHECK(rope >= 0.97);
  CHECK(xl >= 0.97);
  CHECK(none <= 0.76);
}
