// cluster/cluster.cpp: see cluster/cluster.h.
#include "cluster/cluster.h"

#include <chrono>
#include <climits>
#include <cstdlib>
#include <thread>

#include <unistd.h>

#include "core/error.h"

#if ORDO_WITH_MPI
// The C API only: Open MPI's and MPICH's headers otherwise pull in their C++ bindings, which
// live in another library.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace ordo {
namespace {

// The variables mpirun (Open MPI), srun (PMIx, PMI-2) and MPICH's hydra set in each rank.
bool launched_by_mpi() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"})
    if (std::getenv(var)) return true;
  return false;
}

// Polls `ready` until it holds, sleeping between tries after a short burst: a message
// usually arrives within microseconds, a queue reply within milliseconds.
template <class F>
bool poll_until(F ready, double seconds) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int tries = 0;; ++tries) {
    if (ready()) return true;
    if (seconds >= 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() >= seconds)
      return false;
    // Measured: 50 us sleeps for the first 2,000 tries made rank 0's queue (woken by a
    // heartbeat every 0.1 s) poll almost constantly, and a 2-rank study took 14% longer than
    // one process; a step's gradient wait is tens of milliseconds, a queue reply can wait one.
    if (tries >= 20) std::this_thread::sleep_for(std::chrono::microseconds(tries >= 200 ? 1000 : 100));
  }
}

#if ORDO_WITH_MPI
void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  fail("MPI: ", what, " failed: ", std::string(text, static_cast<size_t>(len)));
}
#endif

}  // namespace

Cluster& cluster() {
  static Cluster c;
  return c;
}

bool built_with_mpi() { return ORDO_WITH_MPI != 0; }

std::string Cluster::host() const {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

bool Cluster::join(int* argc, char*** argv) {
  if (joined_ || !launched_by_mpi()) return false;
#if ORDO_WITH_MPI
  int provided = 0;
  check(MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
  joined_ = true;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
  ORDO_CHECK(provided >= MPI_THREAD_SERIALIZED, "MPI: this MPI library gives thread level ", provided,
             "; ordo needs MPI_THREAD_SERIALIZED (", MPI_THREAD_SERIALIZED, ") or more");
  return true;
#else
  (void)argc;
  (void)argv;
  fail("this ordo was built without MPI, but mpirun or srun started it: each rank would run the whole command; "
       "install Debian's libopenmpi-dev and rebuild (./run build), or run ordo without mpirun");
#endif
}

void Cluster::leave() {
#if ORDO_WITH_MPI
  if (joined_) {
    MPI_Finalize();
    joined_ = false;
  }
#endif
}

void Cluster::abort(int code) {
#if ORDO_WITH_MPI
  if (joined_) MPI_Abort(MPI_COMM_WORLD, code);
#endif
  std::_Exit(code);
}

#if ORDO_WITH_MPI

namespace {
void finish(MPI_Request& request, const char* what);
}  // namespace

void Cluster::send(int to, int tag, const std::string& bytes) {
  ORDO_CHECK(joined_, "MPI: no rank ", to, " in a job of one");
  ORDO_CHECK(bytes.size() < static_cast<size_t>(INT_MAX), "MPI: a message of ", bytes.size(), " bytes is too long");
  std::lock_guard<std::mutex> lock(mu_);
  check(MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD), "MPI_Send");
}

std::optional<ClusterMessage> Cluster::poll(int tag, int from) {
  if (!joined_) return std::nullopt;
  std::lock_guard<std::mutex> lock(mu_);
  int flag = 0;
  MPI_Status status;
  check(MPI_Iprobe(from < 0 ? MPI_ANY_SOURCE : from, tag < 0 ? MPI_ANY_TAG : tag, MPI_COMM_WORLD, &flag, &status),
        "MPI_Iprobe");
  if (!flag) return std::nullopt;
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  ClusterMessage m{status.MPI_SOURCE, status.MPI_TAG, std::string(static_cast<size_t>(count), '\0')};
  check(MPI_Recv(m.bytes.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
        "MPI_Recv");
  return m;
}

std::optional<ClusterMessage> Cluster::wait(int tag, int from, double seconds) {
  std::optional<ClusterMessage> m;
  poll_until([&]() { return (m = poll(tag, from)).has_value(); }, seconds);
  return m;
}

void Cluster::send_floats(int to, int tag, const float* data, int64_t n) {
  ORDO_CHECK(joined_, "MPI: no rank ", to, " in a job of one");
  ORDO_CHECK(n < INT_MAX, "MPI: ", n, " floats in one message");
  std::lock_guard<std::mutex> lock(mu_);
  check(MPI_Send(data, static_cast<int>(n), MPI_FLOAT, to, tag, MPI_COMM_WORLD), "MPI_Send");
}

void Cluster::receive_floats(int from, int tag, float* data, int64_t n) {
  ORDO_CHECK(joined_, "MPI: no rank ", from, " in a job of one");
  ORDO_CHECK(n < INT_MAX, "MPI: ", n, " floats in one message");
  std::lock_guard<std::mutex> lock(mu_);
  MPI_Request request;
  check(MPI_Irecv(data, static_cast<int>(n), MPI_FLOAT, from, tag, MPI_COMM_WORLD, &request), "MPI_Irecv");
  finish(request, "MPI_Irecv");
}

namespace {
// Waits for a nonblocking collective, sleeping between tests (a blocking one spins, and a
// rank waiting for another's evaluation would take a core from it).
void finish(MPI_Request& request, const char* what) {
  poll_until(
      [&]() {
        int done = 0;
        check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), what);
        return done != 0;
      },
      -1);
}
}  // namespace

void Cluster::broadcast(float* data, int64_t n, int root) {
  if (!joined_) return;
  ORDO_CHECK(n < INT_MAX, "MPI: ", n, " floats in one broadcast");
  std::lock_guard<std::mutex> lock(mu_);
  MPI_Request request;
  check(MPI_Ibcast(data, static_cast<int>(n), MPI_FLOAT, root, MPI_COMM_WORLD, &request), "MPI_Ibcast");
  finish(request, "MPI_Ibcast");
}

int64_t Cluster::min_over_ranks(int64_t value) {
  if (!joined_) return value;
  std::lock_guard<std::mutex> lock(mu_);
  long long in = value, out = 0;
  MPI_Request request;
  check(MPI_Iallreduce(&in, &out, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD, &request), "MPI_Iallreduce");
  finish(request, "MPI_Iallreduce");
  return out;
}

void Cluster::barrier() {
  if (!joined_) return;
  std::lock_guard<std::mutex> lock(mu_);
  MPI_Request request;
  check(MPI_Ibarrier(MPI_COMM_WORLD, &request), "MPI_Ibarrier");
  finish(request, "MPI_Ibarrier");
}

#else  // a job of one: nobody to talk to

void Cluster::send(int to, int, const std::string&) { fail("MPI: no rank ", to, " in a job of one"); }
std::optional<ClusterMessage> Cluster::poll(int, int) { return std::nullopt; }
std::optional<ClusterMessage> Cluster::wait(int, int, double seconds) {
  ORDO_CHECK(seconds >= 0, "MPI: waiting forever for a message in a job of one");
  return std::nullopt;
}
void Cluster::send_floats(int to, int, const float*, int64_t) { fail("MPI: no rank ", to, " in a job of one"); }
void Cluster::receive_floats(int from, int, float*, int64_t) { fail("MPI: no rank ", from, " in a job of one"); }
void Cluster::broadcast(float*, int64_t, int) {}
int64_t Cluster::min_over_ranks(int64_t value) { return value; }
void Cluster::barrier() {}

#endif

}  // namespace ordo
