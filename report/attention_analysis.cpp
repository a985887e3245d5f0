// report/attention_analysis.cpp: see report/attention_analysis.h.
#include "report/attention_analysis.h"

#include <filesystem>

#include "io/atomic_file.h"
#include "io/hdf5.h"
#include "layers/model.h"
#include "report/plots.h"

namespace ordo {
namespace fs = std::filesystem;

namespace {

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

AttentionAnalysis analyze_attention(Trainer& trainer, int64_t len, int64_t batch_size, uint64_t data_seed,
                                    const std::string& out, const std::string& source) {
  ORDO_CHECK(len >= trainer.task().min_valid_len(), "analyze: length ", len, " is too short for task ",
             trainer.task().name(), ": at least ", trainer.task().min_valid_len());
  ORDO_CHECK(batch_size >= 1, "analyze: batch_size must be >= 1, got ", batch_size);
  // One batch of exactly `len` tokens, forward with the attention maps kept.
  const Task& task = trainer.task();
  std::vector<Example> examples;
  for (int64_t i = 0; i < batch_size; ++i) examples.push_back(task.example(data_seed, static_cast<uint64_t>(i), len));
  const Batch batch = collate(examples, task.head());
  Tape tape;
  NoGradGuard guard(tape);
  ForwardOptions fo;
  fo.keep_attention = true;
  ForwardResult fr = trainer.model().forward(tape, batch.tokens, batch.lengths, fo);
  ORDO_CHECK(!fr.attention.empty(), "analyze: the model returned no attention maps");

  const TrainConfig& cfg = trainer.config();
  fs::create_directories(out);
  AttentionAnalysis result;
  result.h5_path = out + "/analysis.h5";
  std::vector<PlotFiles> plots;
  atomic_write(result.h5_path, [&](const std::string& tmp) {
    h5::File f = h5::File::create(tmp);
    f.set_attr("format", "ordo-analysis");
    f.set_attr("checkpoint", source);
    f.set_attr("task", cfg.task.name);
    f.set_attr("encoding", encoding_label(cfg.model));
    f.set_attr("length", len);
    f.set_attr("batch", batch_size);
    f.set_attr("data_seed", static_cast<int64_t>(data_seed));
    f.set_attr("eps", kSpanEps);
    f.set_attr("step", trainer.step());
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
      result.per_layer.push_back(attention_stats(attn, lengths));
      write_stats(g, result.per_layer.back(), {attn.dim(1)});
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
                                           cfg.task.name + " / " + encoding_label(cfg.model) + ": layer " + std::to_string(l) +
                                               " attention, sequence 0 (L = " + std::to_string(len) + ")",
                                           panels, "key position", "query position"));
      } catch (const Error& e) {
        result.warnings.push_back(e.what());
      }
    }
    f.close();
  });
  const RenderReport rendered = render_plots(plots);
  result.plots = static_cast<int>(plots.size());
  result.plots_rendered = rendered.rendered;
  if (!rendered.message().empty()) result.warnings.push_back(rendered.message());
  return result;
}

}  // namespace ordo
