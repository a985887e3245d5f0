// cluster/tags.h: how ordo's messages share the MPI tags (Cluster::send: 0 <= tag < 32768),
// in one place so that no two kinds of message can take the same tag. Each user names its own
// tags inside its range.
//
//   1-9          the study queue's messages (study/run_queue.h, QueueClient)
//   10-12        a data-parallel run's ranks: the running gradient sum and each part's loss
//                (train/micro_batches.cpp), each rank's machine (train/trainer.cpp)
//   13           a study's next round of seeds, rank 0 to every rank (study/study.cpp next_round)
//   100 + id     rank 0's answer to the queue's worker `id` (study/run_queue.h)
#pragma once

namespace ordo::tags {

constexpr int kQueueFirst = 1, kQueueLast = 9;
constexpr int kGradients = 10, kLosses = 11, kMachine = 12;
constexpr int kRound = 13;
constexpr int kAssign = 100;
constexpr int kEnd = 32768;  // every MPI library allows tags below it (MPI_TAG_UB >= 32767)

}  // namespace ordo::tags
