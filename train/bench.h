// train/bench.h: timing full training steps (docs/spec.md §8).
//
// A benchmark configuration is a model size, a batch shape and an encoding; it is run on
// fixed-length `shift` batches (no padding), timing forward + backward + AdamW after a
// warm-up. FLOPs are counted analytically from the matmuls: forward 2mnk for every matmul
// (projections, q k^T, A v, the feed-forward, the head); backward twice the forward.
#pragma once

#include <functional>
#include <map>
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

// ---- The per-encoding cost table (`ordo bench --encodings`, docs/spec.md §8) ----------------
//
// One row: a training step of a configuration's shape, causal, with one encoding (or one
// encoding and a setting), against `none` at the same shape in the same process. The two
// trainers take turns, a round of steps each, the first of each pair of rounds alternating, so
// a shared machine's drift reaches both sides of every ratio alike.
struct BenchCase {
  std::string label;                            // as given: "cope", "rope+none", "rope:window=16"
  std::map<std::string, std::string> settings;  // settings-table entries (train/settings.h)
};
// "ENC" (a registered encoding), "E1+E2" (one encoding per layer, --layer-encodings), either
// followed by ":key=value" settings ("rope:score-scale=log-length"). Errors name the text and
// the accepted forms; a setting's value is checked when its trainer is built.
BenchCase parse_bench_case(const std::string& text);
// Every registered encoding, then the default one (rope) with --score-scale log-length, with
// --window 16, and as E+baseline (rope+none).
std::vector<BenchCase> default_bench_cases();
// The encoding every entry is measured against: the one that declares cost_baseline (none).
const std::string& bench_baseline();

struct CostResult {
  int rounds = 0;                        // pairs of rounds
  int steps = 0;                         // timed steps of each side
  double none_seconds = 0;               // median step of `none`
  double case_seconds = 0;               // median step of the case
  double ratio = 0;                      // median over pairs of (case median / none median)
  double ratio_min = 0, ratio_max = 0;   // their range
  double none_step_mb = 0, case_step_mb = 0;  // a training step's tensors at their peak, above the
                                              // trainer at rest (the tensor pool's count, MB)
};
// Warm-up, then pairs of rounds (each >= 2 steps and round_seconds / 2) until >= 3 pairs and
// min_seconds of steps. With `profile`, also prints to stderr both sides' per-op times
// (forward + backward medians per step), the ops that differ most first: where the entry's
// extra time goes. Before the timing, one step of each side gives its peak tensor bytes.
CostResult run_cost(const BenchConfig& c, const BenchCase& k, int warmup, double min_seconds,
                    double round_seconds, bool profile = false);

// The process's peak resident set size (VmHWM), and a reset of it to the current RSS
// (Linux: /proc/self/clear_refs); the reset returns false where the system refuses it.
double peak_rss_mb();
bool reset_peak_rss();

}  // namespace ordo
