// report/summary.cpp: aggregation over seeds, tables, the overview and summary.md (see
// summary.h; the findings are report/findings.cpp).
#include "report/summary.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <sstream>

#include "core/error.h"
#include "core/rng.h"
#include "core/strings.h"
#include "data/eval.h"
#include "data/task.h"
#include "report/findings.h"
#include "report/rate_selection.h"
#include "report/statistics.h"
#include "train/settings.h"
#include "train/stopping.h"

namespace ordo {
namespace {


// A setting as an integer, or `fallback` when absent or not a number.
int64_t setting_int(const std::map<std::string, std::string>& s, const std::string& key, int64_t fallback) {
  auto it = s.find(key);
  if (it == s.end()) return fallback;
  try {
    size_t used = 0;
    const int64_t v = std::stoll(it->second, &used);
    return used == it->second.size() ? v : fallback;
  } catch (const std::exception&) {
    return fallback;
  }
}

// The mean training loss over the tenth of the run that ends at its midpoint and over its
// last tenth (at least one step each); NaN for both with fewer than 2 steps.
void loss_trend(const std::vector<double>& loss, double& mid, double& last) {
  const size_t n = loss.size();
  if (n < 2) {
    mid = last = kNaN;
    return;
  }
  const size_t w = std::max<size_t>(1, n / 10);
  auto mean = [&](size_t begin, size_t end) {
    double s = 0;
    for (size_t i = begin; i < end; ++i) s += loss[i];
    return s / static_cast<double>(end - begin);
  };
  last = mean(n - w, n);
  mid = mean(n / 2 - std::min(n / 2, w), n / 2);
}

}  // namespace

double mean_acc(const EncodingSummary& e, int64_t length) {
  auto it = e.acc.find(length);
  return it == e.acc.end() || it->second.n == 0 ? kNaN : it->second.mean;
}

void Stat::add_all(const std::vector<double>& values) {
  n = static_cast<int>(values.size());
  if (n == 0) {
    mean = min = max = 0;
    return;
  }
  double sum = 0;
  min = max = values[0];
  for (double v : values) {
    sum += v;
    min = std::min(min, v);
    max = std::max(max, v);
  }
  mean = sum / n;
  const Interval ci = bootstrap_mean_interval(values);
  low = ci.low, high = ci.high;
}

namespace {

// The task a run trained on, rebuilt from its settings; nullptr for a task this build does
// not know or settings it does not accept.
std::unique_ptr<Task> rebuild_task(const std::string& task, const std::map<std::string, std::string>& settings) {
  try {
    TaskConfig config;
    config.name = task;
    const TaskInfo& info = task_info(task);
    config.min_len = setting_int(settings, "min-len", -1);
    config.max_len = setting_int(settings, "max-len", -1);
    for (const OptionSpec& o : info.options) {
      auto it = settings.find(o.name);
      if (it != settings.end()) config.options.set(o.name, it->second);
    }
    return make_task(config);
  } catch (const Error&) {
    return nullptr;
  }
}

// Training-range sequences of the sample that picks the training lengths' commonest answer
// and says whether it is skewed: 8x the evaluation set, so that the sample's own noise
// (0.008 for a share of 0.5 with one answer per sequence) stays under the skew tested for.
constexpr int64_t kReferenceSequences = 8 * kEvalTrainSequences;

// What decides a run's evaluation sets (data/eval.h): its task, the training range, the
// task's options and the evaluation settings, and with --eval-sets-per-seed its seed; runs of
// a task that agree on it were scored on the same sets.
std::string eval_sets_key(const std::string& task, const std::map<std::string, std::string>& settings) {
  std::string key = task;
  std::vector<std::string> names = {"min-len", "max-len", "eval-seed", "eval-sequences", "eval-train-sequences",
                                    "eval-sets-per-seed"};
  if (const auto per_seed = settings.find("eval-sets-per-seed"); per_seed != settings.end() && per_seed->second == "true")
    names.push_back("seed");
  try {
    for (const OptionSpec& o : task_info(task).options) names.push_back(o.name);
  } catch (const Error&) {
  }
  for (const std::string& name : names) {
    const auto it = settings.find(name);
    key += "|" + name + "=" + (it == settings.end() ? std::string("-") : it->second);
  }
  return key;
}

// The training lengths' commonest answer and its share in each evaluation set of `lengths`
// (TaskSummary::commonest), each set rebuilt as the runs built it (train/trainer.cpp: from
// --eval-seed, and the sequence counts; batching does not change a set's sequences). The
// answer is the commonest one of a training-range sample of kReferenceSequences from a seed
// of its own, so that no evaluation set's own sampling skew picks it. Leaves `t` without a
// baseline when the settings do not parse; a length the task cannot take is left out.
void commonest_shares(TaskSummary& t, const Task& task, const std::map<std::string, std::string>& settings) {
  try {
    const TrainConfig defaults;
    const auto seed_it = settings.find("eval-seed");
    TrainConfig drawn;  // the settings that decide the sets' seed (one run's, with --eval-sets-per-seed)
    drawn.eval_seed = seed_it == settings.end() ? defaults.eval_seed : std::stoull(seed_it->second);
    const auto per_seed = settings.find("eval-sets-per-seed");
    drawn.eval_sets_per_seed = per_seed != settings.end() && per_seed->second == "true";
    if (const auto run_seed = settings.find("seed"); run_seed != settings.end()) drawn.seed = std::stoull(run_seed->second);
    const uint64_t eval_seed = drawn.held_out_seed();
    const int64_t sequences = setting_int(settings, "eval-sequences", defaults.eval_sequences);
    const int64_t train_sequences = setting_int(settings, "eval-train-sequences", defaults.eval_train_sequences);
    const int64_t batch = defaults.eval_batch;  // any size gives the same sequences
    const EvalSet reference =
        make_eval_set(task, mix64(eval_seed ^ hash64("ordo/commonest-answer")), 0, batch, kReferenceSequences);
    t.commonest_answer = commonest_answer(reference);
    if (t.commonest_answer < 0) return;
    t.commonest_reference = answer_share(reference, t.commonest_answer);
    t.commonest_reference_scored = scored_positions(reference);
    double sum = 0;
    int64_t n = 0;
    for (int64_t len : t.lengths) {
      try {
        const double share =
            answer_share(make_eval_set(task, eval_seed, len, batch, len == 0 ? train_sequences : sequences),
                         t.commonest_answer);
        t.commonest[len] = share;
        if (len > 0 && std::isfinite(share)) sum += share, ++n;
      } catch (const Error&) {
      }
    }
    if (n > 0) t.commonest[kMeanBeyond] = sum / static_cast<double>(n);
  } catch (const std::exception&) {  // a setting that does not parse: no baseline
    t.commonest.clear();
    t.commonest_answer = -1;
    t.commonest_reference = kNaN;
    t.commonest_reference_scored = 0;
  }
}

}  // namespace

bool TaskSummary::skewed(double margin) const {
  if (!std::isfinite(commonest_reference) || !std::isfinite(chance) || commonest_reference_scored <= 0) return false;
  // The commonest of C classes in a uniform sample sits above 1/C by about 1.2 standard
  // errors for C = 5 and 2.3 for C = 60; 4 leaves room.
  const double noise = 4 * std::sqrt(chance * (1 - chance) / static_cast<double>(commonest_reference_scored));
  return commonest_reference - chance > std::max(margin, noise);
}

double TaskSummary::floor_at(int64_t length, double margin) const {
  const auto it = commonest.find(length);
  if (skewed(margin) && it != commonest.end() && std::isfinite(it->second)) return it->second;
  return chance;
}

double chance_level(const std::string& task, const std::map<std::string, std::string>& settings) {
  const std::unique_ptr<Task> t = rebuild_task(task, settings);  // the task itself knows
  return t ? t->chance_level() : kNaN;
}

std::vector<TaskSummary> summarize(const std::vector<RunRecord>& runs, double solved) {
  // task -> (encoding, variant) -> the runs, both in order of first appearance.
  using Cell = std::pair<std::string, std::string>;  // encoding, variant ("" = none)
  std::vector<std::string> task_order;
  std::map<std::string, std::vector<Cell>> enc_order;
  std::map<std::pair<std::string, Cell>, std::vector<const RunRecord*>> groups;
  for (const RunRecord& r : runs) {
    if (!enc_order.count(r.task)) task_order.push_back(r.task);
    auto& encs = enc_order[r.task];
    const Cell cell{r.encoding, r.variant};
    if (std::find(encs.begin(), encs.end(), cell) == encs.end()) encs.push_back(cell);
    groups[{r.task, cell}].push_back(&r);
  }

  std::vector<TaskSummary> out;
  for (const std::string& task : task_order) {
    TaskSummary ts;
    ts.task = task;
    ts.solved = solved;
    const RunRecord& first = *groups[{task, enc_order[task].front()}].front();
    ts.min_len = setting_int(first.settings, "min-len", -1);
    ts.max_len = setting_int(first.settings, "max-len", -1);
    const std::unique_ptr<Task> t = rebuild_task(task, first.settings);  // null if this build lacks it
    if (t) {
      ts.chance = t->chance_level();
      for (const MetricInfo& m : t->metrics())
        if (m.name == "acc") ts.accuracy_meaning = m.meaning;
      ts.length_unit = t->length_unit();
      ts.distance_name = t->distance_name();
      ts.longest_trained_distance = t->longest_distance(t->max_len());
    } else {
      ts.chance = kNaN;
    }
    for (const Cell& enc : enc_order[task]) {
      EncodingSummary es;
      es.encoding = enc.first;
      es.variant = enc.second;
      std::map<int64_t, std::vector<double>> acc;
      std::vector<double> first_steps, walls, stop_steps;
      for (const RunRecord* r : groups[{task, enc}]) {
        ++es.seeds;
        if (const auto lr = r->settings.find("lr"); lr != r->settings.end()) es.lr = rate_label(lr->second);
        walls.push_back(r->log.total_wall_seconds);
        SeedOutcome so;
        so.seed = r->seed;
        so.steps = r->log.step.empty() ? 0 : r->log.step.back();
        loss_trend(r->log.train_loss, so.loss_mid, so.loss_last);
        so.stop_reason = r->log.stop_reason;
        so.stop_step = r->log.stop_step;
        if (!so.stop_reason.empty()) {
          ++es.stops[so.stop_reason];
          stop_steps.push_back(static_cast<double>(so.stop_step));
        }
        for (const auto& [len, points] : r->log.eval) {
          if (points.empty()) continue;
          acc[len].push_back(points.back().acc);
          so.acc[len] = points.back().acc;
          if (std::find(ts.lengths.begin(), ts.lengths.end(), len) == ts.lengths.end()) ts.lengths.push_back(len);
        }
        if (const auto train = r->log.eval.find(0); train != r->log.eval.end())
          for (const EvalPoint& p : train->second)
            if (p.acc >= solved) {
              so.first_solved = p.step;
              first_steps.push_back(static_cast<double>(p.step));
              break;
            }
        es.per_seed.push_back(std::move(so));
      }
      for (auto& [len, values] : acc) es.acc[len].add_all(values);
      std::map<int64_t, std::vector<double>> learned;  // per length, over the seeds that learned
      for (const SeedOutcome& so : es.per_seed) {
        if (!so.learned(solved)) continue;
        ++es.seeds_learned;
        for (const auto& [len, a] : so.acc) learned[len].push_back(a);
      }
      for (auto& [len, values] : learned) es.acc_learned[len].add_all(values);
      es.first_solved_step.add_all(first_steps);
      es.seeds_solved = static_cast<int>(first_steps.size());
      es.wall_seconds.add_all(walls);
      es.stop_step.add_all(stop_steps);
      ts.rows.push_back(std::move(es));
    }
    std::sort(ts.lengths.begin(), ts.lengths.end());
    // The baseline is the first run's sets': only when every run of the task was scored on them.
    bool same_sets = true;
    for (const Cell& enc : enc_order[task])
      for (const RunRecord* r : groups[{task, enc}])
        same_sets = same_sets && eval_sets_key(task, r->settings) == eval_sets_key(task, first.settings);
    if (t && same_sets) commonest_shares(ts, *t, first.settings);
    const std::vector<int64_t> beyond(std::upper_bound(ts.lengths.begin(), ts.lengths.end(), 0), ts.lengths.end());
    if (beyond.size() > kMaxLengthColumns) {
      ts.columns = {beyond.front(), beyond.back(), kMeanBeyond};
      if (ts.lengths.front() == 0) ts.columns.insert(ts.columns.begin(), 0);
      for (EncodingSummary& es : ts.rows) {
        // Each seed's mean over its own extrapolation lengths: a swept setting (--vary
        // max-len) can give rows different default lengths beside the sweep.
        std::vector<double> means, learned_means;
        for (const SeedOutcome& so : es.per_seed) {
          double sum = 0;
          size_t n = 0;
          for (const auto& [len, acc] : so.acc)
            if (len > 0) sum += acc, ++n;
          if (n == 0) continue;
          means.push_back(sum / static_cast<double>(n));
          if (so.learned(solved)) learned_means.push_back(means.back());
        }
        es.acc[kMeanBeyond].add_all(means);
        if (!learned_means.empty()) es.acc_learned[kMeanBeyond].add_all(learned_means);
      }
    }
    out.push_back(std::move(ts));
  }
  return out;
}

std::string length_label(const TaskSummary& task, int64_t length) {
  if (length == kMeanBeyond) {
    std::vector<int64_t> beyond;
    for (int64_t len : task.lengths)
      if (len > 0) beyond.push_back(len);
    if (beyond.empty()) return "mean beyond training";
    return "mean " + std::to_string(beyond.front()) + "-" + std::to_string(beyond.back()) + " (" +
           std::to_string(beyond.size()) + " lengths)";
  }
  if (length == 0) {
    if (task.min_len > 0 && task.max_len > 0)
      return "train (" + std::to_string(task.min_len) + "-" + std::to_string(task.max_len) + ")";
    return "train";
  }
  if (task.max_len > 0 && length % task.max_len == 0)
    return std::to_string(length / task.max_len) + "x (" + std::to_string(length) + ")";
  return std::to_string(length);
}

std::string compact_setting(const std::string& value) {
  std::vector<int64_t> v;
  size_t at = 0;
  while (at < value.size()) {
    const size_t comma = std::min(value.find(',', at), value.size());
    const std::string item = value.substr(at, comma - at);
    int64_t number = 0;
    const auto parsed = std::from_chars(item.data(), item.data() + item.size(), number);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || parsed.ec != std::errc())
      return value;  // not a list of numbers (or one beyond 64 bits): shown as written
    v.push_back(number);
    at = comma + 1;
  }
  if (v.size() < 3) return value;
  std::string out;
  for (size_t i = 0; i < v.size();) {
    size_t j = i + 1;  // the run v[i..j) at step v[i+1] - v[i]
    if (i + 2 < v.size() && v[i + 1] > v[i])
      while (j + 1 < v.size() && v[j + 1] - v[j] == v[i + 1] - v[i]) ++j;
    out += out.empty() ? "" : ",";
    if (j - i >= 2) {
      out += std::to_string(v[i]) + ":" + std::to_string(v[j]) + ":" + std::to_string(v[i + 1] - v[i]);
      i = j + 1;
    } else {
      out += std::to_string(v[i]);
      ++i;
    }
  }
  return out;
}

std::string format_stat(const Stat& s, int decimals) {
  if (s.n == 0 || !std::isfinite(s.mean)) return "-";
  if (s.n == 1) return fixed(s.mean, decimals);
  return fixed(s.mean, decimals) + " [" + fixed(s.low, decimals) + ", " + fixed(s.high, decimals) + "]";
}

std::vector<double> learned_accuracies(const EncodingSummary& e, int64_t length, double solved) {
  std::vector<double> out;
  for (const SeedOutcome& s : e.per_seed) {
    const auto at = s.acc.find(length);
    if (s.learned(solved) && at != s.acc.end() && std::isfinite(at->second))
      out.push_back(at->second);
  }
  return out;
}

std::vector<const EncodingSummary*> ranked_rows(const TaskSummary& t) {
  const int64_t longest = t.lengths.empty() ? 0 : t.lengths.back();
  std::vector<const EncodingSummary*> rows;
  for (const EncodingSummary& e : t.rows) rows.push_back(&e);
  // NaN sorts last: a missing value ranks below every present one.
  auto key = [](double v) { return std::isfinite(v) ? v : -1.0; };
  std::stable_sort(rows.begin(), rows.end(), [&](const EncodingSummary* a, const EncodingSummary* b) {
    const double la = key(mean_acc(*a, longest)), lb = key(mean_acc(*b, longest));
    if (la != lb) return la > lb;
    return key(mean_acc(*a, 0)) > key(mean_acc(*b, 0));
  });
  return rows;
}

Overview overview(const std::vector<TaskSummary>& tasks, const FindingThresholds& th) {
  Overview ov;
  std::vector<std::string> labels;  // rows in first-appearance order
  std::map<std::string, const EncodingSummary*> first_row;
  for (const TaskSummary& t : tasks) {
    for (int64_t len : t.shown())
      ov.columns.push_back(OverviewColumn{t.task, len, t.task + " · " + length_label(t, len), t.chance,
                                          len == 0 ? th.solved : th.extrapolates, t.floor_at(len, th.chance_margin),
                                          t.skewed(th.chance_margin)});
    for (const EncodingSummary& e : t.rows)
      if (!first_row.count(e.label())) {
        labels.push_back(e.label());
        first_row[e.label()] = &e;
      }
  }
  for (const std::string& label : labels) {
    OverviewRow row;
    row.label = label;
    row.encoding = first_row[label]->encoding;
    row.variant = first_row[label]->variant;
    double reach_sum = 0, overall_sum = 0;
    int reach_n = 0, overall_n = 0;
    for (const TaskSummary& t : tasks) {
      const EncodingSummary* e = nullptr;
      for (const EncodingSummary& r : t.rows)
        if (r.label() == label) e = &r;
      for (int64_t len : t.shown()) {
        OverviewCell cell;
        const double bar = len == 0 ? th.solved : th.extrapolates;
        if (e) {
          auto it = e->acc.find(len);
          if (it != e->acc.end()) cell.acc = it->second;
        }
        if (cell.acc.n > 0 && std::isfinite(cell.acc.mean)) {
          const double m = cell.acc.mean;
          const double floor = t.floor_at(len, th.chance_margin);
          cell.score = std::isfinite(floor) && floor < 1 ? (m - floor) / (1 - floor) : m;
          cell.score = std::clamp(cell.score, 0.0, 1.0);
          cell.held = cell.acc.min >= bar;
          cell.not_learned = len != 0 && e->seeds_learned == 0;
          // A cell not learned counts 0, as a missing one: the order must not rest on what the
          // figure tells nobody to read.
          const double counted = cell.not_learned ? 0.0 : cell.score;
          overall_sum += counted;
          ++overall_n;
          if (len == t.lengths.back()) reach_sum += counted, ++reach_n;
        }
        row.cells.push_back(cell);
      }
    }
    // A task without this row's cell counts as 0: a series that ran fewer tasks (an unfinished
    // study re-reported) must not rank above one that ran them all.
    (void)reach_n;
    row.reach = tasks.empty() ? -1 : reach_sum / static_cast<double>(tasks.size());
    row.overall = overall_n ? overall_sum / overall_n : -1;
    ov.rows.push_back(std::move(row));
  }
  std::stable_sort(ov.rows.begin(), ov.rows.end(), [](const OverviewRow& a, const OverviewRow& b) {
    if (a.reach != b.reach) return a.reach > b.reach;
    return a.overall > b.overall;
  });
  ov.note = "Final accuracy, mean over seeds [95% bootstrap interval]. Colour: 0 at the task's chance level (or, where "
            "answers are skewed, at the share of the training lengths' commonest answer), 1 at "
            "accuracy 1. Rows: by mean score at each task's longest evaluation length, then over every cell. "
            "Marked ✗: not every seed reaches " + fixed(th.solved, 2) + " on the training lengths or " +
            fixed(th.extrapolates, 2) + " beyond them. Grey, \"not learned\": a longer length of a cell where no "
            "seed learned the training lengths (>= " + fixed(th.solved, 2) + "), whose accuracy there says how far "
            "training got, not what the encoding allows.";
  return ov;
}

namespace {

// "learned 2, max-steps 1 at 1250 [500, 2000]": the seeds per stop reason, then the stopping step.
std::string stops_text(const EncodingSummary& e) {
  if (e.stops.empty()) return "-";
  std::string text;
  for (const char* reason : {stop_name(Stop::learned), stop_name(Stop::no_progress), stop_name(Stop::max_steps)}) {
    const auto it = e.stops.find(reason);
    if (it != e.stops.end()) text += (text.empty() ? "" : ", ") + std::string(reason) + " " + std::to_string(it->second);
  }
  return text + " at " + format_stat(e.stop_step, 0);
}

}  // namespace

std::vector<std::vector<std::string>> task_table(const TaskSummary& t, bool learned_only) {
  // A swept study (--vary) gets a column of each row's varied settings.
  bool varied = false;
  for (const EncodingSummary& e : t.rows) varied = varied || !e.variant.empty();
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"#", "encoding"};
  if (varied) header.push_back("varied");
  // Cells at different learning rates (a swept rate, chosen per cell: report/rate_selection.h).
  bool rates = false;
  for (const EncodingSummary& e : t.rows) rates = rates || e.lr != t.rows.front().lr;
  if (rates) header.push_back("lr");
  header.push_back("seeds learned");
  for (auto it = t.shown().rbegin(); it != t.shown().rend(); ++it) header.push_back("acc " + length_label(t, *it));
  // --until-learned runs: why and when they stopped (train/stopping.h).
  bool stopping = false;
  for (const EncodingSummary& e : t.rows) stopping = stopping || !e.stops.empty();
  if (!learned_only) {  // the second table gives the accuracies only
    header.push_back("first step >= " + fixed(t.solved, 2));
    if (stopping) header.push_back("stopped");
    header.push_back("wall s");
  }
  rows.push_back(header);
  int rank = 0;
  for (const EncodingSummary* e : ranked_rows(t)) {
    std::vector<std::string> row = {std::to_string(++rank), e->encoding};
    if (varied) row.push_back(e->variant);
    if (rates) row.push_back(e->lr);
    row.push_back(std::to_string(e->seeds_learned) + "/" + std::to_string(e->seeds));
    const std::map<int64_t, Stat>& acc = learned_only ? e->acc_learned : e->acc;
    for (auto len = t.shown().rbegin(); len != t.shown().rend(); ++len) {
      auto it = acc.find(*len);
      row.push_back(it == acc.end() ? std::string("-") : format_stat(it->second));
    }
    std::string first = e->seeds_solved == 0 ? "never" : format_stat(e->first_solved_step, 0);
    if (e->seeds_solved > 0 && e->seeds_solved < e->seeds)
      first += " (" + std::to_string(e->seeds_solved) + "/" + std::to_string(e->seeds) + " seeds)";
    if (!learned_only) {
      row.push_back(first);
      if (stopping) row.push_back(stops_text(*e));
      row.push_back(format_stat(e->wall_seconds, 1));
    }
    rows.push_back(row);
  }
  return rows;
}

std::string markdown_table(const std::vector<std::vector<std::string>>& rows,
                           const std::vector<std::string>& text_columns) {
  std::ostringstream os;
  for (size_t i = 0; i < rows.size(); ++i) {
    os << "|";
    for (const std::string& cell : rows[i]) os << " " << cell << " |";
    os << "\n";
    if (i == 0) {
      os << "|";
      for (const std::string& header : rows[0]) {
        const bool text = std::find(text_columns.begin(), text_columns.end(), header) != text_columns.end();
        os << (text ? " --- |" : " ---: |");
      }
      os << "\n";
    }
  }
  return os.str();
}

std::string render_task_table(const TaskSummary& t, bool learned_only) {
  return markdown_table(task_table(t, learned_only), {"encoding", "varied"});
}

std::string render_summary_markdown(const std::vector<TaskSummary>& tasks, const std::vector<Finding>& notes,
                                    const std::string& preamble,
                                    const std::map<std::string, std::vector<std::string>>& images,
                                    const std::string& overview_image) {
  std::ostringstream os;
  os << "# ordo compare: summary\n\n";
  if (!overview_image.empty())
    os << "![overview: final accuracy of every encoding on every task and length](" << overview_image << ")\n\n"
       << overview(tasks).note << "\n\n";
  if (!preamble.empty()) os << preamble << (preamble.back() == '\n' ? "" : "\n") << "\n";
  const std::string solved = fixed(tasks.empty() ? 0.99 : tasks.front().solved, 2);
  os << "Accuracy is the final evaluation on the held-out sets (the training length range and each longer "
        "length): the mean over seeds and, in brackets, its 95% percentile-bootstrap interval (10,000 resamples of "
        "the seeds; with few seeds it is narrow and says little). \"seeds learned\" counts the seeds at >= " << solved
     << " on the training lengths at the end (solved k of n). Each task's table is ranked by accuracy at its "
        "longest evaluation length, then on the training lengths, over every run; where some runs did not learn, a "
        "second table gives the same accuracies over the runs that learned alone, the only ones whose longer lengths "
        "say what the encoding allows. \"first step >= " << solved << "\" is the first "
        "evaluation step on the training lengths at or above " << solved << " (\"never\" if no seed got there).\n\n";
  bool stopping = false;
  for (const TaskSummary& t : tasks)
    for (const EncodingSummary& e : t.rows) stopping = stopping || !e.stops.empty();
  if (stopping)
    os << "Runs trained until they learned (--until-learned): \"stopped\" counts the seeds that stopped because "
          "they learned the training lengths, made no progress for --patience steps, or reached --max-steps, and "
          "the step they stopped at (mean and interval).\n\n";
  os << "Findings: " << findings_legend(tasks) << "\n\n";
  for (const TaskSummary& t : tasks) {
    os << "## " << t.task;
    if (std::isfinite(t.chance)) {
      os << " (chance " << fixed(t.chance, 3);
      const auto share = t.commonest.find(0);
      if (t.skewed(FindingThresholds{}.chance_margin) && share != t.commonest.end())
        os << "; commonest answer " << fixed(share->second, 3) << " on the training lengths";
      os << ")";
    }
    os << "\n\n";
    if (!t.accuracy_meaning.empty()) os << "acc: " << t.accuracy_meaning << ".\n\n";
    if (t.length_unit != "tokens") os << "Lengths count " << t.length_unit << ", not tokens.\n\n";
    bool any = false;
    for (const Finding& f : notes)
      if (f.task == t.task) os << "- " << f.text << "\n", any = true;
    if (any) os << "\n";
    os << render_task_table(t) << "\n";
    // Generalization read only from runs that learned: the same table over those seeds alone.
    int learned = 0, seeds = 0;
    for (const EncodingSummary& e : t.rows) learned += e.seeds_learned, seeds += e.seeds;
    if (learned < seeds)
      os << "Over the runs that learned the training lengths (" << learned << " of " << seeds
         << "; \"-\": no seed of the cell did):\n\n"
         << render_task_table(t, true) << "\n";
    auto it = images.find(t.task);
    if (it != images.end())
      for (const std::string& img : it->second) os << "![" << t.task << "](" << img << ")\n";
    if (it != images.end() && !it->second.empty()) os << "\n";
  }
  bool across = false;
  for (const Finding& f : notes) across = across || f.task.empty();
  if (across) {
    os << "## Across tasks\n\n";
    for (const Finding& f : notes)
      if (f.task.empty()) os << "- " << f.text << "\n";
  }
  return os.str();
}

std::string format_duration(double s) {
  if (!(s >= 0)) return "?";
  const long t = static_cast<long>(s + 0.5);
  char buf[32];
  if (t >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, (t / 60) % 60);
  else if (t >= 60) std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
  else std::snprintf(buf, sizeof buf, "%lds", t);
  return buf;
}

}  // namespace ordo
