// io/checkpoint_file.cpp: Checkpoint <-> HDF5 (layout documented in io/checkpoint_file.h).
#include "io/run_log_file.h"
#include "io/checkpoint_file.h"

#include <set>

#include "core/error.h"
#include "io/atomic_file.h"
#include "io/hdf5.h"

namespace ordo {
namespace {

void check_tensors(const std::string& path, const char* what,
                   const std::vector<std::pair<std::string, TensorF32>>& tensors, bool allow_slash) {
  std::set<std::string> seen;
  for (const auto& [name, value] : tensors) {
    ORDO_CHECK(!name.empty(), path, ": save_checkpoint: a ", what, " entry has an empty name");
    ORDO_CHECK(allow_slash || name.find('/') == std::string::npos, path, ": save_checkpoint: ", what, " name '", name,
               "' contains '/' (parameter names are flat, use dots)");
    ORDO_CHECK(seen.insert(name).second, path, ": save_checkpoint: duplicate ", what, " name '", name, "'");
    ORDO_CHECK(value.defined(), path, ": save_checkpoint: ", what, " '", name, "' has no value");
  }
}

void write_checkpoint(const std::string& file_path, const Checkpoint& c) {
  h5::File f = h5::File::create(file_path);
  f.set_attr("format_version", c.format_version);
  f.set_attr("ordo_version", c.ordo_version);
  f.set_attr("encodings_revision", c.encodings_revision);
  f.set_attr("step", c.step);

  h5::Group config = f.require_group("config");
  for (const auto& [key, value] : c.config) config.set_attr(key, value);

  h5::Group params = f.require_group("params");
  for (const auto& [name, value] : c.params) params.write(name, value);
  h5::Group optimizer = f.require_group("optimizer");
  for (const auto& [name, value] : c.optimizer) optimizer.write(name, value);

  h5::Group scalars = f.require_group("scalars");
  for (const auto& [key, value] : c.scalars) scalars.set_attr(key, value);

  std::vector<uint64_t> rng;
  for (const CounterRng::State& s : c.rng) rng.insert(rng.end(), {s.seed, s.stream, s.counter, s.index});
  f.write("rng", rng, {static_cast<int64_t>(c.rng.size()), 4});

  h5::Group log = f.require_group("log");
  write_run_log(log, c.log);
  f.close();
}

}  // namespace

void save_checkpoint(const std::string& path, const Checkpoint& checkpoint) {
  check_tensors(path, "parameter", checkpoint.params, false);
  check_tensors(path, "optimizer", checkpoint.optimizer, true);
  atomic_write(path, [&](const std::string& tmp) {
    try {
      write_checkpoint(tmp, checkpoint);
    } catch (const Error& e) {
      fail("cannot save checkpoint ", path, ": ", e.what());
    }
  });
}

Checkpoint load_checkpoint(const std::string& path) {
  h5::File f = h5::File::open(path);
  Checkpoint c;
  c.format_version = f.attr_int64("format_version");
  ORDO_CHECK(c.format_version == kCheckpointFormatVersion, path, ": checkpoint format_version ", c.format_version,
             " is not supported (this build of ordo reads format_version ", kCheckpointFormatVersion, ")");
  c.ordo_version = f.attr_string("ordo_version");
  c.encodings_revision = f.has_attr("encodings_revision") ? f.attr_int64("encodings_revision") : 1;
  c.step = f.attr_int64("step");

  h5::Group config = f.group("config");
  for (const std::string& key : config.attr_names()) c.config[key] = config.attr_string(key);

  h5::Group params = f.group("params");
  for (const std::string& name : params.members()) {
    ORDO_CHECK(params.has_dataset(name), path, ": /params/", name, " is not a dataset (parameters are flat)");
    c.params.emplace_back(name, params.read_tensor<float>(name));
  }
  h5::Group optimizer = f.group("optimizer");
  for (const std::string& name : optimizer.dataset_paths())
    c.optimizer.emplace_back(name, optimizer.read_tensor<float>(name));

  h5::Group scalars = f.group("scalars");
  for (const std::string& key : scalars.attr_names()) c.scalars[key] = scalars.attr_double(key);

  h5::Array<uint64_t> rng = f.read<uint64_t>("rng");
  ORDO_CHECK(rng.dims.size() == 2 && rng.dims[1] == 4, path, ": dataset /rng must have shape (N, 4), found ",
             Shape(rng.dims));
  for (int64_t i = 0; i < rng.dims[0]; ++i) {
    const uint64_t* row = &rng.values[static_cast<size_t>(4 * i)];
    ORDO_CHECK(row[3] <= 4, path, ": /rng row ", i, ": buffered-word index ", row[3], " out of range [0, 4]");
    c.rng.push_back({row[0], row[1], row[2], static_cast<uint32_t>(row[3])});
  }

  c.log = read_run_log(f.group("log"));
  check_encoding_revision(c, path);
  return c;
}

}  // namespace ordo
