// train/bench.h: timing full training steps (SPEC section 8).
//
// A benchmark configuration is a model size, a batch shape and an encoding; it is run on
// fixed-length `shift` batches (no padding), timing forward + backward + AdamW after a
// warm-up. FLOPs are counted analytically from the matmuls: forward 2mnk for every matmul
// (projections, q k^T, A v, the feed-forward, the head); backward twice the forward.
#pragma once

#include <string>
#include <vector>

namespace ordo {

struct BenchConfig {
  std::string name;
  int64_t d_model, n_heads, n_layers, d_ff, batch, length;
  std::string encoding;
};

// tiny, base, long (SPEC section 8).
const std::vector<BenchConfig>& bench_configs();
const BenchConfig& find_bench_config(const std::string& name);  // error lists the known

struct BenchResult {
  BenchConfig config;
  int threads = 0;
  int steps = 0;                  // timed steps
  double median_step_seconds = 0;
  double steps_per_second = 0;    // 1 / median
  double tokens_per_second = 0;
  double gflop_per_step = 0;      // analytic, forward + backward
  double gflops = 0;              // achieved
  double peak_rss_mb = 0;         // of the process, after this configuration
};

double train_step_gflop(const BenchConfig& c);  // forward + backward matmul GFLOP

// Runs `warmup` untimed steps, then times steps until both `min_steps` steps and
// `min_seconds` have passed.
// With `profile`, per-op forward/backward times of the timed steps are printed to stderr.
BenchResult run_bench(const BenchConfig& c, int warmup, int min_steps, double min_seconds, bool profile = false);

double peak_rss_mb();  // getrusage's ru_maxrss

}  // namespace ordo
