// io/atomic_file.cpp: write to a temporary file, fsync, rename, fsync the directory.
#include "io/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/error.h"

namespace ordo {
namespace {

// fsync of an existing file or directory; throws naming `what` and the path.
void fsync_path(const std::string& path, bool directory, const std::string& what) {
  int fd = ::open(path.c_str(), directory ? (O_RDONLY | O_DIRECTORY) : O_RDONLY);
  if (fd < 0) fail(path, ": cannot open ", what, " to sync it: ", std::strerror(errno));
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0) fail(path, ": fsync of ", what, " failed: ", std::strerror(err));
}

std::string parent_directory(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

void write_file(const std::string& path, const std::string& bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, ": cannot create: ", std::strerror(errno));
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : ENOSPC;
      ::close(fd);
      fail(path, ": cannot write (", std::strerror(err), "; ", done, " of ", bytes.size(), " bytes written)");
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) fail(path, ": cannot write (", std::strerror(errno), " on close)");
}

std::string atomic_temp_path(const std::string& path) {
  return path + ".tmp." + std::to_string(static_cast<long>(::getpid()));
}

void atomic_write(const std::string& path, const std::function<void(const std::string& tmp_path)>& writer) {
  ORDO_CHECK(!path.empty(), "atomic_write: empty path");
  const std::string tmp = atomic_temp_path(path);
  std::remove(tmp.c_str());  // a leftover from a crashed earlier attempt of this pid
  try {
    writer(tmp);
    if (::access(tmp.c_str(), F_OK) != 0) fail(path, ": atomic_write: the writer did not create ", tmp);
    fsync_path(tmp, false, "the temporary file");
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
      fail(path, ": cannot rename ", tmp, " over it: ", std::strerror(errno));
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
  // The rename is done; make it durable. A failure here leaves the new, complete file.
  fsync_path(parent_directory(path), true, "the directory");
}

}  // namespace ordo
