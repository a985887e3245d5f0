// io/hdf5.h: a thin RAII wrapper over the HDF5 C API, the only HDF5 layer ordo uses.
//
// Three handle types, all cheap to copy (a copy shares the underlying HDF5 object):
//   File    : a file; also its root group "/".
//   Group   : a group; creates nested groups, writes and reads datasets, lists members.
//   Dataset : an N-D array of double, float, int64, int32, uint64 or uint32.
// Every one of them carries attributes (string, int64, double).
//
//   h5::File f = h5::File::create("out.h5");
//   h5::Group run = f.require_group("runs/order/rope/seed0");   // every level in one call
//   run.write("train_loss", std::vector<double>{2.3, 1.9});      // 1-D
//   run.write("w", weights.data(), {64, 64});                   // N-D from a pointer and shape
//   run.set_attr("encoding", "rope");
//   f.close();                                                  // reports flush errors
//
//   h5::File g = h5::File::open("out.h5");
//   std::vector<double> loss = g.group("runs/order/rope/seed0").read_vector<double>("train_loss");
//
// Errors: HDF5's own error printing is off in every thread that calls this wrapper (it never
// reaches the terminal). Every failure throws ordo::Error naming
// the file, the object path and the problem, e.g.
//   "checkpoint.h5: dataset /params/blocks.0.attn.w_q.weight missing"
//   "run.h5: cannot open as HDF5 file (truncated file: eof = 1024, ..., stored_eof = 2048)"
// where the text in parentheses is HDF5's innermost error description.
//
// Conventions:
//   * Paths given to a Group are relative to it and may be nested ("eval/128/acc"); a File
//     (the root group) also accepts absolute paths ("/runs/x").
//   * Writing a dataset or attribute that already exists replaces it. Missing parent groups
//     of a dataset path are created.
//   * Files are written with explicit little-endian types (IEEE F32LE / F64LE, STD I64LE ...),
//     strings as fixed-length, NUL-padded UTF-8 scalars (h5py reads them as bytes: .decode()).
//     Variable-length strings (what older ordo wrote, and still reads) live in the global
//     heap, which has no checksum and which HDF5 1.10 reads out of bounds when it is damaged.
//   * Files are written in the HDF5 1.8 format (version-2 object headers): metadata carry
//     checksums; a non-empty array up to 16 KiB lives inside its checksummed object header
//     (compact layout), a larger one up to 1 GiB is one chunk with a Fletcher-32 checksum, so
//     a damaged file fails to read instead of giving wrong numbers.
//   * Groups created here track link creation order, so members() lists them in the order
//     they were written; groups from other tools (without that index) list alphabetically.
//   * Reading converts between types of the same class (float32 file -> double memory and
//     back, int32 <-> int64); reading a float dataset as an integer (or the reverse) is an error.
//   * Threads may call it at once: every entry point holds one process-wide lock while it
//     calls HDF5 (thread safety is an HDF5 build option). A handle itself is not shared between
//     threads while one of them writes through it.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace ordo::h5 {

// Element types that datasets hold.
enum class DType { f64, f32, i64, i32, u64, u32 };
const char* dtype_name(DType t);  // "float64", "float32", "int64", ...

template <class T>
struct DTypeOf;  // undefined for unsupported element types
template <> struct DTypeOf<double> { static constexpr DType value = DType::f64; };
template <> struct DTypeOf<float> { static constexpr DType value = DType::f32; };
template <> struct DTypeOf<int64_t> { static constexpr DType value = DType::i64; };
template <> struct DTypeOf<int32_t> { static constexpr DType value = DType::i32; };
template <> struct DTypeOf<uint64_t> { static constexpr DType value = DType::u64; };
template <> struct DTypeOf<uint32_t> { static constexpr DType value = DType::u32; };

// An owned HDF5 identifier (hid_t). Copies share it (H5Iinc_ref); the last one closes it.
class Id {
 public:
  Id() = default;
  explicit Id(int64_t id) : id_(id) {}  // takes ownership of a freshly opened id
  Id(const Id& other);
  Id(Id&& other) noexcept : id_(other.id_) { other.id_ = -1; }
  Id& operator=(Id other) noexcept {
    std::swap(id_, other.id_);
    return *this;
  }
  ~Id() { reset(); }
  int64_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  void reset();  // closes (drops this reference); never throws
 private:
  int64_t id_ = -1;
};

// The values of a dataset with its shape (row-major).
template <class T>
struct Array {
  std::vector<int64_t> dims;
  std::vector<T> values;
};

// Kinds of attribute value.
enum class AttrKind { string, integer, floating, other };

// Anything that can carry attributes: a file (root group), a group or a dataset.
class Object {
 public:
  const std::string& file_name() const { return file_; }
  const std::string& path() const { return path_; }  // "/" for the root
  bool valid() const { return id_.valid(); }

  bool has_attr(const std::string& name) const;
  std::vector<std::string> attr_names() const;  // alphabetical
  AttrKind attr_kind(const std::string& name) const;
  void remove_attr(const std::string& name);

  // Writes (or replaces) a scalar attribute.
  void set_attr(const std::string& name, const std::string& value);
  void set_attr(const std::string& name, const char* value) { set_attr(name, std::string(value)); }
  template <std::integral T>
  void set_attr(const std::string& name, T value) { set_attr_int64(name, static_cast<int64_t>(value)); }
  template <std::floating_point T>
  void set_attr(const std::string& name, T value) { set_attr_double(name, static_cast<double>(value)); }

  // Reads a scalar attribute; throws if it is missing or of another kind (attr_double also
  // accepts integers).
  std::string attr_string(const std::string& name) const;
  int64_t attr_int64(const std::string& name) const;
  double attr_double(const std::string& name) const;

 protected:
  Object() = default;
  Object(Id id, std::string file, std::string path)
      : id_(std::move(id)), file_(std::move(file)), path_(std::move(path)) {}
  int64_t hid() const;  // the id, or an error if this handle is closed / default-constructed
  void set_attr_int64(const std::string& name, int64_t value);
  void set_attr_double(const std::string& name, double value);
  std::string child_path(const std::string& relative) const;

  Id id_;
  std::string file_;
  std::string path_;
};

class Dataset : public Object {
 public:
  Dataset() = default;
  std::vector<int64_t> dims() const;  // {} for a scalar dataset
  int64_t numel() const;
  // numel(), refused (naming the file and the dataset) where the file does not hold the
  // values its shape claims: a damaged or foreign file can claim 2^40 values it never stored
  // (HDF5 would read fill values), and allocating for them would end the process. Above
  // 256 MB, the values may take at most 1024 times the bytes the file stores for them (room
  // for another writer's compression). Readers call it before they allocate.
  int64_t stored_numel() const;
  DType dtype() const;  // the stored element type

  // All values, flattened row-major, converted to T.
  template <class T>
  std::vector<T> read_values() const {
    std::vector<T> out(static_cast<size_t>(stored_numel()));
    read_raw(DTypeOf<T>::value, out.data(), static_cast<int64_t>(out.size()));
    return out;
  }
  // Reads exactly `count` values (must equal numel()) into `out`.
  template <class T>
  void read_into(T* out, int64_t count) const { read_raw(DTypeOf<T>::value, out, count); }

 private:
  friend class Group;
  Dataset(Id id, std::string file, std::string path) : Object(std::move(id), std::move(file), std::move(path)) {}
  void read_raw(DType type, void* out, int64_t count) const;
};

class Group : public Object {
 public:
  Group() = default;

  // Opens an existing (possibly nested) group; throws "<file>: group <path> missing".
  Group group(const std::string& path) const;
  // Opens the group, creating every missing level ("runs/order/rope/seed0" in one call).
  Group require_group(const std::string& path);
  // Whether a link exists at the (nested) relative path; missing parents give false.
  bool exists(const std::string& path) const;
  bool has_group(const std::string& path) const;
  bool has_dataset(const std::string& path) const;
  // Names of the direct children, in creation order where tracked, else alphabetical.
  std::vector<std::string> members() const;
  // Relative paths of every dataset below this group, depth-first, in member order.
  std::vector<std::string> dataset_paths() const;
  // Unlinks a child (group or dataset); throws if it does not exist.
  void remove(const std::string& path);

  // Opens an existing dataset; throws "<file>: dataset <path> missing".
  Dataset dataset(const std::string& path) const;

  // Writes (or replaces) a dataset of shape `dims` from `data` (numel(dims) values;
  // dims = {} writes a scalar dataset).
  template <class T>
  Dataset write(const std::string& path, const T* data, const std::vector<int64_t>& dims) {
    return write_raw(path, DTypeOf<T>::value, data, dims);
  }
  template <class T>
  Dataset write(const std::string& path, const std::vector<T>& values) {  // 1-D
    return write_raw(path, DTypeOf<T>::value, values.data(), {static_cast<int64_t>(values.size())});
  }
  template <class T>
  Dataset write(const std::string& path, const std::vector<T>& values, const std::vector<int64_t>& dims) {
    check_count(path, static_cast<int64_t>(values.size()), dims);
    return write_raw(path, DTypeOf<T>::value, values.data(), dims);
  }
  template <class T>
  Dataset write(const std::string& path, const BasicTensor<T>& tensor) {  // keeps the shape
    return write_raw(path, DTypeOf<T>::value, tensor.data(), tensor.shape().dims());
  }

  // Reads a 1-D dataset (throws naming the rank otherwise).
  template <class T>
  std::vector<T> read_vector(const std::string& path) const {
    Dataset d = dataset(path);
    check_rank1(d);
    return d.read_values<T>();
  }
  template <class T>
  Array<T> read(const std::string& path) const {
    Dataset d = dataset(path);
    return Array<T>{d.dims(), d.read_values<T>()};
  }
  // Reads a dataset of rank <= Shape::kMaxRank into a tensor of its shape.
  template <class T>
  BasicTensor<T> read_tensor(const std::string& path) const {
    Dataset d = dataset(path);
    BasicTensor<T> t = BasicTensor<T>::empty(tensor_shape(d));
    d.read_into(t.data(), t.numel());
    return t;
  }

 protected:
  Group(Id id, std::string file, std::string path) : Object(std::move(id), std::move(file), std::move(path)) {}

 private:
  Dataset write_raw(const std::string& path, DType type, const void* data, const std::vector<int64_t>& dims);
  void check_count(const std::string& path, int64_t count, const std::vector<int64_t>& dims) const;
  static void check_rank1(const Dataset& d);
  static Shape tensor_shape(const Dataset& d);
  void collect_datasets(const std::string& prefix, std::vector<std::string>& out) const;
};

enum class Access { read_only, read_write };

class File : public Group {
 public:
  File() = default;
  // Creates a new file, to be written to `path` by close(). It is built in memory (HDF5's
  // core driver) and close() writes its bytes with ordinary checked writes: a full disk, a
  // file size limit or a vanished directory then gives one error naming the system's reason
  // ("No space left on device"), and HDF5, which crashes in its exit handler after a failed
  // write of its own (a segfault in H5D_close, HDF5 1.10), never meets a failed write.
  // Dropped without close() (an exception on the way), it writes nothing.
  static File create(const std::string& path);
  // Opens an existing file. Throws naming the problem: no such file, a directory, not an
  // HDF5 file, or HDF5's reason (e.g. "truncated file") when it cannot be opened.
  static File open(const std::string& path, Access access = Access::read_only);

  // Makes what was written so far reach the file: for a created file, writes it to its
  // path (the whole image); for an opened one, HDF5's flush.
  void flush();
  // Flushes and closes, reporting errors (the destructor closes silently). For an opened
  // file, groups and datasets still open keep it open until they are gone; for a created
  // one, what they write after close() is not saved.
  void close();

 private:
  File(Id id, std::string file, bool in_memory)
      : Group(std::move(id), std::move(file), "/"), in_memory_(in_memory) {}
  bool in_memory_ = false;  // created: close() writes the image to file_name()
};

// Turns off HDF5's automatic error printing for the calling thread (for the process where HDF5
// is built without thread safety). Idempotent; every call into io/hdf5 does it first.
void silence_hdf5_errors();

}  // namespace ordo::h5
