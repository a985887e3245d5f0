// cluster/cluster.h: the processes of an MPI job (mpirun, srun), or this process alone.
//
// ordo joins an MPI job only when a launcher started it: mpirun, or srun, leaves its
// variables in the environment (OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_SIZE). Started any
// other way, or built without MPI, ordo is one process of a job of one and never calls MPI,
// so it behaves exactly as a build without MPI does.
//
// Every call is serialized by one mutex (any thread may call). Waiting calls poll and sleep
// in between rather than spin, so a rank waiting for a message leaves its cores to the
// training beside it.
//
//   Cluster& c = cluster();           // after main has called Cluster::join
//   if (c.size() > 1 && c.rank() == 0) c.send(1, kTag, "hello");
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"

namespace ordo {

// Thrown on a rank that stops because another rank failed, after that rank (usually rank 0)
// has said why: the front end exits non-zero without repeating the message.
struct PeerFailure : Error {
  using Error::Error;
};

struct ClusterMessage {
  int from = -1;
  int tag = -1;
  std::string bytes;
};

class Cluster {
 public:
  // Joins the MPI job if a launcher started this process (see above); returns whether it did.
  // Called once, by main, before any other thread exists. Throws ordo::Error when launched
  // by mpirun but built without MPI (the ranks would each run the whole command).
  bool join(int* argc, char*** argv);
  // Leaves the job (MPI_Finalize); called by main on the way out.
  void leave();
  // Ends every rank of the job at once (MPI_Abort): for a rank that cannot go on and whose
  // peers would otherwise wait for it forever.
  [[noreturn]] void abort(int code);

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool distributed() const { return size_ > 1; }
  std::string host() const;  // the host name this rank runs on

  // Point to point, bytes with a tag (0 <= tag < 32768).
  void send(int to, int tag, const std::string& bytes);
  // A message with `tag` (any tag: -1) from `from` (anyone: -1) if one has arrived.
  std::optional<ClusterMessage> poll(int tag = -1, int from = -1);
  // Waits for such a message; gives up after `seconds` (< 0: never) with std::nullopt.
  std::optional<ClusterMessage> wait(int tag = -1, int from = -1, double seconds = -1);

  // Collectives: every rank must call them, in the same order.
  void send_floats(int to, int tag, const float* data, int64_t n);
  void receive_floats(int from, int tag, float* data, int64_t n);
  void broadcast(float* data, int64_t n, int root);
  int64_t min_over_ranks(int64_t value);  // e.g. "did every rank succeed"
  void barrier();

 private:
  std::mutex mu_;
  int rank_ = 0, size_ = 1;
  bool joined_ = false;
};

// The process's cluster (a job of one until Cluster::join joins an MPI job).
Cluster& cluster();

// Whether this binary was built with MPI.
bool built_with_mpi();

}  // namespace ordo
