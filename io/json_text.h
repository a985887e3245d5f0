// io/json_text.h: a string as a JSON string literal (RFC 8259 §7): the quote and the backslash
// escaped, control characters as \n, \r, \t or \u00XX, every other byte as it is (UTF-8 passes
// through). For the files ordo writes as JSON: `ordo export`'s JSON Lines, `ordo bench --json`.
// (report.html's data also escapes <, > and &, for a page: report/html_report.cpp.)
#pragma once

#include <string>

namespace ordo {

// Appends s, quoted and escaped, to out.
void json_text(std::string& out, const std::string& s);

// s, quoted and escaped.
inline std::string json_text(const std::string& s) {
  std::string out;
  json_text(out, s);
  return out;
}

}  // namespace ordo
