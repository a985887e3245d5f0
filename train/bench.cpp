#include "train/bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sys/resource.h>

#include "core/error.h"
#include "core/parallel.h"
#include "train/trainer.h"

namespace ordo {

const std::vector<BenchConfig>& bench_configs() {
  static const std::vector<BenchConfig> configs = {
      {"tiny", 64, 4, 2, 256, 64, 64, "rope"},
      {"base", 256, 8, 4, 1024, 32, 128, "rope"},
      {"long", 128, 4, 2, 512, 4, 1024, "alibi"},
  };
  return configs;
}

const BenchConfig& find_bench_config(const std::string& name) {
  std::string known;
  for (const BenchConfig& c : bench_configs()) {
    if (c.name == name) return c;
    known += (known.empty() ? "" : ", ") + c.name;
  }
  fail("unknown benchmark configuration '", name, "'; known: ", known);
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
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

BenchResult run_bench(const BenchConfig& c, int warmup, int min_steps, double min_seconds, bool profile) {
  TrainConfig cfg;
  cfg.task.name = "shift";
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
  std::vector<double> times;
  double total = 0;
  while (static_cast<int>(times.size()) < min_steps || total < min_seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    trainer.step_once();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    times.push_back(s);
    total += s;
  }
  if (profile) {
    double total_op = 0;
    for (const auto& [op, p] : trainer.tape().profile()) total_op += p.forward_seconds + p.backward_seconds;
    std::fprintf(stderr, "%s: per step, by op (forward + backward), %zu steps\n", c.name.c_str(), times.size());
    std::vector<std::pair<double, std::string>> rows;
    for (const auto& [op, p] : trainer.tape().profile())
      rows.emplace_back(p.forward_seconds + p.backward_seconds, op);
    std::sort(rows.rbegin(), rows.rend());
    for (const auto& [sec, op] : rows) {
      const auto& p = trainer.tape().profile().at(op);
      std::fprintf(stderr, "  %-16s %8.2f ms fwd %8.2f ms bwd  %5.1f%%  (%lld calls/step)\n", op.c_str(),
                   1e3 * p.forward_seconds / times.size(), 1e3 * p.backward_seconds / times.size(),
                   100 * sec / total_op, static_cast<long long>(p.calls / static_cast<int64_t>(times.size())));
    }
    std::fprintf(stderr, "  ops total %.2f ms of a %.2f ms step (mean)\n", 1e3 * total_op / times.size(),
                 1e3 * total / times.size());
  }
  std::sort(times.begin(), times.end());
  BenchResult r;
  r.config = c;
  r.threads = num_threads();
  r.steps = static_cast<int>(times.size());
  r.median_step_seconds = times[times.size() / 2];
  r.steps_per_second = 1.0 / r.median_step_seconds;
  r.tokens_per_second = r.steps_per_second * static_cast<double>(c.batch * c.length);
  r.gflop_per_step = train_step_gflop(c);
  r.gflops = r.gflop_per_step * r.steps_per_second;
  r.peak_rss_mb = peak_rss_mb();
  return r;
}

}  // namespace ordo
