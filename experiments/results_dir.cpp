// experiments/results_dir.cpp: a directory's results file (experiments/results_dir.h).
#include "experiments/results_dir.h"

#include <filesystem>

#include "core/error.h"

namespace ordo {

std::string results_file_in(const std::string& command, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  ORDO_CHECK(fs::is_directory(dir, ec), command, ": ", dir, " is not a directory (give the --out of ordo compare "
                                        "or ordo train)");
  for (const char* name : {"results.h5", "run.h5"})
    if (fs::is_regular_file(dir + "/" + name, ec)) return dir + "/" + name;
  fail(command, ": neither ", dir, "/results.h5 nor ", dir, "/run.h5 found: DIR must hold the file that ordo compare "
       "or ordo train wrote");
}

DirectoryResults read_directory_results(const std::string& command, const std::string& dir, bool require_runs) {
  DirectoryResults r;
  r.file = results_file_in(command, dir);
  r.lock = OutputLock(dir);
  try {
    r.runs = read_results(r.file);
    r.attributes = read_results_attributes(r.file);
  } catch (const Error& e) {
    fail(command, ": cannot read ", r.file, ": ", e.what());
  }
  ORDO_CHECK(!require_runs || !r.runs.empty(), command, ": ", r.file, " holds no runs");
  return r;
}

}  // namespace ordo
