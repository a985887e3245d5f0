// cluster/shared_cores.cpp: see cluster/shared_cores.h.
#include "cluster/shared_cores.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <mutex>
#include <sched.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include <omp.h>

namespace ordo {

namespace {

struct State {
  std::mutex mu;
  bool joined = false;
  std::string dir;
  int fd = -1;  // our file, flock held
  int limit = 1;
  int cores = 1;
  CoreShare share;
  std::chrono::steady_clock::time_point read_at;
  ~State() {  // a normal exit removes our file; after any other end, the next reader does
    if (fd < 0) return;
    ::unlink((dir + "/" + std::to_string(static_cast<long>(::getpid()))).c_str());
    ::close(fd);
  }
};

State& state() {
  static State s;
  return s;
}

int allowed_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return static_cast<int>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
}

bool is_pid_name(const char* name) {
  if (!*name) return false;
  for (const char* c = name; *c; ++c)
    if (*c < '0' || *c > '9') return false;
  return true;
}

// The pids registered and alive; removes the files of processes that ended.
std::vector<long> alive(const State& s) {
  std::vector<long> pids;
  DIR* d = ::opendir(s.dir.c_str());
  if (!d) return pids;
  const long self = ::getpid();
  while (const dirent* e = ::readdir(d)) {
    if (!is_pid_name(e->d_name)) continue;
    const long pid = std::atol(e->d_name);
    if (pid == self) {
      pids.push_back(pid);
      continue;
    }
    const std::string path = s.dir + "/" + e->d_name;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;  // removed meanwhile
    if (::flock(fd, LOCK_SH | LOCK_NB) == 0) {
      ::unlink(path.c_str());  // nobody holds it: its process ended (fails harmlessly for another user's file)
    } else if (errno == EWOULDBLOCK) {
      pids.push_back(pid);
    }
    ::close(fd);
  }
  ::closedir(d);
  return pids;
}

void refresh(State& s) {
  std::vector<long> pids = alive(s);
  const long self = ::getpid();
  if (std::find(pids.begin(), pids.end(), self) == pids.end()) pids.push_back(self);  // our file was removed by hand
  std::sort(pids.begin(), pids.end());
  const int n = static_cast<int>(pids.size());
  const int rank = static_cast<int>(std::find(pids.begin(), pids.end(), self) - pids.begin());
  const int share = s.cores / n + (rank < s.cores % n ? 1 : 0);
  s.share = CoreShare{std::clamp(share, 1, s.limit), s.cores, n, s.limit};
  s.read_at = std::chrono::steady_clock::now();
}

// Warns once and leaves the sharing off.
void give_up(State& s, const std::string& what) {
  std::fprintf(stderr, "ordo: note: %s %s (%s); training with all %d thread(s), not sharing the cores with other ordo processes\n",
               what.c_str(), s.dir.c_str(), std::strerror(errno), s.limit);
  if (s.fd >= 0) ::close(s.fd);
  s.fd = -1;
}

}  // namespace

void join_shared_cores() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.joined) return;
  s.limit = std::max(1, omp_get_max_threads());
  s.cores = allowed_cores();
  s.share = CoreShare{s.limit, s.cores, 1, s.limit};
  const char* off = std::getenv("ORDO_SHARE_CORES");
  if (off && std::string(off) == "0") return;
  const char* dir = std::getenv("ORDO_SHARE_DIR");
  s.dir = dir && *dir ? dir : "/tmp/ordo-share";
  if (::mkdir(s.dir.c_str(), 01777) == 0) {
    ::chmod(s.dir.c_str(), 01777);  // past the umask: every user's processes register here
  } else if (errno != EEXIST) {
    return give_up(s, "cannot create");
  }
  // Created under a temporary name, locked, then renamed: a reader never sees our file unlocked.
  const std::string pid = std::to_string(static_cast<long>(::getpid()));
  const std::string tmp = s.dir + "/." + pid + ".new";
  s.fd = ::open(tmp.c_str(), O_RDONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (s.fd < 0) return give_up(s, "cannot register in");
  if (::flock(s.fd, LOCK_EX) != 0 || ::rename(tmp.c_str(), (s.dir + "/" + pid).c_str()) != 0) {
    ::unlink(tmp.c_str());
    return give_up(s, "cannot register in");
  }
  s.joined = true;
  refresh(s);
  // From the start: the setup before the first step (evaluation sets, the memory estimate,
  // the step-0 evaluation) runs on this share too.
  omp_set_num_threads(s.share.threads);
}

CoreShare shared_cores() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (!s.joined) {
    const int threads = std::max(1, omp_get_max_threads());
    return CoreShare{threads, allowed_cores(), 1, threads};
  }
  if (std::chrono::steady_clock::now() - s.read_at > std::chrono::milliseconds(500)) refresh(s);
  return s.share;
}

std::string describe(const CoreShare& share) {
  const std::string cores = std::to_string(share.cores) + (share.cores == 1 ? " core" : " cores");
  if (share.processes == 1) return "ordo runs alone on these " + cores + " again: " + std::to_string(share.threads) +
                                   (share.threads == 1 ? " thread" : " threads");
  return std::to_string(share.processes) + " ordo processes share these " + cores + ": this one now takes " +
         std::to_string(share.threads);
}

}  // namespace ordo
