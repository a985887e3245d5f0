#include "train/bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <sys/resource.h>

#include "core/error.h"
#include "core/parallel.h"
#include "core/strings.h"
#include "data/task.h"
#include "layers/posenc/encoding.h"
#include "train/trainer.h"

namespace ordo {

// The shapes; the encoding of each is declared by the encoding (EncodingInfo::benchmarks).
const std::vector<BenchConfig>& bench_configs() {
  static const std::vector<BenchConfig> configs = [] {
    std::vector<BenchConfig> c = {
        {"tiny", 64, 4, 2, 256, 64, 64, ""},
        {"base", 256, 8, 4, 1024, 32, 128, ""},
        {"long", 128, 4, 2, 512, 4, 1024, ""},
    };
    for (BenchConfig& config : c) {
      for (const EncodingInfo& e : encodings())
        if (std::find(e.benchmarks.begin(), e.benchmarks.end(), config.name) != e.benchmarks.end()) {
          ORDO_CHECK(config.encoding.empty(), "bench: configuration ", config.name, " is claimed by encodings ",
                     config.encoding, " and ", e.name);
          config.encoding = e.name;
        }
      ORDO_CHECK(!config.encoding.empty(), "bench: no encoding declares the configuration ", config.name);
    }
    return c;
  }();
  return configs;
}

// The task every configuration trains on (TaskInfo::benchmark_task).
const std::string& bench_task() {
  static const std::string name = [] {
    std::string found;
    for (const TaskInfo& t : tasks())
      if (t.benchmark_task) {
        ORDO_CHECK(found.empty(), "bench: tasks ", found, " and ", t.name, " both set benchmark_task");
        found = t.name;
      }
    ORDO_CHECK(!found.empty(), "bench: no task sets benchmark_task");
    return found;
  }();
  return name;
}

const BenchConfig& find_bench_config(const std::string& name) {
  std::vector<std::string> known;
  for (const BenchConfig& c : bench_configs()) {
    if (c.name == name) return c;
    known.push_back(c.name);
  }
  fail("unknown benchmark configuration '", name, "'; known: ", join(known));
}

double train_step_gflop(const BenchConfig& c) {
  const double N = static_cast<double>(c.batch * c.length), d = c.d_model, L = c.length;
  const double per_layer = 4 * 2 * N * d * d        // W_q, W_k, W_v, W_o
                           + 2 * 2 * N * L * d       // q k^T and A v over all heads
                           + 2 * 2 * N * d * c.d_ff;  // the feed-forward
  const double head = 2 * N * d * 2;                  // token head, 2 classes
  const double forward = c.n_layers * per_layer + head;
  return 3 * forward / 1e9;  // backward = 2 x forward
}

double peak_rss_mb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;  // "VmHWM:  1234 kB"
  rusage u{};  // no /proc: the high-water mark since the start
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

bool reset_peak_rss() {
  std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
  if (!f) return false;
  const bool written = std::fputs("5", f) >= 0;  // 5: reset the peak RSS to the current RSS
  return std::fclose(f) == 0 && written;
}

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

BenchResult run_bench(const BenchConfig& c, int warmup, int min_steps, double min_seconds, double round_seconds,
                      const PeakProbe& probe, bool profile) {
  TrainConfig cfg;
  cfg.task.name = bench_task();
  cfg.task.min_len = cfg.task.max_len = c.length;
  cfg.model.d_model = c.d_model;
  cfg.model.n_heads = c.n_heads;
  cfg.model.n_layers = c.n_layers;
  cfg.model.d_ff = c.d_ff;
  cfg.model.encoding = c.encoding;
  cfg.batch_size = c.batch;
  cfg.steps = 1 << 30;
  cfg.eval_lens = {c.length};  // the evaluation sets are built but never used here
  Trainer trainer(cfg);
  for (int i = 0; i < warmup; ++i) trainer.step_once();
  trainer.tape().set_profiling(profile);

  BenchResult r;
  r.config = c;
  r.gflop_per_step = train_step_gflop(c);
  // The probes' buffers are given back after each probe, and the peak RSS is reset to what
  // the training holds before its steps go on, so it is the training's own high-water mark.
  double rss = peak_rss_mb();  // setup and warm-up
  double peak_before = probe();
  const bool rss_resets = reset_peak_rss();
  std::vector<double> times, shares, peaks{peak_before};
  std::map<std::string, std::vector<double>> op_forward, op_backward;  // per step, with profile
  double total = 0;
  reset_parallel_stats();
  while (static_cast<int>(times.size()) < min_steps || total < min_seconds) {
    std::vector<double> round;
    double round_total = 0;
    while (round.size() < 2 || round_total < round_seconds) {
      if (profile) trainer.tape().reset_profile();
      set_parallel_profiling(profile);  // the steps' loops only, not the probes'
      const auto t0 = std::chrono::steady_clock::now();
      trainer.step_once();
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      set_parallel_profiling(false);
      round.push_back(s);
      round_total += s;
      if (profile)
        for (const auto& [op, t] : trainer.tape().profile()) {
          op_forward[op].push_back(t.forward_seconds);
          op_backward[op].push_back(t.backward_seconds);
        }
    }
    if (rss_resets) rss = std::max(rss, peak_rss_mb());
    const double peak_after = probe();
    if (rss_resets) reset_peak_rss();
    shares.push_back(r.gflop_per_step / median(round) / std::max(peak_before, peak_after));
    peaks.push_back(peak_after);
    peak_before = peak_after;
    times.insert(times.end(), round.begin(), round.end());
    total += round_total;
  }
  if (profile) {
    std::fprintf(stderr, "%s: per step, by op (forward + backward; medians over %zu steps)\n", c.name.c_str(),
                 times.size());
    std::vector<std::pair<double, std::string>> rows;
    double ops = 0;
    for (const auto& [op, f] : op_forward) {
      const double sec = median(f) + median(op_backward[op]);
      rows.emplace_back(sec, op);
      ops += sec;
    }
    std::sort(rows.rbegin(), rows.rend());
    for (const auto& [sec, op] : rows) {
      const auto& t = trainer.tape().profile().at(op);  // the last step's call count
      std::fprintf(stderr, "  %-16s %8.2f ms fwd %8.2f ms bwd  %5.1f%%  (%lld calls/step)\n", op.c_str(),
                   1e3 * median(op_forward[op]), 1e3 * median(op_backward[op]), 100 * sec / ops,
                   static_cast<long long>(t.calls));
    }
    std::fprintf(stderr, "  ops total %.2f ms of a %.2f ms step (medians)\n", 1e3 * ops, 1e3 * median(times));
    // How well the threads share the work: the time inside multithreaded loops, and the
    // part of it each thread spent finished, waiting for the slowest (static schedules, so
    // on a quiet machine only uneven iteration counts or costs make it large).
    const ParallelStats ps = parallel_stats();
    if (ps.loops > 0) {
      std::fprintf(stderr,
                   "  threads: %.0f multithreaded loops per step, %.0f%% of the step's time; threads waited "
                   "for the slowest at their ends %.1f%% of thread time\n",
                   static_cast<double>(ps.loops) / static_cast<double>(times.size()),
                   100 * ps.wall_seconds / total, 100 * ps.wait_seconds / ps.thread_seconds);
    }
  }
  r.threads = num_threads();
  r.steps = static_cast<int>(times.size());
  r.median_step_seconds = median(times);
  r.steps_per_second = 1.0 / r.median_step_seconds;
  r.tokens_per_second = r.steps_per_second * static_cast<double>(c.batch * c.length);
  r.gflops = r.gflop_per_step * r.steps_per_second;
  r.rounds = static_cast<int>(shares.size());
  r.peak_gflops = median(peaks);
  r.share_of_peak = median(shares);
  r.share_min = *std::min_element(shares.begin(), shares.end());
  r.share_max = *std::max_element(shares.begin(), shares.end());
  r.peak_rss_mb = rss_resets ? rss : peak_rss_mb();
  r.rss_includes_probes = !rss_resets;
  return r;
}

}  // namespace ordo
