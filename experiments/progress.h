// experiments/progress.h: the live progress line.
//
// On a terminal one line is rewritten in place ("\r"); otherwise plain lines are printed
// every `plain_every` updates so logs stay readable; quiet prints nothing.
#pragma once

#include <string>

namespace ordo {

class Progress {
 public:
  Progress(bool quiet, int plain_every = 100);
  ~Progress();
  void update(int64_t done, int64_t total, const std::string& text, double seconds);
  void finish(const std::string& text);  // ends the live line and prints text
  void message(const std::string& text);  // a line of its own, keeping the live line
  bool on_terminal() const { return tty_; }

 private:
  bool quiet_, tty_;
  int plain_every_;
  int64_t updates_ = 0;
  size_t last_width_ = 0;
};

}  // namespace ordo
