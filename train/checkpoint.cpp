// train/checkpoint.cpp: checking a checkpoint against a model (see train/checkpoint.h).
#include "train/checkpoint.h"

#include <algorithm>
#include <set>

#include "core/error.h"
#include "core/options.h"
#include "layers/layer_encodings.h"

namespace ordo {

void check_encoding_revision(const Checkpoint& ck, const std::string& where) {
  ORDO_CHECK(ck.encodings_revision >= 1 && ck.encodings_revision <= kEncodingsRevision, where,
             ": checkpoint at encodings revision ", ck.encodings_revision, ", written by ordo ", ck.ordo_version,
             "; this build reads revisions 1 to ", kEncodingsRevision, ": use that ordo, or train the run again");
  // The encoding of every block: --encoding, or each name of --layer-encodings (E1+E2+...).
  std::set<std::string> named;
  if (auto encoding = ck.config.find("encoding"); encoding != ck.config.end()) named.insert(encoding->second);
  if (auto layers = ck.config.find("layer-encodings"); layers != ck.config.end() && !layers->second.empty()) {
    named.clear();
    for (const std::string& e : LayerEncodings::parse(layers->second, where + ": layer-encodings")) named.insert(e);
  }
  for (const EncodingInfo& e : encodings()) {
    if (!named.count(e.name)) continue;
    for (const EncodingChange& change : e.changes)
      ORDO_CHECK(change.revision <= ck.encodings_revision || (change.affects && !change.affects(ck.config)), where,
                 ": this ", e.name, " checkpoint (encodings revision ", ck.encodings_revision, ", ordo ", ck.ordo_version,
                 ") predates a change to ", e.name, " (revision ", change.revision, "): ", change.what,
                 ". Its parameters mean something else to this build, which refuses to resume or analyse it: "
                 "train the run again (--force), or use the ordo that wrote it");
  }
}

void check_compatible(const Checkpoint& checkpoint, const std::vector<std::pair<std::string, Shape>>& expected) {
  std::map<std::string, const TensorF32*> saved;
  for (const auto& [name, value] : checkpoint.params) saved[name] = &value;
  std::set<std::string> wanted;
  for (const auto& [name, shape] : expected) {
    wanted.insert(name);
    auto it = saved.find(name);
    ORDO_CHECK(it != saved.end(), "parameter ", name, ": missing from the checkpoint");
    ORDO_CHECK(it->second->shape() == shape, "parameter ", name, ": checkpoint has ", it->second->shape(),
               ", model expects ", shape);
  }
  for (const auto& [name, value] : checkpoint.params)
    ORDO_CHECK(wanted.count(name), "parameter ", name, ": in the checkpoint but not in the model");
}

}  // namespace ordo
