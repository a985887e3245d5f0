// experiments/config_file.cpp: `key = value` lines (see experiments/config_file.h).
#include "experiments/config_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "core/error.h"

namespace ordo::cli {
namespace {

std::string trim(const std::string& s) {
  const char* space = " \t\r";
  const size_t first = s.find_first_not_of(space);
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(space) - first + 1);
}

}  // namespace

std::vector<ConfigEntry> read_config_file(const std::string& path) {
  std::error_code ec;
  ORDO_CHECK(!std::filesystem::is_directory(path, ec), "--config: cannot read ", path, ": it is a directory");
  std::ifstream in(path);
  ORDO_CHECK(in.is_open(), "--config: cannot read ", path, ": ", std::strerror(errno));
  std::vector<ConfigEntry> entries;
  std::map<std::string, int> seen;  // key -> line
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    const std::string content = trim(text.substr(0, text.find('#')));
    if (content.empty()) continue;
    const size_t eq = content.find('=');
    ORDO_CHECK(eq != std::string::npos, path, ":", line, ": expected 'key = value', got '", content, "'");
    ConfigEntry e{line, trim(content.substr(0, eq)), trim(content.substr(eq + 1))};
    if (e.key.rfind("--", 0) == 0) e.key = e.key.substr(2);  // "--lr = 0.1" reads as "lr = 0.1"
    ORDO_CHECK(!e.key.empty(), path, ":", line, ": expected 'key = value', got '", content, "' (no key)");
    auto [it, fresh] = seen.emplace(e.key, line);
    ORDO_CHECK(fresh, path, ":", line, ": '", e.key, "' is already set on line ", it->second);
    entries.push_back(std::move(e));
  }
  ORDO_CHECK(!in.bad(), "--config: error reading ", path, ": ", std::strerror(errno));
  return entries;
}

}  // namespace ordo::cli
