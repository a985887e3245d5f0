// experiments/analyze_command.cpp: `ordo analyze`, the attention of a trained model (docs/spec.md §6).
//
// analyze: loads a checkpoint (from `ordo train` or `ordo compare`), rebuilds its model
// (a Trainer from the checkpoint's settings, restored), takes one batch of --batch sequences
// of exactly --len tokens of the checkpoint's task (seed --data-seed), runs it forward with
// the attention maps kept, and writes into --out:
//   analysis.h5   attributes (checkpoint, task, encoding, length, eps, ...); tokens (B, L),
//                 lengths (B); per layer l: layer<l>/attention (B, H, L', L') (L' = L + 1 with a
//                 cls head), layer<l>/{entropy, span_mean, span_max, distance} (H) over the
//                 batch and layer<l>/per_sequence/<same> (B, H) (report/attention_stats.h)
//   layer<l>_attention.{dat,gp,png}   sequence 0, the heads side by side
// and prints the table (layer, head, entropy, span mean, span max, mean distance).
//
// inspect-pe: the L x L matrix S(t, u) of how an encoding relates positions t and u, for an
// untrained encoding (or the trained one of --checkpoint):
//   embed encodings (sinusoidal, learned, rbf, cyclic, fourier2d): S = PE(t) . PE(u), with PE
//     from the embed hook on a zero input;
//   rope: S = <R(t) q, R(u) q> with q all ones in every head, averaged over heads (the
//     positional factor of the logits: sum over pairs of 2 cos(w_i (t - u)));
//   alibi, t5: S = the logit bias (H, L, L), averaged over heads (or head --head); untrained
//     t5 shows its random N(0, 0.02) initialisation;
//   none: all zeros. An encoding with several hooks gets the sum of its parts.
// Written as similarity.{dat,gp,png} in --out.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "report/checkpoint_file.h"
#include "core/ops.h"
#include "experiments/cli.h"
#include "experiments/commands.h"
#include "report/atomic_file.h"
#include "report/attention_stats.h"
#include "train/checkpoint.h"
#include "report/hdf5.h"
#include "report/plots.h"
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

void write_stats(h5::Group& g, const std::vector<AttentionStats>& s, const std::vector<int64_t>& dims) {
  std::vector<double> entropy, span_mean, span_max, distance;
  for (const AttentionStats& a : s) {
    entropy.push_back(a.entropy);
    span_mean.push_back(a.span_mean);
    span_max.push_back(a.span_max);
    distance.push_back(a.distance);
  }
  g.write("entropy", entropy, dims);
  g.write("span_mean", span_mean, dims);
  g.write("span_max", span_max, dims);
  g.write("distance", distance, dims);
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
    Checkpoint ck = load_checkpoint(ck_path);
    TrainConfig cfg = from_settings(ck.config);
    if (p.has("task"))
      ORDO_CHECK(p.option("task") == cfg.task.name, "--task ", p.option("task"), ": the checkpoint was trained on '",
                 cfg.task.name, "' (its vocabulary and head fit only that task); accepted: ", cfg.task.name);
    trainer = std::make_unique<Trainer>(cfg);
    trainer->restore(ck);
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

  // One batch of exactly `len` tokens, forward with the attention maps kept.
  const Task& task = trainer->task();
  std::vector<Example> examples;
  for (int64_t i = 0; i < batch_size; ++i) examples.push_back(task.example(data_seed, static_cast<uint64_t>(i), len));
  const Batch batch = collate(examples, task.head());
  Tape tape;
  NoGradGuard guard(tape);
  ForwardOptions fo;
  fo.keep_attention = true;
  ForwardResult fr = trainer->model().forward(tape, batch.tokens, batch.lengths, fo);
  ORDO_CHECK(!fr.attention.empty(), "analyze: the model returned no attention maps");

  const TrainConfig& cfg = trainer->config();
  if (fs::exists(out) && !quiet) std::printf("replacing the analysis files in %s\n", out.c_str());
  fs::create_directories(out);
  std::vector<std::vector<AttentionStats>> per_layer;
  std::vector<PlotFiles> plots;
  const std::string h5_path = out + "/analysis.h5";
  atomic_write(h5_path, [&](const std::string& tmp) {
    h5::File f = h5::File::create(tmp);
    f.set_attr("format", "ordo-analysis");
    f.set_attr("checkpoint", ck_path);
    f.set_attr("task", cfg.task.name);
    f.set_attr("encoding", cfg.model.encoding);
    f.set_attr("length", len);
    f.set_attr("batch", batch_size);
    f.set_attr("data_seed", static_cast<int64_t>(data_seed));
    f.set_attr("eps", kSpanEps);
    f.set_attr("step", trainer->step());
    f.write("tokens", batch.tokens);
    f.write("lengths", batch.lengths);
    for (size_t l = 0; l < fr.attention.size(); ++l) {
      const Tensor& attn = tape.value(fr.attention[l]);  // (B, H, L', L')
      const int64_t offset = attn.dim(2) - batch.length();  // 1 with a cls token, else 0
      std::vector<int32_t> lengths = batch.lengths;
      for (int32_t& n : lengths) n += static_cast<int32_t>(offset);
      h5::Group g = f.require_group("layer" + std::to_string(l));
      g.set_attr("positions_offset", offset);
      g.write("attention", attn);
      per_layer.push_back(attention_stats(attn, lengths));
      write_stats(g, per_layer.back(), {attn.dim(1)});
      h5::Group ps = g.require_group("per_sequence");
      write_stats(ps, sequence_attention_stats(attn, lengths), {attn.dim(0), attn.dim(1)});

      // Heatmaps of sequence 0, heads side by side.
      const int64_t H = attn.dim(1), Lp = attn.dim(2), n = lengths[0];
      std::vector<Heatmap> panels;
      for (int64_t h = 0; h < H; ++h) {
        Heatmap m{"head " + std::to_string(h), n, n, {}};
        for (int64_t i = 0; i < n; ++i)
          for (int64_t j = 0; j < n; ++j) m.values.push_back(attn[((0 * H + h) * Lp + i) * Lp + j]);
        panels.push_back(std::move(m));
      }
      try {
        plots.push_back(write_heatmap_plot(out, "layer" + std::to_string(l) + "_attention",
                                           cfg.task.name + " / " + cfg.model.encoding + ": layer " + std::to_string(l) +
                                               " attention, sequence 0 (L = " + std::to_string(len) + ")",
                                           panels, "key position", "query position"));
      } catch (const Error& e) {
        std::fprintf(stderr, "ordo analyze: %s\n", e.what());
      }
    }
    f.close();
  });
  const RenderReport rendered = render_plots(plots);

  if (!quiet) {
    std::printf("%s / %s, step %lld, %lld sequences of length %lld (eps %.2f)\n\n", cfg.task.name.c_str(),
                cfg.model.encoding.c_str(), static_cast<long long>(trainer->step()),
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
    std::printf("wrote %s and %zu heatmap(s) (%d PNG) in %s\n", h5_path.c_str(), plots.size(), rendered.rendered,
                out.c_str());
  }
  if (!rendered.message().empty()) std::fprintf(stderr, "ordo analyze: %s\n", rendered.message().c_str());
  return 0;
}

CommandInfo command_info_analyze() {
  return {"analyze", "attention maps and statistics (entropy, span, distance) of a checkpoint", cmd_analyze};
}

}  // namespace ordo
