#include "experiments/progress.h"

#include "report/summary.h"  // format_duration

#include <cstdio>
#include <unistd.h>

namespace ordo {

Progress::Progress(bool quiet, int plain_every)
    : quiet_(quiet), tty_(isatty(STDOUT_FILENO) != 0), plain_every_(plain_every) {}

Progress::~Progress() {
  if (tty_ && last_width_ > 0 && !quiet_) std::printf("\n");
}

void Progress::update(int64_t done, int64_t total, const std::string& text, double seconds) {
  if (quiet_) return;
  ++updates_;
  const double rate = seconds > 0 ? done / seconds : 0;
  const double eta = rate > 0 ? (total - done) / rate : -1;
  char head[96];
  std::snprintf(head, sizeof head, "[%lld/%lld] ", static_cast<long long>(done), static_cast<long long>(total));
  std::string line = head + text + "  ETA " + (done >= total ? std::string("0s") : format_duration(eta));
  if (tty_) {
    std::string padded = line;
    if (padded.size() < last_width_) padded.append(last_width_ - padded.size(), ' ');
    std::printf("\r%s", padded.c_str());
    std::fflush(stdout);
    last_width_ = line.size();
  } else if (updates_ % plain_every_ == 0 || done >= total) {
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
  }
}

void Progress::message(const std::string& text) {
  if (quiet_) return;
  if (tty_ && last_width_ > 0) {
    std::printf("\r%s\r", std::string(last_width_, ' ').c_str());
  }
  std::printf("%s\n", text.c_str());
  std::fflush(stdout);
  last_width_ = 0;
}

void Progress::finish(const std::string& text) {
  if (quiet_) return;
  if (tty_ && last_width_ > 0) std::printf("\n");
  last_width_ = 0;
  if (!text.empty()) std::printf("%s\n", text.c_str());
  std::fflush(stdout);
}

}  // namespace ordo
