// train/bench.h: timing full training steps (docs/spec.md §8).
//
// A benchmark configuration is a model size, a batch shape and an encoding; it is run on
// fixed-length `shift` batches (no padding), timing forward + backward + AdamW after a
// warm-up. FLOPs are counted analytically from the matmuls: forward 2mnk for every matmul
// (projections, q k^T, A v, the feed-forward, the head); backward twice the forward.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace ordo {

struct BenchConfig {
  std::string name;
  int64_t d_model, n_heads, n_layers, d_ff, batch, length;
  std::string encoding;
};

// tiny, base, long (docs/spec.md §8).
const std::vector<BenchConfig>& bench_configs();
const std::string& bench_task();  // shift
const BenchConfig& find_bench_config(const std::string& name);  // error lists the known

struct BenchResult {
  BenchConfig config;
  int threads = 0;
  int steps = 0;                  // timed steps
  double median_step_seconds = 0;
  double steps_per_second = 0;    // 1 / median
  double tokens_per_second = 0;
  double gflop_per_step = 0;      // analytic, forward + backward
  double gflops = 0;              // achieved, at the median step
  int rounds = 0;                 // timed rounds, each between two probes of the machine's peak
  double peak_gflops = 0;         // the median of the probes
  double share_of_peak = 0;       // the median over rounds of (round GFLOP/s / its peak)
  double share_min = 0, share_max = 0;  // the range of the rounds' shares
  double peak_rss_mb = 0;         // of the training (setup included, the probes' buffers not)
  bool rss_includes_probes = false;  // where the system refuses the peak RSS reset
};

double train_step_gflop(const BenchConfig& c);  // forward + backward matmul GFLOP

// A measurement of the machine's peak (GFLOP/s) that gives its memory back to the system.
using PeakProbe = std::function<double()>;

// Runs `warmup` untimed steps, then timed rounds until both `min_steps` steps and
// `min_seconds` of steps have passed. The machine's peak is probed before the first round
// and after each one, and a round's share of peak is its GFLOP/s (at its median step) over
// the better of the two probes around it: a shared machine's speed drifts by 1.5x within
// minutes, so the peak is read within seconds of the steps it is compared with. A round
// lasts `round_seconds` and at least 2 steps.
// With `profile`, per-op forward/backward times of the timed steps (medians over steps) are
// printed to stderr.
BenchResult run_bench(const BenchConfig& c, int warmup, int min_steps, double min_seconds, double round_seconds,
                      const PeakProbe& probe, bool profile = false);

// The process's peak resident set size (VmHWM), and a reset of it to the current RSS
// (Linux: /proc/self/clear_refs); the reset returns false where the system refuses it.
double peak_rss_mb();
bool reset_peak_rss();

}  // namespace ordo
