// experiments/results_dir.h: the results file inside a study's or a run's directory, as the
// commands that read one (report, export, upgrade) find, lock and read it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "io/results.h"
#include "study/output_lock.h"

namespace ordo {

// DIR/results.h5 (ordo compare) or else DIR/run.h5 (ordo train). Throws ordo::Error prefixed
// with `command` ("ordo export") when DIR is not a directory or holds neither.
std::string results_file_in(const std::string& command, const std::string& dir);

// A directory's results, read under its lock (a study still writing there is refused,
// naming it), which the command keeps while it writes beside them.
struct DirectoryResults {
  std::string file;  // DIR/results.h5 or DIR/run.h5
  std::vector<RunRecord> runs;
  std::map<std::string, std::string> attributes;  // read_results_attributes
  OutputLock lock;
};

// Finds (results_file_in), locks and reads DIR's results; throws ordo::Error prefixed with
// `command`, naming the file, when it cannot be read or, with require_runs, holds no runs.
DirectoryResults read_directory_results(const std::string& command, const std::string& dir, bool require_runs);

}  // namespace ordo
