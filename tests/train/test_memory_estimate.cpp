// tests/train/test_memory_estimate.cpp: the memory a run needs, estimated before it starts
// (train/memory.h; issue 23: oversized settings fail fast).
//
// The estimate is measured on models of 1 and 2 layers at three short lengths (64, 128, 192)
// and extrapolated; here it is compared with what a real run of 3 layers at length 256
// (training) and 512 (evaluation) then holds, read from the tensor pool's counters.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "core/tensor.h"
#include "layers/posenc/encoding.h"
#include "train/memory.h"
#include "train/trainer.h"

using namespace ordo;

namespace {

TrainConfig config(const std::string& task, const std::string& encoding) {
  TrainConfig c;
  c.task.name = task;
  c.task.min_len = c.task.max_len = 256;  // every training batch at the longest length
  c.model.encoding = encoding;
  c.model.n_layers = 3;
  c.batch_size = 8;
  c.eval_lens = {512};
  c.seed = 2;
  return c;
}

// Within `tolerance` of each other, relative to the measurement.
bool close(int64_t estimate, int64_t measured, double tolerance) {
  return std::abs(static_cast<double>(estimate - measured)) <= tolerance * static_cast<double>(measured);
}

}  // namespace

TEST_CASE("memory: the estimate matches what a training step and an evaluation hold", "[train][memory]") {
  for (const char* task : {"shift", "order"}) {
    for (const char* encoding : {"rope", "t5", "learned", "alibi"}) {
      Trainer trainer(config(task, encoding));
      const MemoryNeed need = estimate_memory(trainer.config(), trainer.task());
      trainer.step_once();  // gradients and optimizer state exist from here on
      const int64_t before = pool_stats().bytes_in_use;
      reset_pool_peak();
      trainer.step_once();
      const int64_t train_step = pool_stats().peak_bytes_in_use - before;
      reset_pool_peak();
      trainer.evaluate();
      const int64_t eval_step = pool_stats().peak_bytes_in_use - pool_stats().bytes_in_use;
      int64_t params = 0;
      for (const Parameter* p : trainer.model().parameters()) params += p->value.numel();
      const int64_t model = params * static_cast<int64_t>(sizeof(Real)) * 4;  // value, gradient, Adam's 2 moments
      INFO(task << " / " << encoding << ": train step " << train_step << " B measured, " << need.train_step
                << " estimated; evaluation " << eval_step << " vs " << need.eval_step << "; model " << model << " vs "
                << need.model);
      CHECK(close(need.train_step, train_step, 0.05));
      CHECK(close(need.eval_step, eval_step, 0.05));
      CHECK(close(need.model, model, 0.05));
    }
  }
}

TEST_CASE("memory: settings that do not fit are refused before anything large is allocated", "[train][memory]") {
  TrainConfig c = config("shift", "rope");
  ::setenv("ORDO_MEMORY_AVAILABLE", "10000000", 1);  // 10 MB: the probe models fit, the run does not
  const int64_t before = pool_stats().bytes_in_use;
  CHECK_THROWS_WITH(Trainer(c), Catch::Contains("these settings need about") &&
                                    Catch::Contains("more than the 10 MB available") &&
                                    Catch::Contains("Lower --batch, --max-len, --eval-lens, --layers or --d-model"));
  // Nothing large was allocated, and the probes gave back what they took; only an
  // encoding's tables for the probe lengths stay cached (rope: 265 kB).
  CHECK(pool_stats().bytes_in_use - before < 1000000);
  c.model.n_layers = 100000;  // 100,000 layers: refused just as fast (measured on 1 and 2)
  ::setenv("ORDO_MEMORY_AVAILABLE", "100000000000", 1);  // 100 GB
  CHECK_THROWS_WITH(Trainer(c), Catch::Contains("--layers 100000"));
  ::unsetenv("ORDO_MEMORY_AVAILABLE");
  c.model.n_layers = 3;
  CHECK_NOTHROW(Trainer(c));
}

TEST_CASE("memory: final-only lengths are counted one at a time, built beside the held sets", "[train][memory]") {
  // shift at 256: every set's sequences are exactly their length in tokens; 12 bytes a token.
  TrainConfig every = config("shift", "rope"), final_only = config("shift", "rope");
  every.eval_lens = {300, 400, 512};
  final_only.eval_lens = {512};
  final_only.eval_lens_final = {300, 400};
  const Trainer a(every), b(final_only);
  const MemoryNeed na = estimate_memory(a.config(), a.task()), nb = estimate_memory(b.config(), b.task());
  const int64_t train_set = 12 * kEvalTrainSequences * 256, set = 12 * 256;  // the latter per token of length
  CHECK(na.eval_sets == train_set + set * (300 + 400 + 512) + std::max(train_set, set * 512));
  CHECK(nb.eval_sets == train_set + set * 512 + 2 * set * 400);  // the 400 set's examples and batches
  CHECK(nb.eval_sets < na.eval_sets);
  CHECK(nb.eval_step == na.eval_step);  // the largest evaluation batch is a held set's in both
  CHECK(nb.eval_length == na.eval_length);
}
