#include "train/settings.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include <set>

#include "core/strings.h"
#include "data/task.h"
#include "layers/model.h"
#include "layers/posenc/encoding.h"

namespace ordo {

namespace {

// The encodings --random-offset accepts, for its error message: "none, learned, rope, ...".
std::string offset_encodings() {
  std::string out;
  for (const EncodingInfo& e : encodings())
    if (e.random_offset != RandomOffset::refused) out += (out.empty() ? "" : ", ") + e.name;
  return out;
}

std::string num(double v) { return format_real(v); }

// Builders for the table: an int64, double, string or bool field of TrainConfig.
template <class Get>
Setting int_setting(const char* name, const char* group, const char* help, Get field) {
  return Setting{name, group, help, false, true,
                 [field](const TrainConfig& c) { return std::to_string(field(const_cast<TrainConfig&>(c))); },
                 [field, name](TrainConfig& c, const std::string& s) { field(c) = parse_int(name, s); }};
}
template <class Get>
Setting uint_setting(const char* name, const char* group, const char* help, Get field) {
  return Setting{name, group, help, false, true,
                 [field](const TrainConfig& c) { return std::to_string(field(const_cast<TrainConfig&>(c))); },
                 [field, name](TrainConfig& c, const std::string& s) {
                   const int64_t v = parse_int(name, s);
                   ORDO_CHECK(v >= 0, "--", name, " expects a non-negative whole number, got '", s, "'");
                   field(c) = static_cast<uint64_t>(v);
                 }};
}
template <class Get>
Setting real_setting(const char* name, const char* group, const char* help, Get field) {
  return Setting{name, group, help, false, true,
                 [field](const TrainConfig& c) { return num(field(const_cast<TrainConfig&>(c))); },
                 [field, name](TrainConfig& c, const std::string& s) { field(c) = parse_double(name, s); }};
}
template <class Get>
Setting text_setting(const char* name, const char* group, const char* help, Get field) {
  return Setting{name, group, help, false, true,
                 [field](const TrainConfig& c) { return field(const_cast<TrainConfig&>(c)); },
                 [field](TrainConfig& c, const std::string& s) { field(c) = s; }};
}
template <class Get>
Setting bool_setting(const char* name, const char* group, const char* help, Get field, bool results = true) {
  return Setting{name, group, help, true, results,
                 [field](const TrainConfig& c) { return std::string(field(const_cast<TrainConfig&>(c)) ? "true" : "false"); },
                 [field, name](TrainConfig& c, const std::string& s) { field(c) = parse_bool(name, s); }};
}

// One setting per declared option of a task or an encoding. An option several parts declare
// (e.g. --vocab) is one setting, its help naming each part.
Setting option_setting(const OptionSpec& spec, const char* group, const std::string& help,
                       Options& (*values)(TrainConfig&)) {
  const std::string name = spec.name;
  return Setting{name, group, help, spec.type == OptionType::Bool, true,
                 [values, name](const TrainConfig& c) { return values(const_cast<TrainConfig&>(c)).values().at(name); },
                 [values, name](TrainConfig& c, const std::string& s) { values(c).set(name, s); }};
}

template <class Info>
void add_option_settings(std::vector<Setting>& table, const std::vector<Info>& parts, const char* group,
                         Options& (*values)(TrainConfig&)) {
  std::vector<const OptionSpec*> specs;  // first declaration of each name, in registry order
  // Per name, each distinct help text with the parts that declare it: "copy, reverse: ...".
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> help;
  for (const Info& part : parts)
    for (const OptionSpec& o : part.options) {
      if (!help.count(o.name)) specs.push_back(&o);
      auto& texts = help[o.name];
      auto same = std::find_if(texts.begin(), texts.end(), [&](const auto& t) { return t.second == o.help; });
      if (same == texts.end())
        texts.push_back({part.name, o.help});
      else
        same->first += ", " + part.name;
    }
  for (const OptionSpec* o : specs) {
    std::string h;
    for (const auto& [names, text] : help[o->name]) h += (h.empty() ? "" : "; ") + names + ": " + text;
    table.push_back(option_setting(*o, group, h, values));
  }
}

std::string list_help(const char* what, const std::string& names) { return std::string(what) + ": " + names; }

std::string length_help(bool min) {
  // A length counts tokens, or the input symbols for the Chomsky tasks (docs/spec.md §3.10).
  std::string s = min ? "shortest training length (-1 = task default:" : "longest training length (-1 = task default:";
  bool first = true;
  for (const TaskInfo& t : tasks()) {
    s += (first ? " " : ", ") + t.name + " " + std::to_string(min ? t.default_min_len : t.default_max_len);
    first = false;
  }
  return s + ")";
}

std::vector<Setting> build_table() {
  const std::string task_help = list_help("task", task_names_list());
  const std::string enc_help = list_help("positional encoding", encoding_names());
  const std::string opt_help = list_help("optimizer", optimizer_names());
  const std::string min_help = length_help(true), max_help = length_help(false);
  using C = TrainConfig;
  std::vector<Setting> table = {
      text_setting("task", "task", task_help.c_str(), [](C& c) -> auto& { return c.task.name; }),
      int_setting("min-len", "task", min_help.c_str(), [](C& c) -> auto& { return c.task.min_len; }),
      int_setting("max-len", "task", max_help.c_str(), [](C& c) -> auto& { return c.task.max_len; }),
  };
  add_option_settings(table, tasks(), "task", [](C& c) -> Options& { return c.task.options; });
  const std::vector<Setting> model = {
      text_setting("encoding", "model", enc_help.c_str(), [](C& c) -> auto& { return c.model.encoding; }),
      int_setting("d-model", "model", "model width d", [](C& c) -> auto& { return c.model.d_model; }),
      int_setting("heads", "model", "attention heads H (must divide d-model)", [](C& c) -> auto& { return c.model.n_heads; }),
      int_setting("layers", "model", "encoder blocks", [](C& c) -> auto& { return c.model.n_layers; }),
      int_setting("d-ff", "model", "feed-forward width", [](C& c) -> auto& { return c.model.d_ff; }),
      text_setting("head", "model", "output head: token, pooled, cls (empty = the task's own)",
                   [](C& c) -> auto& { return c.head; }),
      bool_setting("causal", "model", "decoder-style mask: position t sees only u <= t", [](C& c) -> auto& { return c.model.causal; }),
      Setting{"layer-encodings", "model",
              "one encoding per layer, E1,E2,... (or E1+E2+..., the form --vary takes); layers naming one "
              "encoding share it; empty = --encoding in every layer",
              false, true,
              [](const TrainConfig& c) { return c.model.layer_encodings.str(); },
              [](TrainConfig& c, const std::string& s) {
                c.model.layer_encodings = LayerEncodings::parse(s, "--layer-encodings");
              }},
      Setting{"score-scale", "model",
              "none, or log-length: Scalable-Softmax, every logit of query t times s_h log n_t (n_t the keys it "
              "sees, s learned per layer and head, init 1)",
              false, true, [](const TrainConfig& c) { return std::string(c.model.log_length_scale ? "log-length" : "none"); },
              [](TrainConfig& c, const std::string& s) {
                ORDO_CHECK(s == "none" || s == "log-length", "--score-scale: unknown '", s, "'; accepted: none, log-length");
                c.model.log_length_scale = s == "log-length";
              }},
      int_setting("window", "model", "each query sees the keys u with |t - u| < W (sliding-window attention); 0 = all",
                  [](C& c) -> auto& { return c.model.window; }),
      bool_setting("post-ln", "model", "post-LN blocks instead of pre-LN", [](C& c) -> auto& { return c.model.post_ln; }),
      bool_setting("scale-output-init", "model", "init W_o and fc2 with std 0.02 / sqrt(2 layers) instead of 0.02",
                   [](C& c) -> auto& { return c.model.scale_output_init; }),
      bool_setting("tie-embeddings", "model",
                   "token head: logits = final states x the token embeddings (GPT-2's tied lm_head, no bias); "
                   "for tasks whose classes are the token ids",
                   [](C& c) -> auto& { return c.model.tie_embeddings; }),
      bool_setting("scale-embed", "model",
                   "token embeddings times sqrt(d-model), before position terms (Vaswani et al. 2017; Ruoss et al.'s code)",
                   [](C& c) -> auto& { return c.model.scale_embed; }),
      real_setting("dropout", "model", "dropout probability on sub-layer outputs", [](C& c) -> auto& { return c.model.dropout; }),
      int_setting("pe-max-len", "model", "positions an encoding is sized for: learned table rows, rbf span (0 = training max-len)",
                  [](C& c) -> auto& { return c.pe_max_len; }),
  };
  table.insert(table.end(), model.begin(), model.end());
  add_option_settings(table, encodings(), "model", [](C& c) -> Options& { return c.model.posenc.options; });
  const std::vector<Setting> rest = {
      text_setting("optimizer", "training", opt_help.c_str(), [](C& c) -> auto& { return c.optimizer.name; }),
      real_setting("lr", "training", "peak learning rate", [](C& c) -> auto& { return c.lr; }),
      int_setting("steps", "training", "training steps (with --until-learned: the most, as --max-steps)",
                  [](C& c) -> auto& { return c.steps; }),
      // --max-steps is --steps by the name that reads right beside --until-learned: one field,
      // recorded once (as steps).
      Setting{"max-steps", "training", "the same as --steps: the most steps a --until-learned run takes", false,
              false, [](const TrainConfig& c) { return std::to_string(c.steps); },
              [](TrainConfig& c, const std::string& s) { c.steps = parse_int("max-steps", s); }},
      bool_setting("until-learned", "training",
                   "stop once the training range is learned (--learned-at at two evaluations in a row), after "
                   "--patience steps without progress, or at --steps; the schedule spans --steps",
                   [](C& c) -> auto& { return c.until_learned; }),
      real_setting("learned-at", "training",
                   "with --until-learned: the training-range accuracy, in (0, 1], that counts as learned",
                   [](C& c) -> auto& { return c.learned_at; }),
      int_setting("learned-evals", "training",
                  "with --until-learned: evaluations in a row at --learned-at that count as learned (default 2; "
                  "Huang et al. stop at the first, 1)",
                  [](C& c) -> auto& { return c.learned_evals; }),
      int_setting("patience", "training",
                  "with --until-learned: stop after this many steps without progress on the training range "
                  "(0 = never)",
                  [](C& c) -> auto& { return c.patience; }),
      int_setting("batch", "training", "sequences per batch", [](C& c) -> auto& { return c.batch_size; }),
      int_setting("micro-batches", "training",
                  "M: each batch as M equal parts, gradients summed in part order (fixes the sums, so `mpirun -np N "
                  "ordo train`, N dividing M, gives the same bits as one process)",
                  [](C& c) -> auto& { return c.micro_batches; }),
      int_setting("warmup", "training", "linear warmup steps (then --schedule's decay to 0)", [](C& c) -> auto& { return c.warmup; }),
      text_setting("schedule", "training",
                   "decay after warmup: cosine (to 0 at the last step) or linear (to 0 at --steps, Hugging Face's)",
                   [](C& c) -> auto& { return c.schedule; }),
      real_setting("clip", "training", "global gradient-norm clip (0 = off)", [](C& c) -> auto& { return c.clip; }),
      real_setting("weight-decay", "training", "decoupled weight decay on matrices and tables",
                   [](C& c) -> auto& { return c.optimizer.weight_decay; }),
      uint_setting("seed", "training", "seed of initialisation, data and dropout (of initialisation only with --train-seed)",
                   [](C& c) -> auto& { return c.seed; }),
      Setting{"train-seed", "training",
              "seed of training's draws (sequences, random offsets and positions, dropout): 'seed' (--seed's) or a "
              "number, one training stream for every seed of a study, --seed then initialising only (Huang et al.'s "
              "protocol)",
              false, true,
              [](const TrainConfig& c) { return c.train_seed < 0 ? std::string("seed") : std::to_string(c.train_seed); },
              [](TrainConfig& c, const std::string& s) {
                if (s == "seed") {
                  c.train_seed = -1;
                  return;
                }
                ORDO_CHECK(!s.empty() && s.find_first_not_of("0123456789") == std::string::npos,
                           "--train-seed expects 'seed' or a non-negative whole number, got '", s, "'");
                c.train_seed = parse_int("train-seed", s);
              }},
      bool_setting("same-length", "training", "one length per training batch (no padding)",
                   [](C& c) -> auto& { return c.same_length; }),
      int_setting("random-positions", "training",
                  "N > 0: each training batch sits at a sorted random sample of distinct positions from [0, N) "
                  "(randomized positional encodings; N above every evaluation length); 0 = off",
                  [](C& c) -> auto& { return c.random_positions; }),
      int_setting("random-offset", "training",
                  "N > 0: each training sequence of n tokens at o..o+n-1, o uniform in [0, N - n] (Huang et al.'s "
                  "APE training; the learned table gets N rows); evaluation at 0..n-1; 0 = off",
                  [](C& c) -> auto& { return c.random_offset; }),

      int_setting("eval-every", "evaluation", "evaluate every N steps (and at the last)", [](C& c) -> auto& { return c.eval_every; }),
      Setting{"eval-lens", "evaluation",
              "extrapolation lengths: a list (128,256) and/or ranges FROM:TO:STEP (64:512:64); empty = 2x,4x max-len",
              false, true, [](const TrainConfig& c) { return join(c.eval_lens); },
              [](TrainConfig& c, const std::string& s) { c.eval_lens = parse_int_list("eval-lens", s); }},
      Setting{"eval-lens-final", "evaluation",
              "more extrapolation lengths, scored after the last step only (long sweeps, e.g. 41:500:1); "
              "a list and/or ranges as --eval-lens; a length also in --eval-lens is scored at every evaluation",
              false, true, [](const TrainConfig& c) { return join(c.eval_lens_final); },
              [](TrainConfig& c, const std::string& s) { c.eval_lens_final = parse_int_list("eval-lens-final", s); }},
      int_setting("eval-train-sequences", "evaluation", "sequences in the held-out training-range set",
                  [](C& c) -> auto& { return c.eval_train_sequences; }),
      int_setting("eval-sequences", "evaluation", "sequences in each extrapolation length's set",
                  [](C& c) -> auto& { return c.eval_sequences; }),
      int_setting("eval-batch", "evaluation", "sequences per evaluation batch (at most; also at most 8192 tokens)", [](C& c) -> auto& { return c.eval_batch; }),
      uint_setting("eval-seed", "evaluation", "seed of the held-out sets (the same for every run unless --eval-sets-per-seed)",
                   [](C& c) -> auto& { return c.eval_seed; }),
      bool_setting("eval-sets-per-seed", "evaluation",
                   "each run's held-out sets drawn from --eval-seed and its --seed, not one set for every run "
                   "(Huang et al.'s code draws each seed's sets after seeding with it)",
                   [](C& c) -> auto& { return c.eval_sets_per_seed; }),
      bool_setting("random-positions-eval", "evaluation",
                   "with --random-positions: evaluate at sampled positions too (as Ruoss et al.'s code), not 0..n-1",
                   [](C& c) -> auto& { return c.random_positions_eval; }),

      bool_setting("check-numerics", "runtime", "scan every op for NaN/Inf and name the first", [](C& c) -> auto& {
        return c.check_numerics; }, false),
  };
  table.insert(table.end(), rest.begin(), rest.end());
  add_option_settings(table, optimizers(), "training", [](C& c) -> Options& { return c.optimizer.options; });
  // Each group's settings together (--help prints a heading per group), groups in the order
  // they first appear.
  std::vector<std::string> groups;
  for (const Setting& st : table)
    if (std::find(groups.begin(), groups.end(), st.group) == groups.end()) groups.push_back(st.group);
  std::stable_sort(table.begin(), table.end(), [&](const Setting& a, const Setting& b) {
    return std::find(groups.begin(), groups.end(), a.group) < std::find(groups.begin(), groups.end(), b.group);
  });
  std::set<std::string> names;
  for (const Setting& st : table)
    ORDO_CHECK(names.insert(st.name).second, "setting --", st.name,
               " is declared twice (an encoding's or a task's option may not reuse a setting's name)");
  return table;
}

}  // namespace

const std::vector<Setting>& settings() {
  static const std::vector<Setting> table = build_table();
  return table;
}

const Setting* find_setting(const std::string& name) {
  for (const Setting& s : settings())
    if (name == s.name) return &s;
  return nullptr;
}

std::map<std::string, std::string> to_settings(const TrainConfig& cfg) {
  std::map<std::string, std::string> out;
  for (const Setting& s : settings())
    if (s.affects_results) out[s.name] = s.get(cfg);
  return out;
}

TrainConfig from_settings(const std::map<std::string, std::string>& values) {
  TrainConfig cfg;
  if (!values.count("micro-batches")) cfg.micro_batches = 1;  // written before the setting: whole batches
  for (const auto& [key, value] : values) {
    const Setting* s = find_setting(key);
    ORDO_CHECK(s != nullptr, "unknown setting '", key, "'");
    s->set(cfg, value);
  }
  return cfg;
}

// Checked here, before the task, model and optimizer are built, so that every message names
// the flag to change; the model's settings by the model's own validate_settings (layers/model.h).
void validate(const TrainConfig& c) {
  ORDO_CHECK(c.steps > 0, "--steps must be positive, got ", c.steps);
  ORDO_CHECK(c.batch_size > 0, "--batch must be positive, got ", c.batch_size);
  ORDO_CHECK(c.micro_batches >= 1 && c.batch_size % c.micro_batches == 0, "--micro-batches must divide --batch ",
             c.batch_size, " into equal parts, got ", c.micro_batches);
  ORDO_CHECK(c.lr > 0, "--lr must be positive, got ", c.lr);
  ORDO_CHECK(c.warmup >= 0, "--warmup must be >= 0, got ", c.warmup);
  ORDO_CHECK(c.clip >= 0, "--clip must be >= 0 (0 = off), got ", c.clip);
  ORDO_CHECK(c.eval_every >= 0, "--eval-every must be >= 0 (0 = only at the end), got ", c.eval_every);
  ORDO_CHECK(c.eval_batch > 0, "--eval-batch must be positive, got ", c.eval_batch);
  for (size_t i = 0; i < c.eval_lens.size(); ++i) {
    ORDO_CHECK(c.eval_lens[i] > 0, "--eval-lens: lengths must be positive, got ", c.eval_lens[i]);
    for (size_t j = 0; j < i; ++j)
      ORDO_CHECK(c.eval_lens[j] != c.eval_lens[i], "--eval-lens: length ", c.eval_lens[i],
                 " is listed twice; each length is one evaluation set");
  }
  for (size_t i = 0; i < c.eval_lens_final.size(); ++i) {
    const int64_t len = c.eval_lens_final[i];
    ORDO_CHECK(len > 0, "--eval-lens-final: lengths must be positive, got ", len);
    for (size_t j = 0; j < i; ++j)
      ORDO_CHECK(c.eval_lens_final[j] != len, "--eval-lens-final: length ", len,
                 " is listed twice; each length is one evaluation set");
  }
  ORDO_CHECK(c.learned_at > 0 && c.learned_at <= 1, "--learned-at must be in (0, 1], got ", c.learned_at);
  ORDO_CHECK(c.patience >= 0, "--patience must be >= 0 (0 = never stop for want of progress), got ", c.patience);
  ORDO_CHECK(c.until_learned || (c.patience == 0 && c.learned_at == TrainConfig{}.learned_at),
             c.patience ? "--patience" : "--learned-at", " needs --until-learned (a run of fixed --steps never "
             "stops early)");
  ORDO_CHECK(c.patience <= c.steps, "--patience ", c.patience, " is longer than the maximum, --steps ", c.steps,
             "; accepted: 0 (off) up to ", c.steps);
  if (c.until_learned) {
    ORDO_CHECK(c.eval_every > 0, "--until-learned needs --eval-every > 0: the run decides to stop at its "
               "evaluations of the training range, and with --eval-every 0 there is only the last");
    ORDO_CHECK(c.patience == 0 || c.patience >= c.eval_every, "--patience ", c.patience,
               " is shorter than --eval-every ", c.eval_every, ": progress is seen only at evaluations; accepted: 0 "
               "(off) or ", c.eval_every, " up to ", c.steps);
  }
  ORDO_CHECK(c.learned_evals >= 1, "--learned-evals must be >= 1, got ", c.learned_evals);
  ORDO_CHECK(c.until_learned || c.learned_evals == TrainConfig{}.learned_evals,
             "--learned-evals needs --until-learned (a run of fixed --steps never stops early)");
  parse_schedule(c.schedule);
  ORDO_CHECK(c.eval_sequences > 0, "--eval-sequences must be positive, got ", c.eval_sequences);
  ORDO_CHECK(c.eval_train_sequences > 0, "--eval-train-sequences must be positive, got ", c.eval_train_sequences);
  ORDO_CHECK(c.random_offset >= 0, "--random-offset must be >= 0 (0 = off), got ", c.random_offset);
  ORDO_CHECK(c.random_offset == 0 || c.random_positions == 0,
             "--random-offset and --random-positions both move the training positions; choose one");
  for (const std::string& name : block_encodings(c.model))
    ORDO_CHECK(c.random_offset == 0 || encoding_info(name).random_offset != RandomOffset::refused,
               "--random-offset: encoding ", name, " reads absolute positions and does not take an offset; accepted: ",
               offset_encodings(), "; drop the flag or choose one of them");
  ORDO_CHECK(c.pe_max_len >= 0, "--pe-max-len must be >= 0 (0 = training max-len), got ", c.pe_max_len);
  const OptimizerInfo& optimizer = optimizer_info(c.optimizer.name);  // an unknown name lists the known ones
  if (optimizer.check) optimizer.check(c.optimizer.options);
  ORDO_CHECK(c.optimizer.weight_decay >= 0, "--weight-decay must be >= 0 (0 = off), got ",
             c.optimizer.weight_decay);

  validate_settings(c.model);
  ORDO_CHECK(c.random_positions >= 0, "--random-positions must be >= 0 (0 = off), got ", c.random_positions);
  for (const std::string& name : block_encodings(c.model))
    ORDO_CHECK(c.random_positions == 0 || encoding_info(name).takes_random_positions, "--random-positions: encoding ",
               name, " does not take randomized positions; drop the flag or choose another encoding");
  ORDO_CHECK(c.random_positions > 0 || !c.random_positions_eval,
             "--random-positions-eval needs --random-positions N");
  for (int64_t len : c.eval_lens)
    ORDO_CHECK(c.random_positions == 0 || len < c.random_positions, "--random-positions ", c.random_positions,
               " must exceed every evaluation length; --eval-lens has ", len);
  for (int64_t len : c.eval_lens_final)
    ORDO_CHECK(c.random_positions == 0 || len < c.random_positions, "--random-positions ", c.random_positions,
               " must exceed every evaluation length; --eval-lens-final has ", len);
  const TaskInfo& task = task_info(c.task.name);  // an unknown name lists the known ones
  ORDO_CHECK(c.model.causal || !task.causal_only, "task ", task.name, " predicts each next token, which a "
             "bidirectional model sees; add --causal (or --causal true)");
  if (!c.head.empty()) parse_head(c.head);
}

}  // namespace ordo
