// layers/layer_encodings.h: one encoding per block (--layer-encodings, docs/spec.md §2.15), a
// list that parses and prints itself.
//
//   LayerEncodings e = LayerEncodings::parse("rope+none", "--layer-encodings");  // or "rope,none"
//   e.str() == "rope+none"    the form logs, checkpoints, --vary and a study's series take
//   e[1]    == "none"
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace ordo {

class LayerEncodings {
 public:
  LayerEncodings() = default;
  LayerEncodings(std::initializer_list<std::string> names) : names_(names) {}
  LayerEncodings(std::vector<std::string> names) : names_(std::move(names)) {}  // NOLINT: a list is one

  // "E1,E2,..." or "E1+E2+..." ('+' is the form inside a comma-separated list: --vary,
  // --encodings); "" is none. A text with an empty part ("rope,,none", "rope+") is refused,
  // naming `flag` and the text, so a miscount never passes as another model.
  static LayerEncodings parse(const std::string& text, const std::string& flag);
  // Whether an --encodings entry names one encoding per block: it holds a '+'.
  static bool is_pattern(const std::string& entry) { return entry.find('+') != std::string::npos; }

  std::string str() const;  // "rope+none"; "" when empty

  bool empty() const { return names_.empty(); }
  size_t size() const { return names_.size(); }
  const std::string& operator[](size_t i) const { return names_[i]; }
  std::string& operator[](size_t i) { return names_[i]; }
  std::vector<std::string>::const_iterator begin() const { return names_.begin(); }
  std::vector<std::string>::const_iterator end() const { return names_.end(); }
  const std::vector<std::string>& names() const { return names_; }
  bool operator==(const LayerEncodings& other) const = default;

 private:
  std::vector<std::string> names_;
};

}  // namespace ordo
