// experiments/bench_command.cpp: `ordo bench`, docs/spec.md §8.
//
// Each configuration runs in a fresh child process so its peak RSS is its own; the child
// alternates timed rounds of steps with probes of the machine's peak (train/bench.h).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <unistd.h>

#include <omp.h>

#include "core/gemm.h"
#include "core/machine.h"
#include "core/parallel.h"
#include "cluster/shared_cores.h"
#include "experiments/cli.h"
#include "experiments/commands.h"
#include "io/atomic_file.h"
#include "io/json_text.h"
#include "train/bench.h"
#include "train/version.h"

namespace ordo {
namespace {

const std::vector<cli::Option>& bench_options() {
  static const std::vector<cli::Option> opts = {
      {"configs", "configurations to run, comma-separated (tiny, base, long); with --encodings tiny,long", "tiny,base,long", false},
      {"encodings", "the per-encoding cost table instead: each entry's training step against none's, causal, in one process "
                    "(all = every encoding, rope:score-scale=log-length, rope:window=16 and rope+none; or a list of ENC, "
                    "E1+E2, ENC:setting=value)", "", false},
      {"json", "also write the results as JSON to this file (a regular file, replaced atomically)", "", false},
      {"min-seconds", "time each configuration for at least this long", "10", false},
      {"warmup", "untimed steps before timing", "3", false},
      {"profile", "print per-op forward/backward times of each configuration and how long threads wait at the ends of parallel loops (with --encodings: each entry's ops against none's)", "", true},
      {"child", "internal: run one measurement (a configuration or 'peak') and print it", "", false},
      {"case", "internal: with --child, the cost-table entry to measure against none", "", false},
  };
  return opts;
}

std::string json_line(const BenchResult& r) {
  std::ostringstream os;
  os << "{\"config\": \"" << r.config.name << "\", \"threads\": " << r.threads << ", \"steps\": " << r.steps
     << ", \"steps_per_s\": " << r.steps_per_second << ", \"tokens_per_s\": " << r.tokens_per_second
     << ", \"gflop_per_step\": " << r.gflop_per_step << ", \"gflops\": " << r.gflops
     << ", \"rounds\": " << r.rounds << ", \"machine_peak_gflops\": " << r.peak_gflops
     << ", \"share_of_peak\": " << r.share_of_peak << ", \"share_of_peak_min\": " << r.share_min
     << ", \"share_of_peak_max\": " << r.share_max << ", \"peak_rss_mb\": " << r.peak_rss_mb
     << ", \"rss_includes_peak_probes\": " << (r.rss_includes_probes ? "true" : "false") << "}";
  return os.str();
}

// --json: {"ordo_version", "threads", "machine", "<list>": [rows]}, written atomically (a
// reader sees the old file or the whole new one).
void write_json(const std::string& path, const char* list, const std::string& rows) {
  std::ostringstream out;
  out << "{\"ordo_version\": \"" << version() << "\", \"threads\": " << num_threads()
      << ", \"machine\": " << json_text(machine_description()) << ", \"" << list << "\": [\n"
      << rows << "\n]}\n";
  atomic_write(path, [&](const std::string& tmp) { write_file(tmp, out.str()); });
}

// Runs `ordo bench --child ...` (a fresh process: its peak RSS is its own, and no OpenMP
// state crosses a fork) and reads the one result line it prints.
// `bench_case`: a cost-table entry (checked by parse_bench_case: no quote or space in it).
std::vector<double> run_child(const std::string& what, int warmup, double min_seconds, bool profile,
                              const std::string& bench_case = "") {
  char cmd[768];
  std::snprintf(cmd, sizeof cmd, "/proc/%d/exe bench --child %s --warmup %d --min-seconds %.17g%s%s%s%s", getpid(),
                what.c_str(), warmup, min_seconds, profile ? " --profile" : "", bench_case.empty() ? "" : " --case '",
                bench_case.c_str(), bench_case.empty() ? "" : "'");
  std::FILE* pipe = popen(cmd, "r");
  ORDO_CHECK(pipe != nullptr, "bench: cannot start ", cmd);
  std::vector<double> values;
  char line[1024];
  while (std::fgets(line, sizeof line, pipe)) {
    if (std::strncmp(line, "result ", 7) != 0) continue;
    std::istringstream is(line + 7);
    double v;
    while (is >> v) values.push_back(v);
  }
  const int status = pclose(pipe);
  ORDO_CHECK(status == 0 && !values.empty(), "bench: ", what, " failed (exit status ", status, ")");
  return values;
}

// One timed round of steps between two probes of the machine's peak (see train/bench.h).
constexpr double kRoundSeconds = 1.0;
constexpr int kProbeSize = 2048, kProbeRepeats = 2;

BenchResult run_isolated(const BenchConfig& c, int warmup, double min_seconds, bool profile) {
  const std::vector<double> v = run_child(c.name, warmup, min_seconds, profile);
  ORDO_CHECK(v.size() == 14, "bench: malformed result from ", c.name);
  BenchResult r;
  r.config = c;
  r.threads = static_cast<int>(v[0]);
  r.steps = static_cast<int>(v[1]);
  r.median_step_seconds = v[2], r.steps_per_second = v[3], r.tokens_per_second = v[4];
  r.gflop_per_step = v[5], r.gflops = v[6], r.rounds = static_cast<int>(v[7]), r.peak_gflops = v[8];
  r.share_of_peak = v[9], r.share_min = v[10], r.share_max = v[11], r.peak_rss_mb = v[12];
  r.rss_includes_probes = v[13] != 0;
  return r;
}

// The child side: one measurement, printed as "result v1 v2 ...".
int child_main(const std::string& what, int warmup, double min_seconds, bool profile, const std::string& bench_case) {
  if (!bench_case.empty()) {
    const CostResult r =
        run_cost(find_bench_config(what), parse_bench_case(bench_case), warmup, min_seconds, kRoundSeconds, profile);
    std::printf("result %d %d %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", r.rounds, r.steps, r.none_seconds,
                r.case_seconds, r.ratio, r.ratio_min, r.ratio_max, r.none_step_mb, r.case_step_mb);
    return 0;
  }
  if (what == "peak") {
    std::printf("result %.17g\n", measure_sgemm_peak(kProbeSize, 5));
    return 0;
  }
  const PeakProbe probe = [] { return measure_sgemm_peak(kProbeSize, kProbeRepeats); };
  BenchResult r = run_bench(find_bench_config(what), warmup, 5, min_seconds, kRoundSeconds, probe, profile);
  std::printf("result %d %d %.17g %.17g %.17g %.17g %.17g %d %.17g %.17g %.17g %.17g %.17g %d\n", r.threads, r.steps,
              r.median_step_seconds, r.steps_per_second, r.tokens_per_second, r.gflop_per_step, r.gflops, r.rounds,
              r.peak_gflops, r.share_of_peak, r.share_min, r.share_max, r.peak_rss_mb, r.rss_includes_probes ? 1 : 0);
  return 0;
}

// The per-encoding cost table: one child process per (configuration, entry), alone.
int cost_table(const std::vector<BenchConfig>& configs, const std::vector<BenchCase>& cases, int warmup,
               double min_seconds, bool profile, const std::string& json) {
  std::printf("ordo %s bench --encodings, %d threads (OMP_NUM_THREADS)\n", version(), num_threads());
  std::printf("machine: %s\n", machine_description().c_str());
  std::printf("each entry's training step (causal, forward + backward + AdamW) against none's at the same shape, "
              "in one process, rounds of ~%.1f s each taking turns; x none = median over pairs of rounds (range); MB = "
              "a training step's tensors at their peak (activations, gradients, scratch)\n\n",
              kRoundSeconds / 2);
  std::printf("%-6s %-28s | %12s %12s %8s %13s %6s | %8s %8s\n", "config", "encoding", "none ms/step", "ms/step",
              "x none", "(range)", "pairs", "none MB", "MB");
  std::ostringstream rows;
  for (const BenchConfig& c : configs)
    for (const BenchCase& k : cases) {
      const std::vector<double> v = run_child(c.name, warmup, min_seconds, profile, k.label);
      ORDO_CHECK(v.size() == 9, "bench: malformed result from ", c.name, " ", k.label);
      std::printf("%-6s %-28s | %12.2f %12.2f %7.2fx %6.2f-%-6.2f %6d | %8.1f %8.1f\n", c.name.c_str(),
                  k.label.c_str(), 1e3 * v[2], 1e3 * v[3], v[4], v[5], v[6], static_cast<int>(v[0]), v[7], v[8]);
      std::fflush(stdout);
      rows << (rows.tellp() > 0 ? ",\n" : "") << "  {\"config\": \"" << c.name << "\", \"encoding\": \"" << k.label
           << "\", \"pairs\": " << v[0] << ", \"steps\": " << v[1] << ", \"none_step_seconds\": " << v[2]
           << ", \"step_seconds\": " << v[3] << ", \"ratio\": " << v[4] << ", \"ratio_min\": " << v[5]
           << ", \"ratio_max\": " << v[6] << ", \"none_step_mb\": " << v[7] << ", \"step_mb\": " << v[8] << "}";
    }
  if (!json.empty()) write_json(json, "costs", rows.str());
  return 0;
}

}  // namespace

int cmd_bench(const Args& args) {
  cli::Parsed p;
  std::vector<BenchConfig> configs;
  std::vector<BenchCase> cases;
  int warmup = 3;
  double min_seconds = 10;
  try {
    p = cli::parse(args, bench_options(), false);
    if (p.help) {
      std::printf("%s", cli::help_text("ordo bench [flags]",
                                       "Times full training steps (forward, backward, AdamW) on fixed-length shift "
                                       "batches for the docs/spec.md §8 configurations. Threads: OMP_NUM_THREADS.",
                                       bench_options(), false).c_str());
      return 0;
    }
    const bool costs = !p.option("encodings").empty();
    const std::string config_list = costs && !p.has("configs") ? "tiny,long" : p.option("configs");
    for (const std::string& name : split_list(config_list)) configs.push_back(find_bench_config(name));
    if (costs && p.option("encodings") != "all")
      for (const std::string& entry : split_list(p.option("encodings"))) cases.push_back(parse_bench_case(entry));
    if (costs && p.option("encodings") == "all") cases = default_bench_cases();
    if (!p.option("case").empty()) parse_bench_case(p.option("case"));
    if (!p.option("child").empty() && p.option("child") != "peak") find_bench_config(p.option("child"));
    ORDO_CHECK(!configs.empty(), "--configs: no configuration given; known: tiny, base, long");
    warmup = static_cast<int>(parse_int("warmup", p.option("warmup")));
    ORDO_CHECK(warmup >= 0, "--warmup must be >= 0, got ", warmup);
    min_seconds = parse_double("min-seconds", p.option("min-seconds"));
    ORDO_CHECK(min_seconds >= 0, "--min-seconds must be >= 0, got ", min_seconds);
  } catch (const Error& e) {
    throw InputError(e.what());
  }

  // A benchmark measures at OMP_NUM_THREADS, however many ordo processes run (its own
  // child processes among them): the core sharing of cluster/shared_cores.h stays out of it.
  omp_set_num_threads(shared_cores().limit);
  const bool profile = p.option("profile") == "true";
  if (!p.option("child").empty()) return child_main(p.option("child"), warmup, min_seconds, profile, p.option("case"));
  if (!cases.empty()) return cost_table(configs, cases, warmup, min_seconds, profile, p.option("json"));
  std::printf("ordo %s bench, %d threads (OMP_NUM_THREADS)\n", version(), num_threads());
  std::printf("machine: %s\n", machine_description().c_str());
  // A shared 2-core machine's speed drifts by 1.5x within minutes (one peak measurement read
  // 94 GFLOP/s where the next read 150), so a share against a peak taken at another moment
  // says little. Each configuration is timed in rounds of about a second, with the machine's
  // peak probed before and after each round in the same process; a round's share is taken
  // against the better of its two probes, and the table gives the median round's share and
  // the range over rounds.
  std::printf("machine peak: oneDNN sgemm %d^3, probed around every timed round of ~%.0f s; "
              "of peak = median over rounds (range)\n\n", kProbeSize, kRoundSeconds);
  std::printf("%-6s %4s %3s %6s %5s %6s %5s %8s | %9s %10s %8s %10s %8s %9s %9s\n", "config", "d", "H", "layers",
              "d_ff", "batch", "L", "encoding", "steps/s", "tokens/s", "GFLOP/s", "peak", "of peak", "(range)",
              "peak RSS");
  std::vector<BenchResult> results;
  bool any_rss_with_probes = false;
  for (const BenchConfig& c : configs) {
    BenchResult r = run_isolated(c, warmup, min_seconds, profile);
    std::printf("%-6s %4lld %3lld %6lld %5lld %6lld %5lld %8s | %9.2f %10.0f %8.1f %10.1f %7.0f%% %4.0f-%.0f%% %6.0f MB%s\n",
                c.name.c_str(), (long long)c.d_model, (long long)c.n_heads, (long long)c.n_layers,
                (long long)c.d_ff, (long long)c.batch, (long long)c.length, c.encoding.c_str(),
                r.steps_per_second, r.tokens_per_second, r.gflops, r.peak_gflops, 100 * r.share_of_peak,
                100 * r.share_min, 100 * r.share_max, r.peak_rss_mb, r.rss_includes_probes ? " *" : "");
    std::fflush(stdout);
    any_rss_with_probes = any_rss_with_probes || r.rss_includes_probes;
    results.push_back(r);
  }
  if (any_rss_with_probes)
    std::printf("* this system refuses the peak RSS reset (/proc/self/clear_refs): the figure includes the "
                "peak probe's %d MB\n", 3 * kProbeSize * kProbeSize * 4 >> 20);
  if (!p.option("json").empty()) {
    std::string rows;
    for (size_t i = 0; i < results.size(); ++i) rows += (i > 0 ? ",\n  " : "  ") + json_line(results[i]);
    write_json(p.option("json"), "results", rows);
  }
  return 0;
}

CommandInfo command_info_bench() {
  return {"bench", "time training steps on the docs/spec.md §8 configurations", cmd_bench};
}

}  // namespace ordo
