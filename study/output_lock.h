// study/output_lock.h: one writer per output directory.
//
// `ordo train` and `ordo compare` hold an exclusive lock (flock) on their output directory
// for as long as they run. A second process on the same directory is refused at once,
// naming the process that holds it (found in /proc/locks); the kernel drops the lock when its
// holder exits, however it exits, so a killed run never blocks the next one. Taking the lock
// writes nothing; it then creates and removes a probe file, so a directory that cannot be
// written is refused before any training.
#pragma once

#include <string>

namespace ordo {

class OutputLock {
 public:
  OutputLock() = default;
  // Creates `dir` if needed and locks it; throws ordo::Error naming the holder (pid and
  // command line) or the reason the directory cannot be written.
  explicit OutputLock(const std::string& dir);
  ~OutputLock();
  OutputLock(OutputLock&& other) noexcept;
  OutputLock& operator=(OutputLock&& other) noexcept;
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  int fd_ = -1;
};

// Removes the temporary files an interrupted atomic write left in `dir` (io/atomic_file.h:
// "<name>.tmp.<pid>"); call it while holding the directory's lock. Returns how many.
int remove_stale_temporaries(const std::string& dir);

}  // namespace ordo
