// experiments/evaluate_command.cpp: `ordo evaluate`, a checkpoint scored on a held-out set of
// any seed (docs/spec.md §3.8).
//
// A run is scored on held-out sets drawn from --eval-seed, the same for every run, and a
// checkpoint refuses to resume with another. Under an all-or-nothing rule (--learned-at 1.0 on
// 2,000 sequences, Huang et al.'s protocol, whose sets are drawn per seed) a fixed set's few
// hard sequences can fail every seed together; scoring the same weights on other sets tells.
// Loads the checkpoint, rebuilds its model (a Trainer from the checkpoint's settings,
// restored), draws the set of --len (0: the training range) with --sequences sequences from
// --eval-seed exactly as a run draws its own, and prints the accuracy, the exact-match share
// and the loss. With the run's own --eval-seed and sequence count, the numbers are the run's
// last logged evaluation of that set. A run with --eval-sets-per-seed draws its sets from
// --eval-seed and its --seed; so does this command, --eval-seed N giving the set that run would
// have drawn with N, unless --sets-per-seed says otherwise (a per-seed run on the shared set, or
// the reverse).
#include <cstdio>
#include <memory>

#include "data/eval.h"
#include "experiments/cli.h"
#include "experiments/commands.h"
#include "io/checkpoint_file.h"
#include "train/settings.h"
#include "train/trainer.h"

namespace ordo {

namespace {

const std::vector<cli::Option>& evaluate_options() {
  static const std::vector<cli::Option> opts = {
      {"checkpoint", "checkpoint to score (checkpoint.h5 of ordo train, or DIR/checkpoints/... of compare)", "", false},
      {"eval-seed", "seed of the held-out set", "the checkpoint's", false},
      {"len", "length of the set's sequences (0 = the training range, lengths drawn as in training)", "0", false},
      {"sequences", "sequences in the set", "the checkpoint's --eval-train-sequences or --eval-sequences", false},
      {"sets-per-seed", "true: the set drawn from --eval-seed and the run's --seed (as --eval-sets-per-seed); false: "
                        "from --eval-seed alone (one set for every run)", "the run's rule", false},
  };
  return opts;
}

}  // namespace

int cmd_evaluate(const Args& args) {
  cli::Parsed p;
  std::unique_ptr<Trainer> trainer;
  std::string ck_path;
  uint64_t seed = 0;
  int64_t len = 0, sequences = 0;
  bool per_seed = false;
  try {
    p = cli::parse(args, evaluate_options(), false);
    if (p.help) {
      std::printf("%s", cli::help_text("ordo evaluate --checkpoint CK [--eval-seed N] [--len L] [--sequences K] "
                                       "[--sets-per-seed true|false]",
                                       "A checkpoint's model scored on a held-out set of any seed (docs/spec.md §3.8): "
                                       "accuracy, exact match and loss.",
                                       evaluate_options(), false).c_str());
      return 0;
    }
    ck_path = p.option("checkpoint");
    ORDO_CHECK(!ck_path.empty(), "--checkpoint is required (a checkpoint written by ordo train or ordo compare)");
    try {
      Checkpoint ck = load_checkpoint(ck_path);
      trainer = std::make_unique<Trainer>(from_settings(ck.config));
      trainer->restore(ck);
    } catch (const Error& e) {
      const std::string said = e.what();
      fail(said.rfind(ck_path, 0) == 0 ? said : "cannot use " + ck_path + ": " + said);
    }
    const TrainConfig& cfg = trainer->config();
    if (p.has("eval-seed")) {
      const int64_t s = parse_int("eval-seed", p.option("eval-seed"));
      ORDO_CHECK(s >= 0, "--eval-seed must be >= 0, got ", s);
      seed = static_cast<uint64_t>(s);
    } else {
      seed = cfg.eval_seed;
    }
    per_seed = cfg.eval_sets_per_seed;
    if (p.has("sets-per-seed")) {
      const std::string v = p.option("sets-per-seed");
      ORDO_CHECK(v == "true" || v == "false", "--sets-per-seed expects true or false, got '", v, "'");
      per_seed = v == "true";
    }
    const int64_t l = parse_int("len", p.option("len"));
    const Task& task = trainer->task();
    ORDO_CHECK(l == 0 || (l >= task.min_valid_len() && l <= 1 << 20), "--len ", l, ": 0 (the training range) or a ",
               "length of at least ", task.min_valid_len(), " for task ", task.name());
    len = l;
    sequences = p.has("sequences") ? cli::positive(p, "sequences", 1 << 24)
                : len == 0        ? cfg.eval_train_sequences
                                  : cfg.eval_sequences;
  } catch (const Error& e) {
    throw InputError(e.what());
  }
  const TrainConfig& cfg = trainer->config();
  TrainConfig drawn = cfg;
  drawn.eval_seed = seed, drawn.eval_sets_per_seed = per_seed;
  const EvalSet set = make_eval_set(trainer->task(), drawn.held_out_seed(), len, cfg.eval_batch, sequences);
  const EvalResult r = trainer->evaluate(set, drawn.held_out_seed());
  std::printf("%s / %s, step %lld, eval seed %llu%s, %s, %lld sequences: accuracy %.4f, exact %.4f (%lld of %lld "
              "sequences wrong), loss %.4f\n",
              cfg.task.name.c_str(), encoding_label(cfg.model).c_str(), static_cast<long long>(trainer->step()),
              static_cast<unsigned long long>(seed),
              per_seed ? (" with seed " + std::to_string(cfg.seed) + " (sets per seed)").c_str() : "",
              len == 0 ? "the training range" : ("length " + std::to_string(len)).c_str(),
              static_cast<long long>(r.counts.sequences), r.counts.accuracy(), r.counts.exact_match(),
              static_cast<long long>(r.counts.sequences - r.counts.exact), static_cast<long long>(r.counts.sequences),
              r.counts.mean_loss());
  return 0;
}

CommandInfo command_info_evaluate() {
  return {"evaluate", "a checkpoint's accuracy on a held-out set of any seed", cmd_evaluate};
}

}  // namespace ordo
