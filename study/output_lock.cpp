// study/output_lock.cpp: see study/output_lock.h.
#include "study/output_lock.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"

namespace ordo {
namespace fs = std::filesystem;

namespace {

// "1234 (ordo compare --tasks order ...)": the process holding a flock on the inode of
// `dir`, from /proc/locks (columns: id, FLOCK, ADVISORY, WRITE, pid, maj:min:inode, ...).
std::string holder_of(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return "unknown pid";
  std::ifstream locks("/proc/locks");
  std::string line;
  std::string inode = ":";
  inode += std::to_string(static_cast<unsigned long long>(st.st_ino));
  while (std::getline(locks, line)) {
    std::istringstream is(line);
    std::string id, kind, mode, access, pid, where;
    if (!(is >> id >> kind >> mode >> access >> pid >> where) || kind != "FLOCK") continue;
    if (where.size() < inode.size() || where.compare(where.size() - inode.size(), inode.size(), inode) != 0) continue;
    std::ifstream f("/proc/" + pid + "/cmdline", std::ios::binary);
    std::string cmd((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    for (char& c : cmd)
      if (c == '\0') c = ' ';
    while (!cmd.empty() && cmd.back() == ' ') cmd.pop_back();
    if (cmd.size() > 200) {
      cmd.resize(200);
      cmd += " ...";
    }
    std::string who = "pid ";
    who += pid;
    if (!cmd.empty()) {
      who += ": ";
      who += cmd;
    }
    return who;
  }
  return "unknown pid";
}

}  // namespace

OutputLock::OutputLock(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  ORDO_CHECK(!ec, "--out ", dir, ": cannot create the directory: ", ec.message());
  // The lock is on the directory itself: nothing is written to take it.
  fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ORDO_CHECK(fd_ >= 0, "--out ", dir, ": cannot open the directory (", std::strerror(errno), ")");
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    ORDO_CHECK(err != EWOULDBLOCK, "--out ", dir, " is in use by another ordo (", holder_of(dir),
               "); wait for it to finish, or choose another --out");
    fail("--out ", dir, ": cannot lock the directory (", std::strerror(err), ")");
  }
  // Can this process write here? Tried now, not after the first hour of training.
  const std::string probe = dir + "/.ordo-write-test." + std::to_string(static_cast<long>(::getpid()));
  const int probe_fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (probe_fd < 0) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    fail("--out ", dir, ": cannot write in the directory (", std::strerror(err), ")");
  }
  ::close(probe_fd);
  ::unlink(probe.c_str());
}

OutputLock::~OutputLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock
}

OutputLock::OutputLock(OutputLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

OutputLock& OutputLock::operator=(OutputLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

int remove_stale_temporaries(const std::string& dir) {
  static const std::regex temporary(R"(.*\.tmp\.[0-9]+)");
  int removed = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_regular_file(ec) && std::regex_match(it->path().filename().string(), temporary)) {
      fs::remove(it->path(), ec);
      ++removed;
    }
  }
  return removed;
}

}  // namespace ordo
