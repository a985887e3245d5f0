// train/run_log.cpp: the one-line summary of a run's evaluations (see run_log.h).
#include "train/run_log.h"

#include <sstream>
#include <utility>

namespace ordo {

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
  return os.str();
}

}  // namespace ordo
