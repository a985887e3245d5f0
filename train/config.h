// train/config.h: the configuration of one training run, every field at its default.
//
// train/settings.h maps each field to a command line flag, an HDF5 attribute and a
// checkpoint entry, and validates it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/rng.h"
#include "data/task.h"
#include "layers/model.h"
#include "train/optimizer.h"

namespace ordo {

struct TrainConfig {
  TaskConfig task;
  ModelConfig model;             // vocab_size, num_classes and head come from the task
  OptimizerConfig optimizer;
  double lr = 1e-3;
  int64_t steps = 2000;          // with until_learned: the most steps a run takes
  // A budget by outcome (train/stopping.h, docs/spec.md §5.5): stop once the training-range
  // accuracy is >= learned_at at two evaluations in a row, or after `patience` steps without
  // progress on the training range (0 = never), else at `steps`. Off: exactly `steps` steps.
  bool until_learned = false;
  double learned_at = 0.99;
  int64_t patience = 0;
  int64_t batch_size = 64;
  // The batch's fixed partition (docs/spec.md §5.4): M equal parts of consecutive sequences,
  // each part's gradient computed alone, the parts' gradients summed in part order. It fixes
  // every sum, so a data-parallel run over N ranks (N dividing M) has the bits of one process.
  int64_t micro_batches = 2;
  int64_t warmup = 100;
  double clip = 1.0;             // global gradient norm; 0 = off
  int64_t eval_every = 250;      // and always at the last step; 0 = only at the last step
  std::vector<int64_t> eval_lens;  // extrapolation lengths; empty = 2x and 4x max_len
  // More extrapolation lengths, scored after the last step only (not at step 0 nor at every
  // --eval-every), each set built when it is scored and dropped after: the long sweeps of
  // Deletang et al. (41..500 after training on 1..40), which would slow every evaluation. A
  // length also in the extrapolation lengths above is scored with them, at every evaluation.
  std::vector<int64_t> eval_lens_final;
  int64_t eval_sequences = 256;  // sequences in each extrapolation length's set
  int64_t eval_batch = 128;
  uint64_t seed = 0;
  uint64_t eval_seed = 1000003;  // fixed, so every run is scored on the same held-out sets
  // Huang et al.'s protocol (docs/spec.md §3.8, §3.15): their code draws the training stream
  // after reseeding with 42, whatever the run's seed, and each seed's held-out sets after
  // seeding with it. train_seed >= 0 keys training's draws (sequences, offsets, positions,
  // dropout) apart from `seed`, which then keys the initialisation only; -1 = `seed`.
  int64_t train_seed = -1;
  bool eval_sets_per_seed = false;  // held-out sets drawn from (eval_seed, seed), one per run
  bool same_length = true;       // one length per training batch: no padding FLOPs
  bool check_numerics = false;   // scan every op output; name the first non-finite one
  std::string head;              // "" = the task's head; "cls" = a learned cls token
  int64_t pe_max_len = 0;        // learned table rows / rbf span; 0 = the training max_len (or N below)
  // Randomized positions (train/random_positions.h): training positions drawn from [0, N);
  // 0 = off. Evaluation uses 0..n-1 unless random_positions_eval.
  int64_t random_positions = 0;
  bool random_positions_eval = false;
  // Random offsets (train/random_positions.h, Huang et al. 2025): each training sequence of n
  // tokens at o..o+n-1, o uniform in [0, N - n]; evaluation at 0..n-1; 0 = off.
  int64_t random_offset = 0;
  // The learning-rate schedule after warmup (docs/spec.md §5.2): "cosine" or "linear" (to 0).
  std::string schedule = "cosine";
  // With until_learned: evaluations in a row at learned_at that count as learned (Huang et al.: 1).
  int64_t learned_evals = 2;
  // Sequences in the held-out training-range set (Huang et al.: 2000).
  int64_t eval_train_sequences = 512;

  // The seed of training's random draws: train_seed when set, else seed.
  uint64_t draws_seed() const { return train_seed >= 0 ? static_cast<uint64_t>(train_seed) : seed; }
  // The seed the held-out sets are drawn from (data/eval.h): eval_seed, or with
  // eval_sets_per_seed one of the run's own, mixed from eval_seed and seed.
  uint64_t held_out_seed() const {
    return eval_sets_per_seed ? mix64(eval_seed ^ mix64(seed ^ hash64("ordo/eval-sets-per-seed"))) : eval_seed;
  }
};

}  // namespace ordo
