// experiments/config_file.h: `--config FILE`, settings read from a text file.
//
//   # tiny.conf: one setting per line, named as the flag without "--"
//   task = shift
//   d-model = 32        # a comment runs to the end of the line
//   causal = true
//
// Blank lines and comments are ignored; a key may appear once. Flags given on the command
// line override the file. Errors name the file and line: "tiny.conf:3: expected 'key = value',
// got 'batch'".
#pragma once

#include <string>
#include <vector>

namespace ordo::cli {

struct ConfigEntry {
  int line = 0;  // 1-based
  std::string key, value;
};

// Reads and checks the syntax of FILE (not the keys: the caller knows which exist).
// Throws ordo::Error for an unreadable file, a line without '=', an empty key or a key
// given twice.
std::vector<ConfigEntry> read_config_file(const std::string& path);

}  // namespace ordo::cli
