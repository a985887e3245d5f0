// cluster/shared_cores.h: ordo processes on one machine share its cores instead of fighting
// over them.
//
// libgomp's threads spin for a while at the end of each parallel region before they sleep.
// On a quiet machine that is what makes ordo fast; two processes that each run a team of
// OpenMP threads on the same cores spin against each other instead: two 1000-step `order`
// runs at once took 500 s each on 2 cores, 7.6 s alone (docs/performance.md). So each ordo
// process registers itself in a directory that all of them read, and trains with its share
// of the cores: the cores this process may run on (sched_getaffinity), divided among the
// ordo processes alive now, the first ones (by pid) taking the remainder, never more than the
// process's own limit (OMP_NUM_THREADS, or one per core) and never fewer than one.
// A process alone keeps all its threads. A run's numbers never depend on its thread count
// (core/parallel.h), so changing it between steps changes no result.
//
// The directory is $ORDO_SHARE_DIR, or /tmp/ordo-share (world-writable and sticky, so the
// processes of every user on the machine see each other). A process is alive while it holds
// the flock on its file; the kernel drops that lock however the process ends, and the next
// reader removes the file. ORDO_SHARE_CORES=0 turns the sharing off (the process then neither
// registers nor adapts).
#pragma once

#include <string>

namespace ordo {

// Registers this process for the rest of its life and sets its OpenMP threads to its share;
// called once, by the ordo program's main, before any work.
// A directory that cannot be used only turns the sharing off (with one line on stderr):
// training must not fail because of it.
void join_shared_cores();

struct CoreShare {
  int threads = 1;     // this process's share now
  int cores = 1;       // cores this process may run on
  int processes = 1;   // ordo processes registered, this one included
  int limit = 1;       // OMP_NUM_THREADS, or the core count: the threads when alone
};

// This process's share, read from the directory at most every half second (cheap to call
// at every step). Before join_shared_cores(), or with the sharing off: the full limit.
CoreShare shared_cores();

// "2 ordo processes share 2 cores: 1 thread each" and the like, for progress messages.
std::string describe(const CoreShare& share);

}  // namespace ordo
