// experiments/inspect_pe_command.cpp: `ordo inspect-pe`, an encoding's position-similarity
// matrix S(t, u) (report/position_similarity.h) as a heatmap, for a fresh encoding or the
// trained one of a checkpoint:
//   embed encodings (sinusoidal, learned, rbf, cyclic, fourier2d): S = PE(t) . PE(u);
//   rope: S = <R(t) q, R(u) q> with q all ones in every head, averaged over heads (the
//     positional factor of the logits: sum over pairs of 2 cos(w_i (t - u)));
//   alibi, t5: S = the logit bias, averaged over heads (or head --head); an untrained t5
//     shows its random N(0, 0.02) initialisation;
//   kerple, fire: the logit bias, like alibi and t5; xpos: like rope, with its decay (its
//     rotated query against its rotated key); pope: its polar query against its key;
//   cope: its layer-0 contextual term at uniform content (q = k = ones);
//   none: all zeros. An encoding with several hooks gets the sum of its parts.
// Written as similarity.{dat,gp,png} in --out.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "experiments/cli.h"
#include "experiments/commands.h"
#include "layers/posenc/encoding.h"
#include "io/checkpoint_file.h"
#include "report/plots.h"
#include "report/position_similarity.h"
#include "train/settings.h"
#include "train/trainer.h"

namespace ordo {
namespace fs = std::filesystem;

namespace {

// The subcommand's own flags, then every encoding's options (EncodingInfo::options).
const std::vector<cli::Option>& inspect_options() {
  static const std::vector<cli::Option> opts = [] {
    std::vector<cli::Option> o = {
        {"encoding", "the encoding E, as with ordo train (or name it first: ordo inspect-pe E)", "", false},
        {"len", "sequence length L (the matrix is L x L)", "64", false},
        {"d", "model width d", "64", false},
        {"heads", "attention heads H", "4", false},
        {"head", "encodings with per-head terms (rotate, bias): show this head only (-1 = mean over heads)", "-1",
         false},
        {"checkpoint", "show the trained encoding of this checkpoint (then E, --d, --heads and its options come "
                       "from it)", "", false},
        {"out", "output directory", "pe-<E>-L<len>-d<d>", false},
        {"quiet", "print nothing but errors", "", true},
    };
    const Options defaults = encoding_options();
    for (const EncodingInfo& e : encodings())
      for (const OptionSpec& spec : e.options) {
        auto shared = std::find_if(o.begin(), o.end(), [&](const cli::Option& x) { return x.name == spec.name; });
        if (shared != o.end()) {  // declared by several encodings: one flag, each one's help
          shared->help += "; " + e.name + ": " + spec.help;
          continue;
        }
        o.push_back({spec.name, e.name + ": " + spec.help, defaults.values().at(spec.name),
                     spec.type == OptionType::Bool});
      }
    return o;
  }();
  return opts;
}

int run(const Args& args) {
  cli::Parsed p;
  std::unique_ptr<Trainer> trainer;         // --checkpoint: owns the trained encoding
  std::unique_ptr<PositionalEncoding> own;  // otherwise: a fresh one
  PositionalEncoding* enc = nullptr;
  std::string name, out;
  int64_t L = 0, D = 0, H = 0, head = -1;
  try {
    p = cli::parse(args, inspect_options(), false, 1);
    if (p.help) {
      std::printf("%s", cli::help_text("ordo inspect-pe --encoding E --len L --d D [flags]",
                                       "The position-similarity matrix of encoding E as a heatmap: PE(t).PE(u) for "
                                       "embed encodings, the positional part of the logits for rope, alibi and t5.",
                                       inspect_options(), false).c_str());
      return 0;
    }
    // The encoding: --encoding E, like `ordo train`, or E first; both must agree.
    std::string chosen = p.option("encoding");
    if (!p.positional.empty()) {
      ORDO_CHECK(chosen.empty() || chosen == p.positional[0], "two encodings named: ", p.positional[0],
                 " and --encoding ", chosen, "; name one");
      chosen = p.positional[0];
    }
    L = cli::positive(p, "len", 2048);
    head = parse_int("head", p.option("head"));
    if (!p.option("checkpoint").empty()) {
      Checkpoint ck = load_checkpoint(p.option("checkpoint"));
      trainer = std::make_unique<Trainer>(from_settings(ck.config));
      ORDO_CHECK(trainer->config().model.layer_encodings.empty(), "the checkpoint has one encoding per layer (",
                 encoding_label(trainer->config().model), "); inspect-pe draws a model's one encoding: inspect each "
                 "part fresh (ordo inspect-pe --encoding E), or its attention with ordo analyze");
      trainer->restore(ck);
      enc = &trainer->model().encoding();
      name = trainer->config().model.encoding;
      ORDO_CHECK(chosen.empty() || chosen == name, "the checkpoint's encoding is ", name, ", not ", chosen);
      D = trainer->config().model.d_model;
      H = trainer->config().model.n_heads;
    } else {
      ORDO_CHECK(!chosen.empty(), "name the encoding: ordo inspect-pe --encoding E --len L --d D; known: ",
                 encoding_names());
      name = chosen;
      D = cli::positive(p, "d", 4096);
      H = cli::positive(p, "heads", 256);
      ORDO_CHECK(D % H == 0, "--heads ", H, " must divide --d ", D);
      EncodingConfig ec;
      ec.d_model = D;
      ec.n_heads = H;
      ec.max_len = L;
      ec.causal = encoding_info(name).causal_only;  // e.g. xpos: its causal form
      for (const OptionSpec& spec : encoding_info(name).options) ec.options.set(spec.name, p.option(spec.name));
      if (encoding_info(name).check) encoding_info(name).check(ec.options);
      own = make_encoding(name, ec);
      enc = own.get();
    }
    ORDO_CHECK(head >= -1 && head < H, "--head must be -1 (mean) or in [0, ", H, "), got ", head);
    out = p.has("out") ? p.option("out")
                       : "pe-" + name + "-L" + std::to_string(L) + "-d" + std::to_string(D);
    std::error_code ec;
    ORDO_CHECK(!fs::exists(out, ec) || fs::is_directory(out, ec), "--out ", out, " exists and is not a directory");
  } catch (const Error& e) {
    throw InputError(e.what());
  }
  const bool quiet = p.option("quiet") == "true";

  const PositionSimilarity sim = position_similarity(*enc, L, D, H, head);
  const std::vector<double>& S = sim.values;
  const std::string& what = sim.what;
  const bool untrained_table = !trainer && !enc->parameters().empty();

  fs::create_directories(out);
  PlotFiles plot = write_heatmap_plot(out, "similarity",
                                      name + ": " + what + " (L = " + std::to_string(L) + ", d = " +
                                          std::to_string(D) + (trainer ? ", trained" : "") + ")",
                                      {Heatmap{name, L, L, S}}, "position u", "position t", true);
  const RenderReport rendered = render_plots({plot});
  if (!quiet) {
    std::printf("%s: S(t, u) = %s\n", name.c_str(), what.c_str());
    if (untrained_table)
      std::printf("note: %s has learned parameters; untrained it shows their random initialisation "
                  "(pass --checkpoint to see a trained one)\n", name.c_str());
    std::printf("S(0, 0) = %.4f  S(0, 1) = %.4f  S(0, L/2) = %.4f  S(0, L-1) = %.4f\n", S[0], L > 1 ? S[1] : S[0],
                S[L / 2], S[L - 1]);
    std::printf("wrote %s, %s%s\n", plot.dat().c_str(), plot.gp().c_str(),
                rendered.rendered ? (", " + plot.png() + ", " + plot.svg()).c_str() : "");
  }
  if (!rendered.message().empty()) std::fprintf(stderr, "ordo inspect-pe: %s\n", rendered.message().c_str());
  return 0;
}

}  // namespace

CommandInfo command_info_inspect_pe() {
  return {"inspect-pe", "an encoding's position-similarity matrix as a heatmap", run};
}

}  // namespace ordo
