// layers/layer_encodings.cpp: see layers/layer_encodings.h.
#include "layers/layer_encodings.h"

#include "core/error.h"

namespace ordo {

LayerEncodings LayerEncodings::parse(const std::string& text, const std::string& flag) {
  if (text.empty()) return {};
  const bool plus = is_pattern(text);
  const char sep = plus ? '+' : ',';
  ORDO_CHECK(!plus || text.find(',') == std::string::npos, flag, ": '", text,
             "' mixes '+' and ','; E1,E2,... or E1+E2+... names one encoding per layer");
  std::vector<std::string> names;
  for (size_t begin = 0;;) {
    const size_t end = text.find(sep, begin);
    names.push_back(text.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
    ORDO_CHECK(!names.back().empty(), flag, ": '", text, "' has an empty part; ", plus ? "E1+E2+..." : "E1,E2,...",
               " names one encoding per layer");
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  return LayerEncodings(std::move(names));
}

std::string LayerEncodings::str() const {
  std::string s;
  for (const std::string& e : names_) s += (s.empty() ? "" : "+") + e;
  return s;
}

}  // namespace ordo
