#include "train/bench.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <sys/resource.h>

#include "core/error.h"
#include "core/parallel.h"
#include "core/strings.h"
#include "data/task.h"
#include "layers/layer_encodings.h"
#include "layers/posenc/encoding.h"
#include "train/settings.h"
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


// A configuration's training run: its shape on fixed-length batches of the benchmark task.
TrainConfig bench_train_config(const BenchConfig& c) {
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
  return cfg;
}

// Per-op times of profiled steps (Tape::profile), one sample per step; medians on output.
struct OpTimes {
  std::map<std::string, std::vector<double>> forward, backward;
  std::map<std::string, int64_t> calls;  // the last step's

  void record(const Tape& tape) {
    for (const auto& [op, t] : tape.profile()) {
      forward[op].push_back(t.forward_seconds);
      backward[op].push_back(t.backward_seconds);
      calls[op] = t.calls;
    }
  }
  // Forward + backward median of one op (0 when the op never ran).
  double seconds(const std::string& op) const {
    const auto f = forward.find(op);
    return f == forward.end() ? 0 : median(f->second) + median(backward.at(op));
  }
  double total() const {
    double sum = 0;
    for (const auto& entry : forward) sum += seconds(entry.first);
    return sum;
  }
};

}  // namespace

BenchResult run_bench(const BenchConfig& c, int warmup, int min_steps, double min_seconds, double round_seconds,
                      const PeakProbe& probe, bool profile) {
  Trainer trainer(bench_train_config(c));
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
  OpTimes ops;  // with profile
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
      if (profile) ops.record(trainer.tape());
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
    for (const auto& entry : ops.forward) rows.emplace_back(ops.seconds(entry.first), entry.first);
    std::sort(rows.rbegin(), rows.rend());
    for (const auto& [sec, op] : rows)
      std::fprintf(stderr, "  %-16s %8.2f ms fwd %8.2f ms bwd  %5.1f%%  (%lld calls/step)\n", op.c_str(),
                   1e3 * median(ops.forward[op]), 1e3 * median(ops.backward[op]), 100 * sec / ops.total(),
                   static_cast<long long>(ops.calls[op]));
    std::fprintf(stderr, "  ops total %.2f ms of a %.2f ms step (medians)\n", 1e3 * ops.total(), 1e3 * median(times));
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

// ---- The per-encoding cost table ---------------------------------------------------------------

BenchCase parse_bench_case(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    fail("--encodings: bad entry '", text, "' (", why,
         "); accepted: ENC, E1+E2 (one encoding per layer), either followed by :setting=value ...");
  };
  for (char ch : text)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && std::string("_+:=.-").find(ch) == std::string::npos)
      bad(std::string("'") + ch + "' is not a letter, digit or one of _ + : = . -");
  BenchCase k{text, {}};
  std::vector<std::string> parts;
  size_t from = 0;
  for (size_t at; (at = text.find(':', from)) != std::string::npos; from = at + 1) parts.push_back(text.substr(from, at - from));
  parts.push_back(text.substr(from));
  const std::string& encoding = parts[0];
  if (encoding.empty()) bad("no encoding");
  try {  // an unknown name lists the known ones
    if (LayerEncodings::is_pattern(encoding)) {
      const LayerEncodings layers = LayerEncodings::parse(encoding, "--encodings");
      for (const std::string& name : layers.names()) encoding_info(name);
      k.settings["layer-encodings"] = encoding;
    } else {
      encoding_info(encoding);
      k.settings["encoding"] = encoding;
    }
  } catch (const Error& e) {
    bad(e.what());
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    const size_t eq = parts[i].find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == parts[i].size()) bad("'" + parts[i] + "' is not setting=value");
    const std::string key = parts[i].substr(0, eq);
    const Setting* setting = find_setting(key);
    if (!setting || setting->group != "model") bad("'" + key + "' is not a model setting (--help lists them)");
    if (key == "encoding" || key == "layer-encodings" || k.settings.count(key)) bad("'" + key + "' given twice");
    k.settings[key] = parts[i].substr(eq + 1);
  }
  return k;
}

std::vector<BenchCase> default_bench_cases() {
  std::vector<BenchCase> cases;
  for (const EncodingInfo& e : encodings()) cases.push_back(parse_bench_case(e.name));
  const std::string& rope = default_encoding();
  for (const std::string& extra : {rope + ":score-scale=log-length", rope + ":window=16", rope + "+" + bench_baseline()})
    cases.push_back(parse_bench_case(extra));
  return cases;
}

const std::string& bench_baseline() {
  static const std::string name = [] {
    std::string found;
    for (const EncodingInfo& e : encodings())
      if (e.cost_baseline) {
        ORDO_CHECK(found.empty(), "bench: encodings ", found, " and ", e.name, " both set cost_baseline");
        found = e.name;
      }
    ORDO_CHECK(!found.empty(), "bench: no encoding sets cost_baseline");
    return found;
  }();
  return name;
}

namespace {

// Steps of `trainer` for at least `seconds` and 2 steps; their times (and, given `ops`, each
// step's per-op times).
std::vector<double> timed_round(Trainer& trainer, double seconds, OpTimes* ops) {
  std::vector<double> times;
  double total = 0;
  while (times.size() < 2 || total < seconds) {
    if (ops) trainer.tape().reset_profile();
    const auto t0 = std::chrono::steady_clock::now();
    trainer.step_once();
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    total += times.back();
    if (ops) ops->record(trainer.tape());
  }
  return times;
}

// The bytes one training step of `trainer` holds at its peak above what was held before it
// (activations, gradients, the backward's scratch: the tensor pool's count, core/tensor.h).
double step_peak_mb(Trainer& trainer) {
  const int64_t before = pool_stats().bytes_in_use;
  reset_pool_peak();
  trainer.step_once();
  return static_cast<double>(pool_stats().peak_bytes_in_use - before) / (1 << 20);
}

// The two sides' per-op medians, the ops that differ most first (to stderr).
void print_cost_profile(const BenchCase& k, const std::string& baseline, const OpTimes& base, const OpTimes& other,
                        double base_step, double other_step) {
  std::map<std::string, bool> names;
  for (const auto& entry : base.forward) names[entry.first] = true;
  for (const auto& entry : other.forward) names[entry.first] = true;
  std::vector<std::pair<double, std::string>> rows;
  for (const auto& entry : names) rows.emplace_back(other.seconds(entry.first) - base.seconds(entry.first), entry.first);
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return std::fabs(a.first) > std::fabs(b.first); });
  std::fprintf(stderr, "%s against %s: per step, by op (forward + backward, medians), largest difference first\n",
               k.label.c_str(), baseline.c_str());
  std::fprintf(stderr, "  %-32s %12s %12s %12s\n", "op", (baseline + " ms").c_str(), "entry ms", "difference");
  for (const auto& [diff, op] : rows)
    if (std::fabs(diff) >= 5e-5)
      std::fprintf(stderr, "  %-32s %12.2f %12.2f %+12.2f\n", op.c_str(), 1e3 * base.seconds(op), 1e3 * other.seconds(op),
                   1e3 * diff);
  std::fprintf(stderr, "  %-32s %12.2f %12.2f %+12.2f\n", "ops total", 1e3 * base.total(), 1e3 * other.total(),
               1e3 * (other.total() - base.total()));
  std::fprintf(stderr, "  %-32s %12.2f %12.2f %+12.2f\n", "step", 1e3 * base_step, 1e3 * other_step,
               1e3 * (other_step - base_step));
}

}  // namespace

CostResult run_cost(const BenchConfig& c, const BenchCase& k, int warmup, double min_seconds, double round_seconds,
                    bool profile) {
  TrainConfig base = bench_train_config(c);
  base.model.causal = true;  // every encoding is defined causally (some only so): one setting for all rows
  base.model.encoding = bench_baseline();
  TrainConfig trial = base;
  for (const auto& [key, value] : k.settings) find_setting(key)->set(trial, value);
  Trainer none(base), other(trial);
  // At least one step before the measurements: the first also allocates what every later step
  // reuses (the optimizer's state).
  for (int i = 0; i < std::max(warmup, 1); ++i) none.step_once(), other.step_once();
  CostResult r;
  r.none_step_mb = step_peak_mb(none);
  r.case_step_mb = step_peak_mb(other);
  none.tape().set_profiling(profile);
  other.tape().set_profiling(profile);
  OpTimes none_ops, case_ops;
  std::vector<double> none_times, case_times, ratios;
  double total = 0;
  while (ratios.size() < 3 || total < min_seconds) {
    const bool none_first = ratios.size() % 2 == 0;
    std::vector<double> a, b;
    if (none_first) a = timed_round(none, round_seconds / 2, profile ? &none_ops : nullptr);
    b = timed_round(other, round_seconds / 2, profile ? &case_ops : nullptr);
    if (!none_first) a = timed_round(none, round_seconds / 2, profile ? &none_ops : nullptr);
    ratios.push_back(median(b) / median(a));
    for (double t : a) total += t;
    for (double t : b) total += t;
    none_times.insert(none_times.end(), a.begin(), a.end());
    case_times.insert(case_times.end(), b.begin(), b.end());
  }
  r.rounds = static_cast<int>(ratios.size());
  r.steps = static_cast<int>(std::min(none_times.size(), case_times.size()));
  r.none_seconds = median(none_times);
  r.case_seconds = median(case_times);
  r.ratio = median(ratios);
  r.ratio_min = *std::min_element(ratios.begin(), ratios.end());
  r.ratio_max = *std::max_element(ratios.begin(), ratios.end());
  if (profile) print_cost_profile(k, bench_baseline(), none_ops, case_ops, r.none_seconds, r.case_seconds);
  return r;
}

}  // namespace ordo
