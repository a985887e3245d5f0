// experiments/train_command.cpp: `ordo train`, one model on one task.
//
// Writes into --out: run.h5 (config attributes and /runs/<task>/<encoding>/seed<k>/ with
// the curves of docs/spec.md §7) and checkpoint.h5 (every --ckpt-every steps and at the
// end). Both are written atomically. --resume continues from checkpoint.h5 with the same
// bits as a run that never stopped.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <sstream>

#include "report/checkpoint_file.h"
#include "experiments/cli.h"
#include "experiments/commands.h"
#include "experiments/progress.h"
#include "report/summary.h"
#include "train/checkpoint.h"
#include "report/results.h"
#include "train/settings.h"
#include "train/trainer.h"

namespace ordo {
namespace fs = std::filesystem;

namespace {

const std::vector<cli::Option>& train_options() {
  static const std::vector<cli::Option> opts = {
      {"out", "output directory (run.h5, checkpoint.h5)", "runs/<task>-<encoding>-seed<seed>", false},
      {"resume", "continue the run in --out from its checkpoint.h5", "", true},
      {"force", "replace a finished or partial run already in --out", "", true},
      {"ckpt-every", "also write checkpoint.h5 every N steps (0 = only at the end)", "0", false},
      {"quiet", "print nothing but errors", "", true},
      {"config", "read settings from FILE: `key = value` lines, keys named as the flags without --, "
                 "# comments; flags given here override it", "", false},
  };
  return opts;
}

std::string eval_summary(const RunLog& log) {
  std::ostringstream os;
  os.precision(3);
  for (const auto& [len, points] : log.eval) {
    if (points.empty()) continue;
    if (len == 0) os << "acc ";
    else os << "@" << len << " ";
    os << std::fixed << points.back().acc << " ";
  }
  return os.str();
}

// --out must be a directory, or creatable as one: its nearest existing ancestor is a directory.
void check_output_directory(const std::string& out_dir) {
  ORDO_CHECK(!out_dir.empty(), "--out must not be empty");
  std::error_code ec;
  fs::path dir = fs::absolute(out_dir, ec);
  ORDO_CHECK(!ec, "--out ", out_dir, ": ", ec.message());
  if (fs::exists(dir, ec)) {
    ORDO_CHECK(fs::is_directory(dir, ec), "--out ", out_dir, " exists and is not a directory; name a directory");
    return;
  }
  fs::path parent = dir.parent_path();
  while (!parent.empty() && !fs::exists(parent, ec) && parent != parent.parent_path()) parent = parent.parent_path();
  ORDO_CHECK(fs::is_directory(parent, ec), "--out: cannot create ", out_dir, ": ", parent.string(),
             " is not a directory");
}

}  // namespace

int cmd_train(const Args& args) {
  cli::Parsed p;
  std::unique_ptr<Trainer> trainer;
  std::string out_dir;
  int64_t ckpt_every = 0;
  bool resume = false;
  try {
    p = cli::parse(args, train_options(), true, 0, "ordo train");
    if (p.help) {
      std::printf("%s", cli::help_text("ordo train [flags]",
                                       "Trains one encoder on one synthetic task, evaluating on the training "
                                       "lengths and on longer ones.",
                                       train_options(), true).c_str());
      return 0;
    }
    resume = p.option("resume") == "true";
    ORDO_CHECK(!resume || p.option("force") != "true",
               "--resume and --force contradict each other: --resume continues the run in --out, --force "
               "replaces it; pass one");
    ckpt_every = parse_int("ckpt-every", p.option("ckpt-every"));
    ORDO_CHECK(ckpt_every >= 0, "--ckpt-every must be >= 0, got ", ckpt_every);
    out_dir = p.has("out") ? p.option("out")
                           : "runs/" + p.config.task.name + "-" + p.config.model.encoding + "-seed" +
                                 std::to_string(p.config.seed);
    check_output_directory(out_dir);
    const std::string ck_path = out_dir + "/checkpoint.h5";
    std::unique_ptr<Checkpoint> ck;
    TrainConfig cfg = p.config;
    if (resume) {
      ORDO_CHECK(fs::exists(ck_path), "--resume: no checkpoint at ", ck_path);
      ck = std::make_unique<Checkpoint>(load_checkpoint(ck_path));
      // The checkpoint's settings, with any flag given now on top (a mismatch is refused).
      cfg = from_settings(ck->config);
      cfg.check_numerics = p.config.check_numerics;
      for (const auto& [name, value] : p.given)
        if (const Setting* s = find_setting(name)) s->set(cfg, value);
    } else if (p.option("force") != "true") {
      ORDO_CHECK(!fs::exists(out_dir + "/run.h5") && !fs::exists(ck_path), out_dir,
                 " already holds a run; pass --resume to continue it, --force to replace it, or another --out");
    }
    trainer = std::make_unique<Trainer>(cfg);
    if (ck) trainer->restore(*ck);
  } catch (const Error& e) {
    throw InputError(e.what());
  }

  fs::create_directories(out_dir);
  const TrainConfig& cfg = trainer->config();
  const bool quiet = p.option("quiet") == "true";
  Progress progress(quiet, 100);
  if (!quiet)
    progress.message("ordo train: task " + cfg.task.name + ", encoding " + cfg.model.encoding + ", " +
                     std::to_string(cfg.steps) + " steps -> " + out_dir +
                     (resume ? " (resumed at step " + std::to_string(trainer->step()) + ")" : ""));
  auto save_ck = [&]() { save_checkpoint(out_dir + "/checkpoint.h5", trainer->checkpoint()); };
  auto save_log = [&]() {
    RunRecord rec{cfg.task.name, cfg.model.encoding, cfg.seed, trainer->log(), to_settings(cfg)};
    write_results(out_dir + "/run.h5", {rec}, to_settings(cfg));
  };
  const int64_t first_step = trainer->step();  // s.seconds counts from here (a resume's start)
  try {
    trainer->run([&](const StepInfo& s) {
      char text[160];
      std::snprintf(text, sizeof text, "loss %.4f  %s %.1f steps/s", s.loss, eval_summary(*s.log).c_str(),
                    static_cast<double>(s.step + 1 - first_step) / std::max(1e-9, s.seconds));
      progress.update(s.step + 1, s.total, text, s.seconds);
      if (ckpt_every > 0 && (s.step + 1) % ckpt_every == 0 && s.step + 1 < s.total) {
        save_ck();
        save_log();
      }
      return true;
    });
  } catch (const Error& e) {
    progress.finish("");
    save_log();  // the curve up to the fault; the last good checkpoint stays as it was
    throw;
  }
  save_ck();
  save_log();
  progress.finish("done in " + format_duration(trainer->log().total_wall_seconds) + ": " +
                  eval_summary(trainer->log()) + "\n  " + out_dir + "/run.h5\n  " + out_dir + "/checkpoint.h5");
  return 0;
}

CommandInfo command_info_train() {
  return {"train", "train one model on one task and log its curves (HDF5)", cmd_train};
}

}  // namespace ordo
