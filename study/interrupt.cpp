// study/interrupt.cpp: see study/interrupt.h.
#include "study/interrupt.h"

#include <csignal>

namespace ordo {
namespace {

volatile std::sig_atomic_t g_signal = 0;

// The first signal is recorded, and both signals get their default action back: a second
// one ends the process in the kernel, as an unhandled signal does (the shell sees 130, 143),
// with none of our code running. The handler once called _exit(128 + sig) for the second
// signal; AddressSanitizer intercepts _exit and checks memory inside the handler, and CI
// saw that fail (a heap-buffer-overflow report, exit 1) about once in fifteen tries.
// signal() is async-signal-safe. Both signals are blocked while this runs (sa_mask), so a
// second one sent at the same moment is delivered after the reset, and kills.
extern "C" void on_signal(int sig) {
  g_signal = sig;
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  action.sa_flags = SA_RESTART;  // a write in progress is not cut short by the request
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int interrupt_signal() { return g_signal; }

std::string signal_name(int signal) {
  if (signal == SIGINT) return "SIGINT";
  if (signal == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signal);
}

}  // namespace ordo
