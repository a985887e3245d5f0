#include "report/rate_selection.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <tuple>

#include "core/strings.h"
#include "report/statistics.h"
#include "report/summary.h"

namespace ordo {
namespace {


// The cell a run belongs to whatever its rate.
using CellKey = std::tuple<std::string, std::string, std::string>;

// fixed (core/strings.h), "-" for no value.
std::string fixed_or_dash(double v, int decimals) {
  if (!std::isfinite(v)) return "-";
  std::ostringstream os;
  os.precision(decimals);
  os << std::fixed << v;
  return os.str();
}

RateScore score(const std::string& lr, const std::vector<const RunRecord*>& runs, double solved) {
  RateScore s;
  s.lr = lr;
  double acc = 0, loss = 0, steps = 0;
  int losses = 0, reached = 0;  // reached: seeds whose curve got to `solved` at some evaluation
  for (const RunRecord* r : runs) {
    ++s.seeds;
    const auto train = r->log.eval.find(0);
    if (train == r->log.eval.end() || train->second.empty()) continue;
    const std::vector<EvalPoint>& points = train->second;
    acc += std::isfinite(points.back().acc) ? points.back().acc : 0;
    if (std::isfinite(points.back().loss)) loss += points.back().loss, ++losses;
    if (points.back().acc >= solved) ++s.learned;
    const auto first = std::find_if(points.begin(), points.end(), [&](const EvalPoint& p) { return p.acc >= solved; });
    if (first != points.end()) steps += static_cast<double>(first->step), ++reached;
  }
  s.train_acc = s.seeds ? acc / s.seeds : kNaN;
  s.train_loss = losses ? loss / losses : kNaN;
  s.first_solved_step = reached ? steps / reached : kNaN;
  return s;
}

// a before b by the rule of rate_selection.h (the listed order breaks the last tie).
bool better(const RateScore& a, const RateScore& b) {
  if ((a.seeds == 0) != (b.seeds == 0)) return b.seeds == 0;  // a rate without a scored run ranks last
  const double share_a = a.seeds ? static_cast<double>(a.learned) / a.seeds : 0;
  const double share_b = b.seeds ? static_cast<double>(b.learned) / b.seeds : 0;
  if (share_a != share_b) return share_a > share_b;
  if (a.train_acc != b.train_acc) return a.train_acc > b.train_acc;
  const double inf = std::numeric_limits<double>::infinity();
  const double step_a = std::isfinite(a.first_solved_step) ? a.first_solved_step : inf;
  const double step_b = std::isfinite(b.first_solved_step) ? b.first_solved_step : inf;
  if (step_a != step_b) return step_a < step_b;
  const double loss_a = std::isfinite(a.train_loss) ? a.train_loss : inf;
  const double loss_b = std::isfinite(b.train_loss) ? b.train_loss : inf;
  return loss_a < loss_b;
}

}  // namespace

std::pair<std::string, std::string> split_rate(const std::string& variant) {
  std::string rest, lr;
  std::stringstream ss(variant);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.rfind("lr=", 0) == 0) lr = item.substr(3);
    else rest += (rest.empty() ? "" : ",") + item;
  }
  return {rest, lr};
}

RateSelection select_learning_rates(const std::vector<RunRecord>& runs, double solved, uint64_t scored_below) {
  RateSelection out;
  out.scored_below = scored_below;
  std::vector<CellKey> cells;  // in order of first appearance
  std::map<CellKey, std::vector<std::string>> rates;
  std::map<std::pair<CellKey, std::string>, std::vector<const RunRecord*>> groups;
  bool swept = false;
  for (const RunRecord& r : runs) {
    const auto [rest, lr] = split_rate(r.variant);
    swept = swept || !lr.empty();
    const CellKey key{r.task, r.encoding, rest};
    if (std::find(cells.begin(), cells.end(), key) == cells.end()) cells.push_back(key);
    auto& listed = rates[key];
    if (std::find(listed.begin(), listed.end(), lr) == listed.end()) listed.push_back(lr);
    if (r.seed < scored_below) groups[{key, lr}].push_back(&r);
  }
  if (!swept) {
    out.selected = runs;
    return out;
  }
  std::map<CellKey, std::string> chosen;
  for (const CellKey& key : cells) {
    RateChoice c;
    std::tie(c.task, c.encoding, c.variant) = key;
    for (const std::string& lr : rates[key]) c.rates.push_back(score(lr, groups[{key, lr}], solved));
    for (size_t i = 1; i < c.rates.size(); ++i)
      if (better(c.rates[i], c.rates[c.selected])) c.selected = i;
    for (const std::string& lr : rates[key])
      for (const RunRecord* r : groups[{key, lr}])
        for (const auto& [len, points] : r->log.eval) {
          if (points.empty() || !std::isfinite(points.back().acc)) continue;
          auto [it, fresh] = c.best_of.emplace(len, points.back().acc);
          if (!fresh) it->second = std::max(it->second, points.back().acc);
        }
    chosen[key] = c.rates[c.selected].lr;
    out.choices.push_back(std::move(c));
  }
  for (const RunRecord& r : runs) {
    const auto [rest, lr] = split_rate(r.variant);
    if (chosen[CellKey{r.task, r.encoding, rest}] != lr) continue;
    RunRecord kept = r;
    kept.variant = rest;
    out.selected.push_back(std::move(kept));
  }
  return out;
}

std::string rate_label(const std::string& lr) {
  char* end = nullptr;
  const double v = std::strtod(lr.c_str(), &end);
  if (lr.empty() || *end != '\0') return lr;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::vector<std::string> rate_tasks(const RateSelection& selection) {
  std::vector<std::string> tasks;
  for (const RateChoice& c : selection.choices)
    if (std::find(tasks.begin(), tasks.end(), c.task) == tasks.end()) tasks.push_back(c.task);
  return tasks;
}

std::vector<std::vector<std::string>> rate_table(const RateSelection& selection, const std::string& task,
                                                 bool mark_chosen) {
  std::vector<std::vector<std::string>> rows = {{"encoding", "chosen lr", "every rate"}};
  for (const RateChoice& c : selection.choices) {
    if (c.task != task) continue;
    std::string every;
    for (size_t i = 0; i < c.rates.size(); ++i) {
      const RateScore& s = c.rates[i];
      const std::string text = rate_label(s.lr) + ": " + std::to_string(s.learned) + "/" + std::to_string(s.seeds) +
                               ", acc " + fixed_or_dash(s.train_acc, 3) + ", step " +
                               fixed_or_dash(s.first_solved_step, 0);
      every += (i ? "; " : "") + (mark_chosen && i == c.selected ? "**" + text + "**" : text);
    }
    rows.push_back({run_label(c.encoding, c.variant), rate_label(c.rates[c.selected].lr), every});
  }
  return rows;
}

std::vector<std::vector<std::string>> literature_table(const RateSelection& selection, const std::string& task) {
  std::vector<int64_t> lengths;
  for (const RateChoice& c : selection.choices)
    if (c.task == task)
      for (const auto& [len, acc] : c.best_of)
        if (std::find(lengths.begin(), lengths.end(), len) == lengths.end()) lengths.push_back(len);
  std::sort(lengths.begin(), lengths.end());
  std::vector<std::vector<std::string>> rows = {{"encoding"}};
  for (int64_t len : lengths) rows[0].push_back("best acc " + (len == 0 ? std::string("train") : "@" + std::to_string(len)));
  for (const RateChoice& c : selection.choices) {
    if (c.task != task) continue;
    std::vector<std::string> row = {run_label(c.encoding, c.variant)};
    for (int64_t len : lengths) {
      const auto it = c.best_of.find(len);
      row.push_back(it == c.best_of.end() ? std::string("-") : fixed_or_dash(it->second, 3));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string rate_selection_rule(double solved, uint64_t scored_below) {
  std::string rule =
      "Each cell's tables, findings and figures are its runs at one learning rate, chosen on the held-out "
      "training-length set only (never a longer length): the most seeds at >= " + fixed_or_dash(solved, 2) +
      " there, then the highest mean accuracy there, then the earliest mean step reaching " +
      fixed_or_dash(solved, 2) + ", then the lowest loss there (docs/spec.md §7.6). Each rate: seeds learned / "
      "seeds, mean training-length accuracy, mean first step >= " + fixed_or_dash(solved, 2) + ".";
  if (scored_below != UINT64_MAX)
    rule += " Every rate is scored on seeds below " + std::to_string(scored_below) +
            " only, the seeds every rate trained (--lr-seeds); the chosen rate's later seeds, which the choice "
            "never read, are in the tables.";
  return rule;
}

std::string literature_view_title(uint64_t scored_below) {
  return std::string("The literature's view: best of every ") +
         (scored_below == UINT64_MAX ? "seed and rate" : "rate on the seeds they share");
}

std::string literature_view_note(uint64_t scored_below) {
  return "For comparison with papers only (Deletang et al. 2023 and Ruoss et al. 2023 report the best run over "
         "seeds and learning rates): the highest final accuracy of any run of the cell, at any rate, at each "
         "length" + (scored_below == UINT64_MAX ? std::string()
                                               : " (of the seeds below " + std::to_string(scored_below) +
                                                     ", which every rate trained: --lr-seeds)") +
         ". It reads the test lengths, so it is not a selection rule: the tables above are.";
}

std::string render_rate_selection_markdown(const RateSelection& selection, double solved) {
  if (selection.choices.empty()) return "";
  std::ostringstream os;
  os << "\n## Learning rates\n\n" << rate_selection_rule(solved, selection.scored_below) << " **Bold** = chosen.\n\n";
  const std::vector<std::string> tasks = rate_tasks(selection);
  for (const std::string& task : tasks) {
    os << "### " << task << "\n\n";
    os << markdown_table(rate_table(selection, task, true), {"encoding", "every rate"});
    os << "\n";
  }
  os << "## " << literature_view_title(selection.scored_below) << "\n\n" << literature_view_note(selection.scored_below)
     << "\n\n";
  for (const std::string& task : tasks) {
    os << "### " << task << "\n\n";
    os << markdown_table(literature_table(selection, task), {"encoding"});
    os << "\n";
  }
  return os.str();
}

}  // namespace ordo
