// train/run_log.cpp: the one-line summary of a run's evaluations (see run_log.h).
#include "train/run_log.h"

#include <sstream>
#include <utility>

#include "train/stopping.h"

namespace ordo {

std::string machine_of(const std::string& entry) {
  const size_t colon = entry.find(": ");
  return entry.starts_with("from step ") && colon != std::string::npos ? entry.substr(colon + 2) : entry;
}

std::string eval_summary(const RunLog& log) {
  std::ostringstream os;
  os.precision(3);
  os << std::fixed;
  std::vector<std::pair<int64_t, double>> beyond;
  for (const auto& [len, points] : log.eval) {
    if (points.empty()) continue;
    if (len == 0) os << "acc " << points.back().acc;
    else beyond.emplace_back(len, points.back().acc);
  }
  if (beyond.size() <= kSweepLengths) {
    for (const auto& [len, acc] : beyond) os << " @" << len << " " << acc;
  } else {
    double sum = 0;
    for (const auto& [len, acc] : beyond) sum += acc;
    os << " @" << beyond.front().first << ".." << beyond.back().first << " mean "
       << sum / static_cast<double>(beyond.size()) << " over " << beyond.size() << " lengths (@"
       << beyond.front().first << " " << beyond.front().second << ", @" << beyond.back().first << " "
       << beyond.back().second << ")";
  }
  // A --until-learned run (train/stopping.h): why it stopped.
  if (log.stop_reason.empty()) return os.str();
  switch (parse_stop(log.stop_reason)) {
    case Stop::learned: os << "; learned, stopped at step " << log.stop_step; break;
    case Stop::no_progress: os << "; no progress, stopped at step " << log.stop_step; break;
    case Stop::max_steps: os << "; not learned in " << log.stop_step << " steps"; break;
    case Stop::go: break;
  }
  return os.str();
}

}  // namespace ordo
