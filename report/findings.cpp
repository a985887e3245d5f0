// report/findings.cpp: the findings, sentences that each state what the runs and a named
// test support (see findings.h).
#include "report/findings.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/strings.h"
#include "report/statistics.h"

namespace ordo {

bool still_improving(const SeedOutcome& s, const FindingThresholds& th) {
  return std::isfinite(s.loss_last) && std::isfinite(s.loss_mid) && s.loss_last < (1 - th.improving) * s.loss_mid;
}

namespace {


// What the findings need of one cell (task, encoding), over its seeds.
struct CellOutcome {
  const EncodingSummary* e = nullptr;
  int seeds = 0, solved = 0, improving = 0, at_chance = 0;
  // Seeds no better than a constant answer (TaskSummary::floor_at): on the training lengths,
  // and in their mean over the extrapolation lengths.
  int at_floor = 0, at_floor_beyond = 0;
  int64_t reach_all = 0;   // longest extrapolation length every seed reaches (0 = none)
  int64_t reach_best = 0;  // longest one some seed reaches
  int reach_best_seeds = 0;
};

CellOutcome outcome(const EncodingSummary& e, const std::vector<int64_t>& extra, const TaskSummary& t,
                    const FindingThresholds& th) {
  const double chance = t.chance;
  const bool skewed = t.skewed(th.chance_margin);
  CellOutcome c;
  c.e = &e;
  c.seeds = static_cast<int>(e.per_seed.size());
  bool first = true;
  for (const SeedOutcome& s : e.per_seed) {
    auto it = s.acc.find(0);
    const double train = it == s.acc.end() ? kNaN : it->second;
    const bool solved = s.learned(th.solved);
    c.solved += solved;
    if (!solved && still_improving(s, th)) ++c.improving;
    if (std::isfinite(chance) && std::isfinite(train) && std::fabs(train - chance) <= th.chance_margin) ++c.at_chance;
    if (skewed) {
      const double floor = t.floor_at(0, th.chance_margin);
      if (std::isfinite(train) && train <= floor + th.chance_margin) ++c.at_floor;
      // The seed's mean over its own extrapolation lengths, against the share's mean over the same ones.
      double acc_sum = 0, share_sum = 0;
      int64_t n = 0;
      bool complete = true;
      for (const auto& [len, acc] : s.acc) {
        if (len <= 0) continue;
        const auto share = t.commonest.find(len);
        complete = complete && share != t.commonest.end() && std::isfinite(share->second);
        if (!complete) break;
        acc_sum += acc, share_sum += share->second, ++n;
      }
      if (complete && n > 0 && acc_sum <= share_sum + static_cast<double>(n) * th.chance_margin) ++c.at_floor_beyond;
    }
    int64_t longest = 0;
    for (int64_t len : extra) {
      auto a = s.acc.find(len);
      if (a == s.acc.end() || !(a->second >= th.extrapolates)) break;
      longest = len;
    }
    c.reach_all = first ? longest : std::min(c.reach_all, longest);
    first = false;
    if (longest > c.reach_best) c.reach_best = longest, c.reach_best_seeds = 0;
    if (longest == c.reach_best) ++c.reach_best_seeds;
  }
  return c;
}

std::string of_seeds(int k, int n) { return std::to_string(k) + " of " + std::to_string(n) + " seeds"; }

}  // namespace


namespace {

std::string p_text(double p) { return p < 0.001 ? std::string("< 0.001") : "= " + fixed(p, 3); }

// The steps at which each seed first reached `solved` on the training lengths (all seeds
// reached it where this is asked).
std::vector<double> first_steps(const EncodingSummary& e) {
  std::vector<double> out;
  for (const SeedOutcome& s : e.per_seed)
    if (s.first_solved >= 0) out.push_back(static_cast<double>(s.first_solved));
  return out;
}

// The fastest encoding against the next fastest that every seed solved too, by the same
// permutation test as compare_top_two, on the seeds' first steps: "" when there is none.
std::string against_runner_up(const TaskSummary& t, const EncodingSummary& fastest, const std::vector<int64_t>& extra,
                              const FindingThresholds& th) {
  const EncodingSummary* next = nullptr;
  for (const EncodingSummary* e : ranked_rows(t)) {
    const CellOutcome c = outcome(*e, extra, t, th);
    const bool all = c.seeds > 0 && c.solved == c.seeds && e->seeds_solved == e->seeds;
    if (all && e->first_solved_step.mean > fastest.first_solved_step.mean &&
        (!next || e->first_solved_step.mean < next->first_solved_step.mean))
      next = e;
  }
  if (!next) return "";
  const std::vector<double> a = first_steps(fastest), b = first_steps(*next);
  const std::string other = next->label() + " (step " + fixed(next->first_solved_step.mean, 0) + ")";
  const std::string runs = std::to_string(a.size()) + " vs " + std::to_string(b.size()) + " runs";
  const double floor = smallest_permutation_p(static_cast<int64_t>(a.size()), static_cast<int64_t>(b.size()));
  if (floor >= 0.05) return "; with " + runs + " no permutation test tells it from the next, " + other;
  const double p = permutation_p_value(a, b);
  if (p < 0.05) return "; ahead of the next, " + other + ", by a permutation test, p " + p_text(p) + ", " + runs;
  return "; not told apart from the next, " + other + ": permutation test p " + p_text(p) + ", " + runs;
}

// A ranking claim of the findings: the two encodings with the highest mean at the
// longest length, over the runs that learned their training lengths, told apart only by a
// two-sided permutation test of the difference of means (p < 0.05), given with the 95%
// bootstrap interval of the difference (report/statistics.h). "" with fewer than two such cells.
std::string compare_top_two(const TaskSummary& t, int64_t length, const FindingThresholds& th) {
  std::vector<std::pair<const EncodingSummary*, std::vector<double>>> cells;
  for (const EncodingSummary& e : t.rows) {
    std::vector<double> v = learned_accuracies(e, length, th.solved);
    if (!v.empty()) cells.emplace_back(&e, std::move(v));
  }
  if (cells.size() < 2) return "";
  std::stable_sort(cells.begin(), cells.end(), [](const auto& a, const auto& b) { return mean_of(a.second) > mean_of(b.second); });
  const auto& [a, va] = cells[0];
  const auto& [b, vb] = cells[1];
  const Interval d = bootstrap_difference_interval(va, vb);
  const double p = permutation_p_value(va, vb);
  const double floor = smallest_permutation_p(static_cast<int64_t>(va.size()), static_cast<int64_t>(vb.size()));
  const std::string seeds = std::to_string(va.size()) + " vs " + std::to_string(vb.size()) + " runs";
  const std::string gap = fixed(d.estimate, 3) + " [" + fixed(d.low, 3) + ", " + fixed(d.high, 3) + "]";
  const std::string where = "At " + length_label(t, length) + ", over the runs that learned the training lengths: ";
  const std::string pair = a->label() + " (" + fixed(mean_of(va), 3) + ") and " + b->label() + " (" +
                           fixed(mean_of(vb), 3) + ")";
  if (floor >= 0.05)
    return where + pair + " are not ranked: with " + seeds + " no permutation test reaches p < 0.05 (its smallest p is " +
           fixed(floor, 3) + "); difference " + gap + ".";
  if (p < 0.05)
    return where + a->label() + " beats " + b->label() + " by " + gap + " (95% bootstrap interval), permutation test p " +
           p_text(p) + ", " + seeds + ".";
  return where + pair + " cannot be told apart: difference " + gap + ", permutation test p " + p_text(p) + ", " +
         seeds + ".";
}

}  // namespace


namespace {

// "a, b and c", or with more than kMaxNames names "a, b, c, d, e and 4 more (see the table)".
std::string capped(const std::vector<std::string>& names) {
  if (static_cast<int>(names.size()) <= kMaxNames) return join(names, ", ", " and ");
  std::vector<std::string> shown(names.begin(), names.begin() + kMaxNames);
  return join(shown, ", ") + " and " + std::to_string(names.size() - kMaxNames) + " more (see the table)";
}

}  // namespace

std::string findings_legend(const std::vector<TaskSummary>& tasks, const FindingThresholds& th) {
  bool several_seeds = false;
  for (const TaskSummary& t : tasks)
    for (const EncodingSummary& e : t.rows) several_seeds = several_seeds || e.seeds > 1;
  return std::string(several_seeds ? "Each sentence holds in every seed unless it gives a count. "
                                   : "One seed per cell: each sentence is one run's result, not a rate. ") +
         "Solved: accuracy >= " + fixed(th.solved, 2) + " on the training lengths at the end of training. " +
         "Still improving: the training loss fell by more than " + percent(th.improving) +
         " over the second half of the run; converged otherwise. At chance: within " + fixed(th.chance_margin, 2) +
         " of the task's chance level, converged. No better than the commonest answer: every seed at most " +
         fixed(th.chance_margin, 2) + " above the share the training lengths' commonest answer has in the "
         "evaluation sets (what always giving it scores), on the training lengths or averaged over the longer ones; "
         "said of a task whose answers are skewed (that share above chance by more than " +
         fixed(th.chance_margin, 2) + " and a large sample's noise). Holds up to L: accuracy >= " + fixed(th.extrapolates, 2) +
         " at every evaluation length up to L. Beats: at the longest length, over the runs that learned the training "
         "lengths, the two highest means differ by a two-sided permutation test of the difference of means at p < 0.05 "
         "(the 95% bootstrap interval of the difference beside it); otherwise they are not ranked. Fastest: the "
         "smallest mean first step at " + fixed(th.solved, 2) + ", set against the next fastest by the same test on "
         "the seeds' steps. Encodings are named best first (the table's order), at most " +
         std::to_string(kMaxNames) + " per sentence. Computed from the runs (report/findings.h), not written by hand.";
}

std::vector<Finding> findings(const std::vector<TaskSummary>& tasks, const FindingThresholds& th) {
  std::vector<Finding> out;
  std::map<std::string, int> solved_count;     // encoding -> tasks solved in every seed
  std::map<std::string, int> improving_count;  // encoding -> tasks not solved by every seed, still improving
  std::vector<std::string> all_encodings;
  for (const TaskSummary& t : tasks) {
    auto say = [&](const std::string& text) { out.push_back(Finding{t.task, text}); };
    std::vector<int64_t> extra;  // extrapolation lengths, increasing
    for (int64_t len : t.lengths)
      if (len > 0) extra.push_back(len);
    int64_t steps = 0;
    for (const EncodingSummary& e : t.rows)
      for (const SeedOutcome& s : e.per_seed) steps = std::max(steps, s.steps);
    const std::string within = std::to_string(steps) + " steps";

    std::vector<std::string> solved_every, solved_some, improving, converged, chance;
    std::vector<std::string> at_floor, at_floor_beyond;  // no better than a constant answer
    std::map<int64_t, std::vector<std::string>> reach;  // longest length every seed reaches -> encodings
    std::vector<std::string> no_extrapolation;
    const EncodingSummary* best = nullptr;
    const EncodingSummary* fastest = nullptr;
    for (const EncodingSummary* row : ranked_rows(t)) {
      const EncodingSummary& e = *row;
      if (std::find(all_encodings.begin(), all_encodings.end(), e.label()) == all_encodings.end())
        all_encodings.push_back(e.label());
      const CellOutcome c = outcome(e, extra, t, th);
      const double train = mean_acc(e, 0);
      if (std::isfinite(train) && (!best || train > mean_acc(*best, 0))) best = &e;
      if (c.seeds > 0 && c.solved == c.seeds) {
        solved_every.push_back(e.label());
        ++solved_count[e.label()];
      } else if (c.solved > 0) {
        solved_some.push_back(e.label() + " (" + std::to_string(c.solved) + " of " + std::to_string(c.seeds) + ")");
        ++improving_count[e.label()];  // other seeds solve it: not a limit of the encoding
      } else if (c.improving > 0) {
        ++improving_count[e.label()];
        improving.push_back(e.label() + (c.seeds > 1 && c.improving < c.seeds
                                             ? " (" + of_seeds(c.improving, c.seeds) + ")"
                                             : std::string()));
      } else if (c.seeds > 0 && c.at_chance == c.seeds) {
        chance.push_back(e.label());
      } else {
        converged.push_back(e.label());
      }
      const bool said_at_chance = !chance.empty() && chance.back() == e.label();
      if (c.seeds > 0 && c.at_floor == c.seeds && !said_at_chance) at_floor.push_back(e.label());
      if (c.seeds > 0 && c.at_floor_beyond == c.seeds) at_floor_beyond.push_back(e.label());
      // Fastest among the encodings every seed solves, at the findings' threshold.
      if (c.seeds > 0 && c.solved == c.seeds && e.seeds_solved == e.seeds && e.seeds > 0 &&
          (!fastest || e.first_solved_step.mean < fastest->first_solved_step.mean))
        fastest = &e;
      if (extra.empty() || c.solved == 0) continue;  // generalising what it never learned means nothing
      std::string label = e.label();
      if (c.solved < c.seeds) label += " (solved in " + of_seeds(c.solved, c.seeds) + ")";
      if (c.reach_best > c.reach_all)
        label += " (" + length_label(t, c.reach_best) + " in " + of_seeds(c.reach_best_seeds, c.seeds) + ")";
      if (c.reach_all > 0) reach[c.reach_all].push_back(label);
      else no_extrapolation.push_back(label);
    }

    if (!solved_every.empty()) say("Solved by " + capped(solved_every) + ".");
    if (!solved_some.empty()) say("Solved by some seeds only: " + capped(solved_some) + ".");
    if (solved_every.empty() && solved_some.empty()) {
      // The highest mean, and every encoding whose seeds reach the best one's lowest seed:
      // with overlapping ranges the seeds do not rank them.
      std::string top;
      if (best) {
        const Stat& b = best->acc.at(0);
        std::vector<std::string> overlap;
        for (const EncodingSummary* e : ranked_rows(t)) {
          auto it = e->acc.find(0);
          if (e != best && it != e->acc.end() && it->second.n > 0 && it->second.max >= b.min)
            overlap.push_back(e->label());
        }
        top = "; highest: " + best->label() + " at " + fixed(b.mean, 3) +
              (overlap.empty() ? std::string() : ", its seeds' range overlapping " + capped(overlap));
      }
      say("Solved by no encoding in any seed within " + within + top + ".");
    }
    if (!improving.empty()) say("Not solved, still improving at " + within + ": " + capped(improving) + ".");
    if (!converged.empty()) say("Not solved, converged: " + capped(converged) + ".");
    if (!chance.empty() && std::isfinite(t.chance))
      say("At chance (" + fixed(t.chance, 3) + "): " + capped(chance) + ".");
    // Where a constant answer beats chance (skewed answers), a model may sit above chance and
    // still have learned nothing: said against the commonest answer's share of the same sets.
    if (t.skewed(th.chance_margin)) {
      const std::string chance_note = "; chance " + fixed(t.chance, 3);
      const auto train_share = t.commonest.find(0), mean_share = t.commonest.find(kMeanBeyond);
      if (!at_floor.empty() && train_share != t.commonest.end())
        say("No better on the training lengths than always giving their commonest answer (" +
            fixed(train_share->second, 3) + chance_note + "): " + capped(at_floor) + ".");
      if (!extra.empty() && !at_floor_beyond.empty() && mean_share != t.commonest.end())
        say("Averaged over the " + std::to_string(extra.size()) + " lengths " + std::to_string(extra.front()) + "-" +
            std::to_string(extra.back()) + ", no better than always giving the training lengths' commonest answer (" +
            fixed(mean_share->second, 3) + chance_note + "): " + capped(at_floor_beyond) + ".");
    }
    if (!extra.empty()) {
      for (auto it = reach.rbegin(); it != reach.rend(); ++it)
        say((it->first == extra.back() ? "Holds up to " + length_label(t, it->first)
                                       : "Holds up to " + length_label(t, it->first) + " only") +
            ": " + capped(it->second) + ".");
      if (!no_extrapolation.empty())
        say("Solved, but not beyond the training lengths: " + capped(no_extrapolation) + ".");
    }
    if (!extra.empty()) {
      const std::string compared = compare_top_two(t, extra.back(), th);
      if (!compared.empty()) say(compared);
    }
    if (fastest) {
      // Every encoding at the fastest one's mean step: a tie names them all (with one
      // evaluation every 250 steps, ties are common).
      std::vector<std::string> tied;
      for (const EncodingSummary* e : ranked_rows(t)) {
        const CellOutcome c = outcome(*e, extra, t, th);
        if (c.seeds > 0 && c.solved == c.seeds && e->seeds_solved == e->seeds &&
            e->first_solved_step.mean == fastest->first_solved_step.mean)
          tied.push_back(e->label());
      }
      say("Fastest to " + fixed(th.solved, 2) + ": " + capped(tied) + (tied.size() > 1 ? " (tied at step " : " (step ") +
          fixed(fastest->first_solved_step.mean, 0) +
          (fastest->seeds > 1 ? ", mean of " + std::to_string(fastest->seeds) + " seeds" : std::string()) + ")" +
          against_runner_up(t, *fastest, extra, th) + ".");
    }
  }
  if (tasks.size() > 1) {
    auto say = [&](const std::string& text) { out.push_back(Finding{"", text}); };
    std::vector<std::string> every;
    int most = 0;
    for (const std::string& e : all_encodings) most = std::max(most, solved_count[e]);
    for (const std::string& e : all_encodings)
      if (solved_count[e] == static_cast<int>(tasks.size())) every.push_back(e);
    const std::string n = std::to_string(tasks.size());
    if (!every.empty()) {
      say("Solves all " + n + " tasks: " + capped(every) + ".");
    } else if (most > 0) {
      std::vector<std::string> top, could;
      for (const std::string& e : all_encodings) {
        if (solved_count[e] == most) top.push_back(e);
        else if (solved_count[e] + improving_count[e] >= most) could.push_back(e);
      }
      say("No encoding solves all " + n + " tasks; most solved (" + std::to_string(most) + " of " + n +
          "): " + capped(top) + ".");
      if (!could.empty())
        say("Not ranked below them, being still improving (or solved by some seeds) where not solved: " +
            capped(could) + ".");
    } else {
      say("No encoding solves any task in every seed.");
    }
  }
  return out;
}

}  // namespace ordo
