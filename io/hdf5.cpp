// io/hdf5.cpp: the HDF5 C API behind io/hdf5.h.
//
// Every HDF5 call is checked; a failure becomes ordo::Error "<file>: <what failed> (<HDF5's
// innermost error description>)". HDF5's automatic error printing is turned off first.
#include "io/hdf5.h"

#include <hdf5.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <mutex>
#include <type_traits>

#include "core/error.h"
#include "io/atomic_file.h"

static_assert(std::is_same_v<hid_t, int64_t>, "io/hdf5.h stores hid_t as int64_t (HDF5 >= 1.10)");

namespace ordo::h5 {
namespace {

// Arrays up to this size are stored in their object header (compact layout, see write_raw):
// HDF5 allows 64 KiB there; 16 KiB keeps a header small enough to read in one go.
constexpr int64_t kCompactBytes = 16 * 1024;

// HDF5's thread safety is a build option (Debian's 1.10 has it, H5_HAVE_THREADSAFE; many
// builds from source do not), so every entry point of this file holds one process-wide lock
// while it calls HDF5, as the thread-safe build does with its global lock: threads may use io/
// whichever HDF5 it links (a study's workers write checkpoints and results.h5 at the same
// time). Recursive, since an entry point may close a handle or call another one.
// It also turns HDF5's automatic error printing off, once per thread: a thread-safe HDF5 keeps
// that switch per thread, with its error stack, and failures become ordo::Error instead.
struct LibraryLock {
  LibraryLock() {
    mutex().lock();
    static thread_local const bool silenced = H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0;
    (void)silenced;
  }
  ~LibraryLock() { mutex().unlock(); }
  LibraryLock(const LibraryLock&) = delete;
  LibraryLock& operator=(const LibraryLock&) = delete;
  static std::recursive_mutex& mutex() {
    static auto* m = new std::recursive_mutex;  // never destroyed: handles may close at exit
    return *m;
  }
};

// HDF5's innermost error description for the failure that just happened, or "" if none.
// Reading the stack also clears it.
std::string hdf5_detail() {
  hid_t stack = H5Eget_current_stack();
  if (stack < 0) return "";
  std::string text;
  H5Ewalk2(
      stack, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t* e, void* data) -> herr_t {
        auto* out = static_cast<std::string*>(data);
        if (n == 0 && e->desc != nullptr) *out = e->desc;
        return 0;
      },
      &text);
  H5Eclose_stack(stack);
  return text;
}

// Throws "<file>: <what> (<hdf5 detail>)".
[[noreturn]] void fail_hdf5(const std::string& file, const std::string& what) {
  std::string detail = hdf5_detail();
  if (detail.empty()) fail(file, ": ", what);
  fail(file, ": ", what, " (", detail, ")");
}

hid_t memory_type(DType t) {
  switch (t) {
    case DType::f64: return H5T_NATIVE_DOUBLE;
    case DType::f32: return H5T_NATIVE_FLOAT;
    case DType::i64: return H5T_NATIVE_INT64;
    case DType::i32: return H5T_NATIVE_INT32;
    case DType::u64: return H5T_NATIVE_UINT64;
    case DType::u32: return H5T_NATIVE_UINT32;
  }
  return -1;
}

// Fixed little-endian types on disk: the same bytes whatever machine writes the file.
hid_t file_type(DType t) {
  switch (t) {
    case DType::f64: return H5T_IEEE_F64LE;
    case DType::f32: return H5T_IEEE_F32LE;
    case DType::i64: return H5T_STD_I64LE;
    case DType::i32: return H5T_STD_I32LE;
    case DType::u64: return H5T_STD_U64LE;
    case DType::u32: return H5T_STD_U32LE;
  }
  return -1;
}

bool is_float(DType t) { return t == DType::f64 || t == DType::f32; }

// A fixed-length UTF-8 string type of `length` bytes, NUL-padded (the caller owns it). Fixed,
// not variable-length: a variable-length string lives in the file's global heap, which carries
// no checksum, and HDF5 1.10 reads a damaged one out of bounds (a crash the reader fuzz found,
// tests/fuzz/fuzz_readers.cpp); a fixed-length one sits in its checksummed object header.
Id string_type(size_t length) {
  Id type(H5Tcopy(H5T_C_S1));
  H5Tset_size(type.get(), std::max<size_t>(1, length));  // HDF5 has no 0-byte type: "" is one NUL
  H5Tset_strpad(type.get(), H5T_STR_NULLPAD);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  return type;
}

// Group creation properties: track and index link creation order, so members() can list
// children in the order they were written.
Id ordered_group_plist() {
  Id plist(H5Pcreate(H5P_GROUP_CREATE));
  H5Pset_link_creation_order(plist.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
  return plist;
}

// File access properties: use file locking, but carry on where the file system has none
// (some network and overlay file systems), instead of failing to open.
Id access_plist() {
  Id fapl(H5Pcreate(H5P_FILE_ACCESS));
#if H5_VERSION_GE(1, 10, 7)
  H5Pset_file_locking(fapl.get(), true, true);
#endif
  return fapl;
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    if (end > start) parts.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

std::string shape_text(const std::vector<int64_t>& dims) {
  std::string s = "(";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + ")";
}

// Bob Jenkins' lookup3 hash ("hashlittle", byte by byte), the checksum of HDF5's metadata
// (HDF5 file format specification, "Metadata checksums"; H5checksum.c).
uint32_t lookup3(const unsigned char* k, size_t length, uint32_t initval) {
  auto rot = [](uint32_t x, int r) { return (x << r) | (x >> (32 - r)); };
  uint32_t a = 0xdeadbeefu + static_cast<uint32_t>(length) + initval, b = a, c = a;
  auto word = [&](size_t i) {
    return uint32_t{k[i]} | uint32_t{k[i + 1]} << 8 | uint32_t{k[i + 2]} << 16 | uint32_t{k[i + 3]} << 24;
  };
  while (length > 12) {
    a += word(0);
    b += word(4);
    c += word(8);
    a -= c; a ^= rot(c, 4);  c += b;
    b -= a; b ^= rot(a, 6);  a += c;
    c -= b; c ^= rot(b, 8);  b += a;
    a -= c; a ^= rot(c, 16); c += b;
    b -= a; b ^= rot(a, 19); a += c;
    c -= b; c ^= rot(b, 4);  b += a;
    length -= 12;
    k += 12;
  }
  if (length == 0) return c;
  uint32_t tail[3] = {0, 0, 0};  // the last 1-12 bytes, little-endian, zero-padded
  for (size_t i = 0; i < length; ++i) tail[i / 4] |= uint32_t{k[i]} << (8 * (i % 4));
  a += tail[0];
  b += tail[1];
  c += tail[2];
  c ^= b; c -= rot(b, 14);
  a ^= c; a -= rot(c, 11);
  b ^= a; b -= rot(a, 25);
  c ^= b; c -= rot(b, 16);
  a ^= c; a -= rot(c, 4);
  b ^= a; b -= rot(a, 14);
  c ^= b; c -= rot(b, 24);
  return c;
}

// H5Fget_file_image clears the superblock's status flags (the file is open for writing) but,
// before HDF5 1.14.7 (HDFGroup/hdf5#1915), not its checksum, which covers them: the image
// then fails to open ("incorrect metadata checksum"). Recomputes it; a no-op where HDF5 did.
// Superblock version 2 and 3 (our files: HDF5 1.8 format): signature 8 bytes, version,
// sizes of offsets and lengths, flags, four addresses, then the checksum of all before it.
void fix_superblock_checksum(std::string& image) {
  static const unsigned char signature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  if (image.size() < 12 || std::memcmp(image.data(), signature, 8) != 0) return;
  const auto* bytes = reinterpret_cast<const unsigned char*>(image.data());
  if (bytes[8] < 2) return;  // versions 0 and 1 have no checksum
  const size_t at = 12 + 4 * static_cast<size_t>(bytes[9]);
  if (image.size() < at + 4) return;
  const uint32_t sum = lookup3(bytes, at, 0);
  for (int i = 0; i < 4; ++i) image[at + i] = static_cast<char>((sum >> (8 * i)) & 0xff);
}

}  // namespace

void silence_hdf5_errors() { const LibraryLock lock; }  // the lock silences the calling thread

const char* dtype_name(DType t) {
  switch (t) {
    case DType::f64: return "float64";
    case DType::f32: return "float32";
    case DType::i64: return "int64";
    case DType::i32: return "int32";
    case DType::u64: return "uint64";
    case DType::u32: return "uint32";
  }
  return "?";
}

// ---- Id ----------------------------------------------------------------------------------

Id::Id(const Id& other) : id_(other.id_) {
  const LibraryLock lock;
  if (id_ >= 0) H5Iinc_ref(id_);
}

void Id::reset() {
  const LibraryLock lock;
  if (id_ >= 0) H5Idec_ref(id_);
  id_ = -1;
}

// ---- Object: attributes --------------------------------------------------------------------

int64_t Object::hid() const {
  if (!id_.valid()) {
    fail(file_.empty() ? std::string("hdf5") : file_, ": object ", path_.empty() ? "?" : path_,
         " is not open (closed file or default-constructed handle)");
  }
  return id_.get();
}

std::string Object::child_path(const std::string& relative) const {
  if (!relative.empty() && relative[0] == '/') return relative;
  return path_ == "/" ? "/" + relative : path_ + "/" + relative;
}

bool Object::has_attr(const std::string& name) const {
  const LibraryLock lock;
  htri_t r = H5Aexists(hid(), name.c_str());
  if (r < 0) fail_hdf5(file_, "cannot check attribute " + name + " on " + path_);
  return r > 0;
}

std::vector<std::string> Object::attr_names() const {
  const LibraryLock lock;
  std::vector<std::string> names;
  herr_t r = H5Aiterate2(
      hid(), H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5A_info_t*, void* data) -> herr_t {
        static_cast<std::vector<std::string>*>(data)->push_back(name);
        return 0;
      },
      &names);
  if (r < 0) fail_hdf5(file_, "cannot list attributes of " + path_);
  return names;
}

namespace {
// Opens attribute `name` on `loc`, or throws "<file>: attribute <name> missing on <path>".
Id open_attr(hid_t loc, const std::string& file, const std::string& path, const std::string& name) {
  htri_t exists = H5Aexists(loc, name.c_str());
  if (exists < 0) fail_hdf5(file, "cannot check attribute " + name + " on " + path);
  if (exists == 0) fail(file, ": attribute ", name, " missing on ", path);
  Id attr(H5Aopen(loc, name.c_str(), H5P_DEFAULT));
  if (!attr.valid()) fail_hdf5(file, "cannot open attribute " + name + " on " + path);
  // Only single values: a scalar or a one-element array (as some tools write).
  Id space(H5Aget_space(attr.get()));
  hssize_t n = H5Sget_simple_extent_npoints(space.get());
  if (n != 1) fail(file, ": attribute ", name, " on ", path, " holds ", n, " values, expected one");
  return attr;
}

AttrKind kind_of(hid_t type) {
  switch (H5Tget_class(type)) {
    case H5T_STRING: return AttrKind::string;
    case H5T_INTEGER: return AttrKind::integer;
    case H5T_FLOAT: return AttrKind::floating;
    default: return AttrKind::other;
  }
}

const char* kind_name(AttrKind k) {
  switch (k) {
    case AttrKind::string: return "a string";
    case AttrKind::integer: return "an integer";
    case AttrKind::floating: return "a float";
    case AttrKind::other: return "of another type";
  }
  return "?";
}
}  // namespace

AttrKind Object::attr_kind(const std::string& name) const {
  const LibraryLock lock;
  Id attr = open_attr(hid(), file_, path_, name);
  Id type(H5Aget_type(attr.get()));
  return kind_of(type.get());
}

void Object::remove_attr(const std::string& name) {
  const LibraryLock lock;
  if (!has_attr(name)) fail(file_, ": attribute ", name, " missing on ", path_);
  if (H5Adelete(hid(), name.c_str()) < 0) fail_hdf5(file_, "cannot delete attribute " + name + " on " + path_);
}

namespace {
void write_attr(hid_t loc, const std::string& file, const std::string& path, const std::string& name,
                hid_t disk_type, hid_t mem_type, const void* value) {
  htri_t exists = H5Aexists(loc, name.c_str());
  if (exists < 0) fail_hdf5(file, "cannot check attribute " + name + " on " + path);
  if (exists > 0 && H5Adelete(loc, name.c_str()) < 0)
    fail_hdf5(file, "cannot replace attribute " + name + " on " + path);
  Id space(H5Screate(H5S_SCALAR));
  Id attr(H5Acreate2(loc, name.c_str(), disk_type, space.get(), H5P_DEFAULT, H5P_DEFAULT));
  if (!attr.valid()) fail_hdf5(file, "cannot create attribute " + name + " on " + path);
  if (H5Awrite(attr.get(), mem_type, value) < 0) fail_hdf5(file, "cannot write attribute " + name + " on " + path);
}
}  // namespace

void Object::set_attr(const std::string& name, const std::string& value) {
  const LibraryLock lock;
  if (value.find('\0') != std::string::npos)
    fail(file_, ": attribute ", name, " on ", path_, ": string contains a NUL character");
  Id type = string_type(value.size());
  std::string padded = value;
  padded.resize(std::max<size_t>(1, value.size()), '\0');
  write_attr(hid(), file_, path_, name, type.get(), type.get(), padded.data());
}

void Object::set_attr_int64(const std::string& name, int64_t value) {
  const LibraryLock lock;
  write_attr(hid(), file_, path_, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value);
}

void Object::set_attr_double(const std::string& name, double value) {
  const LibraryLock lock;
  write_attr(hid(), file_, path_, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

std::string Object::attr_string(const std::string& name) const {
  const LibraryLock lock;
  Id attr = open_attr(hid(), file_, path_, name);
  Id type(H5Aget_type(attr.get()));
  AttrKind kind = kind_of(type.get());
  if (kind != AttrKind::string)
    fail(file_, ": attribute ", name, " on ", path_, " is ", kind_name(kind), ", expected a string");
  std::string out;
  if (H5Tis_variable_str(type.get()) > 0) {
    char* text = nullptr;
    if (H5Aread(attr.get(), type.get(), &text) < 0) fail_hdf5(file_, "cannot read attribute " + name + " on " + path_);
    if (text != nullptr) out = text;
    H5free_memory(text);
  } else {
    size_t size = H5Tget_size(type.get());
    std::vector<char> buffer(size + 1, '\0');
    if (H5Aread(attr.get(), type.get(), buffer.data()) < 0)
      fail_hdf5(file_, "cannot read attribute " + name + " on " + path_);
    out.assign(buffer.data(), strnlen(buffer.data(), size));
    // Space-padded fixed-length strings (Fortran style) lose their padding.
    if (H5Tget_strpad(type.get()) == H5T_STR_SPACEPAD)
      while (!out.empty() && out.back() == ' ') out.pop_back();
  }
  return out;
}

int64_t Object::attr_int64(const std::string& name) const {
  const LibraryLock lock;
  Id attr = open_attr(hid(), file_, path_, name);
  Id type(H5Aget_type(attr.get()));
  AttrKind kind = kind_of(type.get());
  if (kind != AttrKind::integer)
    fail(file_, ": attribute ", name, " on ", path_, " is ", kind_name(kind), ", expected an integer");
  int64_t value = 0;
  if (H5Aread(attr.get(), H5T_NATIVE_INT64, &value) < 0) fail_hdf5(file_, "cannot read attribute " + name + " on " + path_);
  return value;
}

double Object::attr_double(const std::string& name) const {
  const LibraryLock lock;
  Id attr = open_attr(hid(), file_, path_, name);
  Id type(H5Aget_type(attr.get()));
  AttrKind kind = kind_of(type.get());
  if (kind != AttrKind::floating && kind != AttrKind::integer)
    fail(file_, ": attribute ", name, " on ", path_, " is ", kind_name(kind), ", expected a number");
  double value = 0;
  if (H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &value) < 0) fail_hdf5(file_, "cannot read attribute " + name + " on " + path_);
  return value;
}

// ---- Dataset ---------------------------------------------------------------------------------

std::vector<int64_t> Dataset::dims() const {
  const LibraryLock lock;
  Id space(H5Dget_space(hid()));
  int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) fail_hdf5(file_, "cannot read the shape of dataset " + path_);
  std::vector<hsize_t> d(static_cast<size_t>(rank));
  if (rank > 0) H5Sget_simple_extent_dims(space.get(), d.data(), nullptr);
  return {d.begin(), d.end()};
}

int64_t Dataset::numel() const {
  const LibraryLock lock;
  int64_t n = 1;
  for (int64_t d : dims()) {
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d)
      fail(file_, ": dataset ", path_, " has shape ", shape_text(dims()), ": more values than a 64-bit count");
    n *= d;
  }
  return n;
}

int64_t Dataset::stored_numel() const {
  const LibraryLock lock;
  const int64_t n = numel();
  Id type(H5Dget_type(hid()));
  const double bytes = static_cast<double>(n) * static_cast<double>(H5Tget_size(type.get()));
  const double stored = static_cast<double>(H5Dget_storage_size(hid()));
  if (bytes > double(int64_t{1} << 28) && bytes > 1024 * stored)
    fail(file_, ": dataset ", path_, " has shape ", shape_text(dims()), " (", bytes, " bytes) but the file stores ",
         stored, " bytes of it: damaged, or not written by ordo");
  return n;
}

DType Dataset::dtype() const {
  const LibraryLock lock;
  Id type(H5Dget_type(hid()));
  H5T_class_t cls = H5Tget_class(type.get());
  size_t size = H5Tget_size(type.get());
  if (cls == H5T_FLOAT && size == 8) return DType::f64;
  if (cls == H5T_FLOAT && size == 4) return DType::f32;
  if (cls == H5T_INTEGER) {
    bool is_signed = H5Tget_sign(type.get()) != H5T_SGN_NONE;
    if (size == 8) return is_signed ? DType::i64 : DType::u64;
    if (size == 4) return is_signed ? DType::i32 : DType::u32;
  }
  fail(file_, ": dataset ", path_, " has an element type ordo does not read (class ", static_cast<int>(cls),
       ", ", size, " bytes)");
}

void Dataset::read_raw(DType type, void* out, int64_t count) const {
  const LibraryLock lock;
  int64_t n = stored_numel();
  if (count != n) fail(file_, ": dataset ", path_, " holds ", n, " values, reader expected ", count);
  DType stored = dtype();
  if (is_float(stored) != is_float(type))
    fail(file_, ": dataset ", path_, " holds ", dtype_name(stored), " values, cannot read them as ", dtype_name(type));
  if (n == 0) return;
  if (H5Dread(hid(), memory_type(type), H5S_ALL, H5S_ALL, H5P_DEFAULT, out) < 0)
    fail_hdf5(file_, "cannot read dataset " + path_);
}

// ---- Group -----------------------------------------------------------------------------------

bool Group::exists(const std::string& path) const {
  const LibraryLock lock;
  std::vector<std::string> parts = split_path(path);
  if (parts.empty()) return true;  // "" or "/" is this group (or the root)
  std::string prefix = !path.empty() && path[0] == '/' ? "/" : "";
  for (size_t i = 0; i < parts.size(); ++i) {
    prefix += (prefix.empty() || prefix == "/" ? "" : "/") + parts[i];
    htri_t r = H5Lexists(hid(), prefix.c_str(), H5P_DEFAULT);
    if (r == 0) return false;
    if (r < 0) fail_hdf5(file_, "cannot look up " + child_path(prefix));
    if (i + 1 < parts.size()) {  // only a group has children
      Id obj(H5Oopen(hid(), prefix.c_str(), H5P_DEFAULT));
      if (!obj.valid()) fail_hdf5(file_, "cannot open " + child_path(prefix));
      if (H5Iget_type(obj.get()) != H5I_GROUP) return false;
    }
  }
  return true;
}

namespace {
// Type of the object at `path` below `loc` (H5I_GROUP, H5I_DATASET, ...), H5I_BADID if there
// is none. A link whose object cannot be opened (damaged file) is an error.
H5I_type_t object_type(const Group& g, hid_t loc, const std::string& path) {
  if (!g.exists(path)) return H5I_BADID;
  Id obj(H5Oopen(loc, path.c_str(), H5P_DEFAULT));
  if (!obj.valid()) {
    std::string full = path.empty() || path[0] != '/' ? (g.path() == "/" ? "/" : g.path() + "/") + path : path;
    fail_hdf5(g.file_name(), "cannot open " + full);
  }
  return H5Iget_type(obj.get());
}
}  // namespace

bool Group::has_group(const std::string& path) const { return object_type(*this, hid(), path) == H5I_GROUP; }

bool Group::has_dataset(const std::string& path) const { return object_type(*this, hid(), path) == H5I_DATASET; }

Group Group::group(const std::string& path) const {
  const LibraryLock lock;
  H5I_type_t t = object_type(*this, hid(), path);
  if (t == H5I_BADID) fail(file_, ": group ", child_path(path), " missing");
  if (t != H5I_GROUP) fail(file_, ": ", child_path(path), " is not a group");
  Id id(H5Gopen2(hid(), path.c_str(), H5P_DEFAULT));
  if (!id.valid()) fail_hdf5(file_, "cannot open group " + child_path(path));
  return Group(std::move(id), file_, child_path(path));
}

Group Group::require_group(const std::string& path) {
  const LibraryLock lock;
  std::vector<std::string> parts = split_path(path);
  if (parts.empty()) fail(file_, ": require_group: empty path below ", path_);
  Group current = !path.empty() && path[0] == '/' ? group("/") : *this;
  for (const std::string& part : parts) {
    H5I_type_t t = object_type(current, current.hid(), part);
    if (t == H5I_GROUP) {
      current = current.group(part);
      continue;
    }
    if (t != H5I_BADID) fail(file_, ": cannot create group ", current.child_path(part), ": a dataset of that name exists");
    Id plist = ordered_group_plist();
    Id id(H5Gcreate2(current.hid(), part.c_str(), H5P_DEFAULT, plist.get(), H5P_DEFAULT));
    if (!id.valid()) fail_hdf5(file_, "cannot create group " + current.child_path(part));
    current = Group(std::move(id), file_, current.child_path(part));
  }
  return current;
}

std::vector<std::string> Group::members() const {
  const LibraryLock lock;
  H5G_info_t info;
  if (H5Gget_info(hid(), &info) < 0) fail_hdf5(file_, "cannot list group " + path_);
  // Creation order when the group tracks it, name order otherwise.
  H5_index_t index = H5_INDEX_NAME;
  Id plist(H5Gget_create_plist(hid()));
  unsigned flags = 0;
  if (plist.valid() && H5Pget_link_creation_order(plist.get(), &flags) >= 0 && (flags & H5P_CRT_ORDER_INDEXED))
    index = H5_INDEX_CRT_ORDER;
  std::vector<std::string> names;
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    ssize_t len = H5Lget_name_by_idx(hid(), ".", index, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
    if (len < 0) fail_hdf5(file_, "cannot list group " + path_);
    std::string name(static_cast<size_t>(len) + 1, '\0');
    H5Lget_name_by_idx(hid(), ".", index, H5_ITER_INC, i, name.data(), name.size(), H5P_DEFAULT);
    name.resize(static_cast<size_t>(len));
    names.push_back(std::move(name));
  }
  return names;
}

void Group::collect_datasets(const std::string& prefix, std::vector<std::string>& out) const {
  const LibraryLock lock;
  for (const std::string& name : members()) {
    H5I_type_t t = object_type(*this, hid(), name);
    if (t == H5I_DATASET) out.push_back(prefix + name);
    else if (t == H5I_GROUP) group(name).collect_datasets(prefix + name + "/", out);
  }
}

std::vector<std::string> Group::dataset_paths() const {
  const LibraryLock lock;
  std::vector<std::string> out;
  collect_datasets("", out);
  return out;
}

void Group::remove(const std::string& path) {
  const LibraryLock lock;
  if (!exists(path)) fail(file_, ": cannot remove ", child_path(path), ": missing");
  if (H5Ldelete(hid(), path.c_str(), H5P_DEFAULT) < 0) fail_hdf5(file_, "cannot remove " + child_path(path));
}

Dataset Group::dataset(const std::string& path) const {
  const LibraryLock lock;
  H5I_type_t t = object_type(*this, hid(), path);
  if (t == H5I_BADID) fail(file_, ": dataset ", child_path(path), " missing");
  if (t != H5I_DATASET) fail(file_, ": ", child_path(path), " is not a dataset");
  Id id(H5Dopen2(hid(), path.c_str(), H5P_DEFAULT));
  if (!id.valid()) fail_hdf5(file_, "cannot open dataset " + child_path(path));
  return Dataset(std::move(id), file_, child_path(path));
}

void Group::check_count(const std::string& path, int64_t count, const std::vector<int64_t>& dims) const {
  const LibraryLock lock;
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  if (n != count)
    fail(file_, ": dataset ", child_path(path), ": shape ", shape_text(dims), " holds ", n, " values, got ", count);
}

Dataset Group::write_raw(const std::string& path, DType type, const void* data, const std::vector<int64_t>& dims) {
  const LibraryLock lock;
  std::string full = child_path(path);
  std::vector<std::string> parts = split_path(path);
  if (parts.empty()) fail(file_, ": cannot write a dataset at ", full, ": empty name");
  for (int64_t d : dims)
    if (d < 0) fail(file_, ": dataset ", full, ": negative dimension in shape ", shape_text(dims));
  // Parent groups first, then replace any existing object of that name.
  Group parent = *this;
  if (parts.size() > 1 || (!path.empty() && path[0] == '/')) {
    std::string parent_path = (!path.empty() && path[0] == '/') ? "/" : "";
    for (size_t i = 0; i + 1 < parts.size(); ++i) parent_path += (i ? "/" : "") + parts[i];
    parent = parent_path == "/" ? group("/") : require_group(parent_path);
  }
  const std::string& leaf = parts.back();
  if (parent.exists(leaf) && H5Ldelete(parent.hid(), leaf.c_str(), H5P_DEFAULT) < 0)
    fail_hdf5(file_, "cannot replace dataset " + full);

  std::vector<hsize_t> hdims(dims.begin(), dims.end());
  Id space(dims.empty() ? H5Screate(H5S_SCALAR)
                        : H5Screate_simple(static_cast<int>(hdims.size()), hdims.data(), nullptr));
  if (!space.valid()) fail_hdf5(file_, "cannot create the dataspace " + shape_text(dims) + " for dataset " + full);
  // A checksum guards the values. Up to kCompactBytes they sit inside the dataset's object
  // header (compact layout), whose checksum covers them, at no cost beyond the header; larger
  // arrays up to 1 GiB are one chunk with a Fletcher-32 checksum (HDF5 checks both on every
  // read). Scalars, empty arrays and arrays over 1 GiB (beyond one chunk's limits) are stored
  // contiguously, without a checksum.
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  Id dcpl(H5Pcreate(H5P_DATASET_CREATE));
  const int64_t bytes = n * static_cast<int64_t>(H5Tget_size(file_type(type)));
  if (!dims.empty() && n > 0 && bytes <= kCompactBytes) {
    H5Pset_layout(dcpl.get(), H5D_COMPACT);
  } else if (!dims.empty() && n > 0 && bytes <= (int64_t{1} << 30)) {
    H5Pset_chunk(dcpl.get(), static_cast<int>(hdims.size()), hdims.data());
    H5Pset_fletcher32(dcpl.get());
  }
  Id id(H5Dcreate2(parent.hid(), leaf.c_str(), file_type(type), space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT));
  if (!id.valid()) fail_hdf5(file_, "cannot create dataset " + full);
  if (n > 0 && H5Dwrite(id.get(), memory_type(type), H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    fail_hdf5(file_, "cannot write dataset " + full);
  return Dataset(std::move(id), file_, full);
}

void Group::check_rank1(const Dataset& d) {
  const LibraryLock lock;
  std::vector<int64_t> dims = d.dims();
  if (dims.size() != 1)
    fail(d.file_name(), ": dataset ", d.path(), " has shape ", shape_text(dims), ", expected a 1-D array");
}

Shape Group::tensor_shape(const Dataset& d) {
  const LibraryLock lock;
  d.stored_numel();  // before anything is allocated for it
  std::vector<int64_t> dims = d.dims();
  if (static_cast<int>(dims.size()) > Shape::kMaxRank)
    fail(d.file_name(), ": dataset ", d.path(), " has rank ", dims.size(), ", tensors hold at most ", Shape::kMaxRank);
  return Shape(dims);
}

// ---- File ------------------------------------------------------------------------------------

File File::create(const std::string& path) {
  const LibraryLock lock;
  // The file is made now, empty, so that a path that cannot be written fails here.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, ": cannot create HDF5 file (", std::strerror(errno), ")");
  ::close(fd);
  Id fcpl(H5Pcreate(H5P_FILE_CREATE));
  H5Pset_link_creation_order(fcpl.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
  // File format of HDF5 1.8 (readable by every HDF5 >= 1.8, h5py, h5dump): version-2
  // superblock and object headers, whose metadata carry checksums, so a damaged file is
  // refused instead of misread.
  Id fapl(H5Pcreate(H5P_FILE_ACCESS));
  H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_V18);
  // In memory, grown 1 MiB at a time, never backed by HDF5 itself: close() writes it.
  if (H5Pset_fapl_core(fapl.get(), size_t{1} << 20, false) < 0) fail_hdf5(path, "cannot set up an in-memory file");
  Id id(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get()));
  if (!id.valid()) fail_hdf5(path, "cannot create HDF5 file");
  return File(std::move(id), path, true);
}

File File::open(const std::string& path, Access access) {
  const LibraryLock lock;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) fail(path, ": cannot open: ", std::strerror(errno));
  if (S_ISDIR(st.st_mode)) fail(path, ": cannot open: is a directory");
  htri_t is_hdf5 = H5Fis_hdf5(path.c_str());
  if (is_hdf5 == 0) fail(path, ": not an HDF5 file (no HDF5 signature found)");
  if (is_hdf5 < 0) fail_hdf5(path, "cannot read the file");
  unsigned flags = access == Access::read_write ? H5F_ACC_RDWR : H5F_ACC_RDONLY;
  Id fapl = access_plist();
  Id id(H5Fopen(path.c_str(), flags, fapl.get()));
  if (!id.valid()) fail_hdf5(path, "cannot open as HDF5 file");
  return File(std::move(id), path, false);
}

void File::flush() {
  const LibraryLock lock;
  if (!in_memory_) {
    if (H5Fflush(hid(), H5F_SCOPE_GLOBAL) < 0) fail_hdf5(file_, "cannot flush");
    return;
  }
  if (H5Fflush(hid(), H5F_SCOPE_GLOBAL) < 0) fail_hdf5(file_, "cannot flush");  // to memory
  const ssize_t size = H5Fget_file_image(hid(), nullptr, 0);
  if (size < 0) fail_hdf5(file_, "cannot take the file's image");
  std::string image(static_cast<size_t>(size), '\0');
  if (H5Fget_file_image(hid(), image.data(), image.size()) != size) fail_hdf5(file_, "cannot take the file's image");
  fix_superblock_checksum(image);
  write_file(file_, image);
}

void File::close() {
  const LibraryLock lock;
  if (!id_.valid()) return;
  flush();
  id_.reset();
}

}  // namespace ordo::h5
