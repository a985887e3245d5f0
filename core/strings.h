// core/strings.h: joining names and numbers into one line of text, the one helper every
// message, help text and table uses.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace ordo {

// "a, b, c": the items with `sep` between each two.
inline std::string join(const std::vector<std::string>& items, std::string_view sep = ", ") {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += sep;
    out += items[i];
  }
  return out;
}

// "a, b and c": `sep` between all but the last two, `last_sep` before the last.
inline std::string join(const std::vector<std::string>& items, std::string_view sep, std::string_view last_sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? last_sep : sep;
    out += items[i];
  }
  return out;
}

// "8,16,32": whole numbers with `sep` between each two.
inline std::string join(const std::vector<int64_t>& items, std::string_view sep = ",") {
  std::vector<std::string> text;
  for (int64_t v : items) text.push_back(std::to_string(v));
  return join(text, sep);
}

// "0.953": v with `decimals` decimals (printf's %.*f).
inline std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// A percentage as short as it is exact: 0.005 -> "0.5%", 0.02 -> "2%".
inline std::string percent(double fraction) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g%%", 100 * fraction);
  return buf;
}

}  // namespace ordo
