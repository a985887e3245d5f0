// layers/module.h: what every layer shares: a hierarchical name and its parameters.
//
// A module owns its Parameters as members and lists them (and its children's) in
// collect_parameters(). Names are hierarchical: "blocks.0.attn.w_q.weight".
#pragma once

#include <string>
#include <vector>

#include "core/tape.h"

namespace ordo {

class Module {
 public:
  explicit Module(std::string name) : name_(std::move(name)) {}
  virtual ~Module() = default;
  Module(const Module&) = delete;             // parameters are referenced by address:
  Module& operator=(const Module&) = delete;  // modules never copy or move

  const std::string& name() const { return name_; }
  // Appends this module's parameters, then its children's, in a fixed order.
  virtual void collect_parameters(std::vector<Parameter*>& out) = 0;
  std::vector<Parameter*> parameters() {
    std::vector<Parameter*> out;
    collect_parameters(out);
    return out;
  }

 protected:
  // "blocks.0" + "attn" -> "blocks.0.attn"
  std::string child(const std::string& leaf) const { return name_.empty() ? leaf : name_ + "." + leaf; }

 private:
  std::string name_;
};

}  // namespace ordo
