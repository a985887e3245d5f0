// study/interrupt.h: Ctrl-C and SIGTERM stop training without losing it.
//
// install_interrupt_handlers() (called by `ordo train` and `ordo compare`) makes the first
// SIGINT or SIGTERM a request: the training loops (study/run_directory.h, study/study.h)
// finish the step they are in, checkpoint every running run, write the logs, and throw
// Interrupted; the front end exits with 128 + the signal (130, 143) and says how to
// resume. A second signal exits at once, like an unhandled one.
#pragma once

#include <string>

#include "core/error.h"

namespace ordo {

void install_interrupt_handlers();
// The first signal received since install_interrupt_handlers(), or 0.
int interrupt_signal();
// "SIGINT", "SIGTERM".
std::string signal_name(int signal);

// Thrown by a training loop that stopped for a signal, after saving everything.
struct Interrupted : Error {
  int signal;
  Interrupted(int sig, const std::string& what) : Error(what), signal(sig) {}
};

}  // namespace ordo
