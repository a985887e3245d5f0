// io/atomic_file.h: write a file so that readers see either the old or the new content.
//
//   atomic_write("run.h5", [&](const std::string& tmp) {
//     h5::File f = h5::File::create(tmp);
//     ...
//     f.close();                       // close before returning: the bytes must be on disk
//   });
//
// The writer receives a temporary path, `path + ".tmp.<pid>"` in the same directory. When it
// returns, the temporary file is fsync'ed, renamed over `path` and the directory is fsync'ed,
// so a crash leaves either the previous file or the complete new one. If the writer (or any
// later step) throws, the temporary file is removed and the exception propagates; `path` is
// untouched. The temporary name holds the process id, so concurrent processes do not collide;
// two threads of one process must not write the same path at once.
#pragma once

#include <functional>
#include <string>

namespace ordo {

void atomic_write(const std::string& path, const std::function<void(const std::string& tmp_path)>& writer);

// The temporary path atomic_write hands to its writer for `path` in this process.
std::string atomic_temp_path(const std::string& path);

// Writes `bytes` to `path` (created or truncated), checking every write and the close;
// throws "<path>: cannot write (No space left on device; 8192 of 40960 bytes written)" and
// the like. Not atomic by itself: call it inside atomic_write's writer.
void write_file(const std::string& path, const std::string& bytes);

}  // namespace ordo
