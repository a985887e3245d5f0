// experiments/config_file.cpp: `key = value` lines (see experiments/config_file.h).
#include "experiments/config_file.h"

#include <cerrno>
#include <cstdint>
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
  // A settings file is a few lines of text: anything else is refused before it is read in
  // full (a device such as /dev/zero, a huge file, binary content, a runaway line).
  constexpr std::uintmax_t kMaxBytes = 1 << 20;
  constexpr size_t kMaxLine = 4096;
  std::error_code ec;
  ORDO_CHECK(!std::filesystem::is_directory(path, ec), "--config: cannot read ", path, ": it is a directory");
  std::ifstream in(path, std::ios::binary);
  ORDO_CHECK(in.is_open(), "--config: cannot read ", path, ": ", std::strerror(errno));
  ORDO_CHECK(std::filesystem::is_regular_file(path, ec), "--config: ", path,
             " is not a regular file; a settings file is `key = value` lines of text");
  const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
  ORDO_CHECK(!ec && bytes <= kMaxBytes, "--config: ", path, " is ", bytes, " bytes; a settings file is at most ",
             kMaxBytes, " bytes of `key = value` lines");
  std::vector<ConfigEntry> entries;
  std::map<std::string, int> seen;  // key -> line
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (line == 1 && text.rfind("\xEF\xBB\xBF", 0) == 0) text = text.substr(3);  // a UTF-8 byte-order mark
    ORDO_CHECK(text.size() <= kMaxLine, path, ":", line, ": the line is ", text.size(),
               " characters long; a settings line is at most ", kMaxLine);
    for (unsigned char c : text)
      ORDO_CHECK(c >= 0x20 || c == '\t' || c == '\r', path, ":", line, ": byte 0x", "0123456789abcdef"[c >> 4],
                 "0123456789abcdef"[c & 15], " is not text; a settings file is `key = value` lines of text");
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
