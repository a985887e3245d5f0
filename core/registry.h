// core/registry.h: the one table behind every list of things found by name: the positional
// encodings (layers/posenc/registry.cpp), the tasks (data/registry.cpp), the optimizers
// (train/optimizers/registry.cpp) and the subcommands (experiments/commands.cpp).
//
// Each of those files lists its entries once, as ORDO_<KIND>(name) lines expanded into
// calls of `<kind>_info_<name>()`, and hands the resulting vector to a Registry, which
//   - checks that every name is set and appears once (and whatever else the kind asks of an
//     entry, through `check`), when the table is first used;
//   - finds an entry by name, or fails naming the kind and every known name:
//       "unknown encoding 'sinus'; known: none, sinusoidal, ..."
//   - lists the names, in registration order, for --help and error messages;
//   - merges the entries' own options into one Options (for kinds whose entries declare
//     options: `Info::options`, a vector of OptionSpec).
// `Info` is a plain struct with at least a `std::string name`.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/options.h"
#include "core/strings.h"

namespace ordo {

template <class Info>
class Registry {
 public:
  // `kind` names an entry in messages ("encoding"); `known` introduces the list of names in
  // the unknown-name error ("known", "known tasks"). `check` (may be null) runs on each entry.
  Registry(std::string kind, std::vector<Info> entries, std::string known = "known",
           void (*check)(const Info&) = nullptr)
      : kind_(std::move(kind)), known_(std::move(known)), entries_(std::move(entries)) {
    std::set<std::string> seen;
    for (const Info& e : entries_) {
      ORDO_CHECK(!e.name.empty(), "a ", kind_, " is registered without a name");
      ORDO_CHECK(seen.insert(e.name).second, kind_, " '", e.name, "' is registered twice");
      if (check) check(e);
    }
  }

  const std::vector<Info>& all() const { return entries_; }

  // The entry called `name`, or null.
  const Info* find(std::string_view name) const {
    for (const Info& e : entries_)
      if (e.name == name) return &e;
    return nullptr;
  }

  // The entry called `name`; an unknown name fails, listing the known ones.
  const Info& at(std::string_view name) const {
    const Info* e = find(name);
    if (e == nullptr) fail("unknown ", kind_, " '", name, "'; ", known_, ": ", names());
    return *e;
  }

  // The names, in registration order, and the same as one "a, b, c".
  std::vector<std::string> name_list() const {
    std::vector<std::string> out;
    for (const Info& e : entries_) out.push_back(e.name);
    return out;
  }
  std::string names() const { return join(name_list(), ", "); }

  // Every entry's declared options, in registration order, as one Options.
  Options merged_options() const {
    std::vector<OptionSpec> specs;
    for (const Info& e : entries_) specs.insert(specs.end(), e.options.begin(), e.options.end());
    return Options(specs);
  }

 private:
  std::string kind_, known_;
  std::vector<Info> entries_;
};

}  // namespace ordo
