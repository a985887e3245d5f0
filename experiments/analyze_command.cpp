// experiments/analyze_command.cpp: `ordo analyze`, the attention of a trained model (docs/spec.md §6).
//
// Loads a checkpoint (from `ordo train` or `ordo compare`), rebuilds its model (a Trainer
// from the checkpoint's settings, restored), and runs report/attention_analysis.h on one
// batch of --batch sequences of exactly --len tokens of the checkpoint's task (seed
// --data-seed): analysis.h5 and the heatmaps go into --out, and the table (layer, head,
// entropy, span mean, span max, mean distance) is printed.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "experiments/cli.h"
#include "experiments/commands.h"
#include "report/attention_analysis.h"
#include "io/checkpoint_file.h"
#include "train/settings.h"
#include "train/trainer.h"

namespace ordo {
namespace fs = std::filesystem;

namespace {

const std::vector<cli::Option>& analyze_options() {
  static const std::vector<cli::Option> opts = {
      {"checkpoint", "checkpoint to analyse (checkpoint.h5 of ordo train, or DIR/checkpoints/... of compare)", "", false},
      {"task", "the task to draw the batch from (must be the checkpoint's own)", "the checkpoint's", false},
      {"len", "sequence length of the batch", "the training max-len", false},
      {"batch", "sequences in the batch", "8", false},
      {"data-seed", "seed of the batch", "7", false},
      {"out", "output directory", "<checkpoint without .h5>-analysis", false},
      {"quiet", "print nothing but errors", "", true},
  };
  return opts;
}

std::string fmt(double v, int decimals = 3) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace

int cmd_analyze(const Args& args) {
  cli::Parsed p;
  std::unique_ptr<Trainer> trainer;
  std::string ck_path, out;
  int64_t len = 0, batch_size = 0;
  uint64_t data_seed = 0;
  try {
    p = cli::parse(args, analyze_options(), false);
    if (p.help) {
      std::printf("%s", cli::help_text("ordo analyze --checkpoint CK [--task T] [--len L] [flags]",
                                       "Attention maps and their statistics (docs/spec.md §6: row entropy, effective "
                                       "span with eps 0.05, mean attention distance) per layer and head.",
                                       analyze_options(), false).c_str());
      return 0;
    }
    ck_path = p.option("checkpoint");
    ORDO_CHECK(!ck_path.empty(), "--checkpoint is required (a checkpoint written by ordo train or ordo compare)");
    // The checkpoint's own faults (a setting, a parameter's shape, its step) name the file.
    try {
      Checkpoint ck = load_checkpoint(ck_path);
      TrainConfig cfg = from_settings(ck.config);
      trainer = std::make_unique<Trainer>(cfg);
      trainer->restore(ck);
    } catch (const Error& e) {
      const std::string said = e.what();
      fail(said.rfind(ck_path, 0) == 0 ? said : "cannot use " + ck_path + ": " + said);
    }
    const TrainConfig& cfg = trainer->config();
    if (p.has("task"))
      ORDO_CHECK(p.option("task") == cfg.task.name, "--task ", p.option("task"), ": the checkpoint was trained on '",
                 cfg.task.name, "' (its vocabulary and head fit only that task); accepted: ", cfg.task.name);
    const Task& task = trainer->task();
    len = p.has("len") ? cli::positive(p, "len", 4096) : task.max_len();
    ORDO_CHECK(len >= task.min_valid_len(), "--len ", len, " is too short for task ", task.name(), ": at least ",
               task.min_valid_len());
    batch_size = cli::positive(p, "batch", 1024);
    const int64_t seed = parse_int("data-seed", p.option("data-seed"));
    ORDO_CHECK(seed >= 0, "--data-seed must be >= 0, got ", seed);
    data_seed = static_cast<uint64_t>(seed);
    if (p.has("out")) {
      out = p.option("out");
    } else {
      fs::path base(ck_path);
      out = (base.parent_path() / (base.stem().string() + "-analysis")).string();
    }
    std::error_code ec;
    ORDO_CHECK(!fs::exists(out, ec) || fs::is_directory(out, ec), "--out ", out, " exists and is not a directory");
  } catch (const Error& e) {
    throw InputError(e.what());
  }
  const bool quiet = p.option("quiet") == "true";

  if (fs::exists(out) && !quiet) std::printf("replacing the analysis files in %s\n", out.c_str());
  const AttentionAnalysis a = analyze_attention(*trainer, len, batch_size, data_seed, out, ck_path);
  const TrainConfig& cfg = trainer->config();
  const auto& per_layer = a.per_layer;
  const std::string& h5_path = a.h5_path;

  if (!quiet) {
    std::printf("%s / %s, step %lld, %lld sequences of length %lld (eps %.2f)\n\n", cfg.task.name.c_str(),
                encoding_label(cfg.model).c_str(), static_cast<long long>(trainer->step()),
                static_cast<long long>(batch_size), static_cast<long long>(len), kSpanEps);
    std::printf("| layer | head | entropy | span mean | span max | mean distance |\n");
    std::printf("| ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (size_t l = 0; l < per_layer.size(); ++l)
      for (size_t h = 0; h < per_layer[l].size(); ++h) {
        const AttentionStats& s = per_layer[l][h];
        std::printf("| %zu | %zu | %s | %s | %s | %s |\n", l, h, fmt(s.entropy).c_str(), fmt(s.span_mean, 2).c_str(),
                    fmt(s.span_max, 0).c_str(), fmt(s.distance, 2).c_str());
      }
    std::printf("\n(uniform attention over %lld keys has entropy %.3f)\n", static_cast<long long>(len),
                std::log(static_cast<double>(len)));
    std::printf("wrote %s and %d heatmap(s) (%d PNG) in %s\n", h5_path.c_str(), a.plots, a.plots_rendered,
                out.c_str());
  }
  for (const std::string& w : a.warnings) std::fprintf(stderr, "ordo analyze: %s\n", w.c_str());
  return 0;
}

CommandInfo command_info_analyze() {
  return {"analyze", "attention maps and statistics (entropy, span, distance) of a checkpoint", cmd_analyze};
}

}  // namespace ordo
