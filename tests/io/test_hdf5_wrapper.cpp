// tests/io/test_hdf5_wrapper.cpp: the HDF5 wrapper: datasets, attributes, groups, errors.
#include <fcntl.h>
#include <hdf5.h>
#include <stdlib.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <thread>
#include <vector>

#include "io/hdf5.h"

#include "tests/temp_dir.h"

using namespace ordo;
using Catch::Contains;

namespace {

// A fresh directory under /tmp, removed at the end of the test.
using ordo::testing::TempDir;

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

}  // namespace

TEST_CASE("hdf5: datasets of every element type round trip with their shapes", "[hdf5]") {
  TempDir dir;
  const std::string path = dir.file("data.h5");
  const std::vector<double> d = {1.5, -2.25, std::numeric_limits<double>::denorm_min(), 1e300};
  const std::vector<float> f = {0.1f, -0.0f, std::numeric_limits<float>::infinity(), 3.0f, 4.0f, 5.0f};
  const std::vector<int64_t> i64 = {std::numeric_limits<int64_t>::min(), 0, std::numeric_limits<int64_t>::max()};
  const std::vector<int32_t> i32 = {-7, 8};
  const std::vector<uint64_t> u64 = {std::numeric_limits<uint64_t>::max(), 1};
  {
    h5::File file = h5::File::create(path);
    file.write("d", d);
    file.write("f23", f.data(), {2, 3});
    file.write("nested/deeper/i64", i64);
    file.write("i32", i32, {1, 2, 1});
    file.write("u64", u64);
    file.write("empty", std::vector<double>{});
    double one = 42;
    file.write("scalar", &one, {});
    file.write("tensor", TensorF32::from({2, 1, 3}, f));
    file.close();
  }
  h5::File file = h5::File::open(path);
  CHECK(file.read_vector<double>("d") == d);
  h5::Array<float> a = file.read<float>("f23");
  CHECK(a.dims == std::vector<int64_t>{2, 3});
  REQUIRE(a.values.size() == f.size());
  CHECK(std::memcmp(a.values.data(), f.data(), sizeof(float) * f.size()) == 0);  // -0.0f kept
  CHECK(file.read_vector<int64_t>("nested/deeper/i64") == i64);
  CHECK(file.group("nested").read_vector<int64_t>("deeper/i64") == i64);
  CHECK(file.read<int32_t>("i32").dims == std::vector<int64_t>{1, 2, 1});
  CHECK(file.read<int32_t>("i32").values == i32);
  CHECK(file.read_vector<uint64_t>("u64") == u64);
  CHECK(file.read_vector<double>("empty").empty());
  CHECK(file.dataset("scalar").dims().empty());
  CHECK(file.read<double>("scalar").values == std::vector<double>{42});
  TensorF32 t = file.read_tensor<float>("tensor");
  CHECK(t.shape() == Shape{2, 1, 3});
  CHECK(t.to_vector() == std::vector<float>(f.begin(), f.end()));
  CHECK(file.dataset("f23").dtype() == h5::DType::f32);
  CHECK(file.dataset("nested/deeper/i64").dtype() == h5::DType::i64);
  // Same-class conversions: float32 file -> double, int32 -> int64.
  CHECK(file.read_vector<double>("d") == d);
  CHECK(file.read<double>("f23").values[3] == 3.0);
  CHECK(file.read<int64_t>("i32").values == std::vector<int64_t>{-7, 8});
  // Cross-class reads and wrong ranks are refused with the path named.
  REQUIRE_THROWS_WITH(file.read_vector<int64_t>("d"), Contains("/d holds float64 values, cannot read them as int64"));
  REQUIRE_THROWS_WITH(file.read_vector<float>("f23"), Contains("/f23 has shape (2, 3), expected a 1-D array"));
}

TEST_CASE("hdf5: attributes on files, groups and datasets", "[hdf5]") {
  TempDir dir;
  const std::string path = dir.file("attrs.h5");
  {
    h5::File file = h5::File::create(path);
    file.set_attr("name", "ordo");
    file.set_attr("count", 7);
    file.set_attr("pi", 3.141592653589793);
    h5::Group g = file.require_group("runs/order/rope/seed0");
    g.set_attr("encoding", std::string("rope"));
    g.set_attr("empty", "");
    g.set_attr("seed", int64_t{-3});
    h5::Dataset d = g.write("x", std::vector<double>{1, 2});
    d.set_attr("unit", "nats");
    d.set_attr("big", std::numeric_limits<int64_t>::max());
    file.set_attr("count", 8);  // replaces
    file.close();
  }
  h5::File file = h5::File::open(path);
  CHECK(file.attr_string("name") == "ordo");
  CHECK(file.attr_int64("count") == 8);
  CHECK(file.attr_double("count") == 8.0);  // integers read as doubles too
  CHECK(file.attr_double("pi") == 3.141592653589793);
  CHECK(file.attr_kind("pi") == h5::AttrKind::floating);
  CHECK(file.attr_names() == std::vector<std::string>{"count", "name", "pi"});
  h5::Group g = file.group("runs/order/rope/seed0");
  CHECK(g.path() == "/runs/order/rope/seed0");
  CHECK(g.attr_string("encoding") == "rope");
  CHECK(g.attr_string("empty").empty());
  CHECK(g.attr_int64("seed") == -3);
  CHECK(g.dataset("x").attr_string("unit") == "nats");
  CHECK(g.dataset("x").attr_int64("big") == std::numeric_limits<int64_t>::max());
  REQUIRE_THROWS_WITH(g.attr_string("missing"), Contains("attrs.h5: attribute missing missing on /runs/order/rope/seed0"));
  REQUIRE_THROWS_WITH(file.attr_int64("name"), Contains("attribute name on / is a string, expected an integer"));
  REQUIRE_THROWS_WITH(file.attr_string("pi"), Contains("attribute pi on / is a float, expected a string"));
}

TEST_CASE("hdf5: nested groups, members in creation order, existence, removal", "[hdf5]") {
  TempDir dir;
  const std::string path = dir.file("groups.h5");
  h5::File file = h5::File::create(path);
  h5::Group seed = file.require_group("/runs/order/rope/seed0");
  CHECK(seed.path() == "/runs/order/rope/seed0");
  CHECK(file.require_group("runs/order/rope/seed0").path() == "/runs/order/rope/seed0");  // idempotent
  file.require_group("runs/order/alibi");
  file.require_group("runs/order/abs");
  for (const char* name : {"zeta", "alpha", "mid.dle"}) seed.write(name, std::vector<int32_t>{1});
  CHECK(file.group("runs/order").members() == std::vector<std::string>{"rope", "alibi", "abs"});
  CHECK(seed.members() == std::vector<std::string>{"zeta", "alpha", "mid.dle"});
  CHECK(file.exists("runs/order/rope/seed0/mid.dle"));
  CHECK(file.exists("/runs/order"));
  CHECK_FALSE(file.exists("runs/shift/rope"));
  CHECK_FALSE(file.exists("runs/order/rope/seed0/zeta/below_a_dataset"));
  CHECK(file.has_group("runs/order"));
  CHECK_FALSE(file.has_group("runs/order/rope/seed0/zeta"));
  CHECK(file.has_dataset("runs/order/rope/seed0/zeta"));
  CHECK(file.group("runs").dataset_paths() ==
        std::vector<std::string>{"order/rope/seed0/zeta", "order/rope/seed0/alpha", "order/rope/seed0/mid.dle"});
  seed.remove("alpha");
  CHECK(seed.members() == std::vector<std::string>{"zeta", "mid.dle"});
  REQUIRE_THROWS_WITH(file.group("runs/shift"), Contains("groups.h5: group /runs/shift missing"));
  REQUIRE_THROWS_WITH(seed.dataset("w"), Contains("groups.h5: dataset /runs/order/rope/seed0/w missing"));
  REQUIRE_THROWS_WITH(file.dataset("runs"), Contains("/runs is not a dataset"));
  REQUIRE_THROWS_WITH(file.require_group("runs/order/rope/seed0/zeta/x"), Contains("a dataset of that name exists"));
  REQUIRE_THROWS_WITH(seed.write("bad", std::vector<double>{1, 2, 3}, {2, 2}),
                      Contains("shape (2, 2) holds 4 values, got 3"));
  file.close();
  REQUIRE_THROWS_WITH(file.attr_int64("x"), Contains("is not open"));
}

TEST_CASE("hdf5: opening bad files names the problem", "[hdf5]") {
  TempDir dir;
  REQUIRE_THROWS_WITH(h5::File::open(dir.file("nope.h5")), Contains("nope.h5: cannot open: No such file or directory"));
  REQUIRE_THROWS_WITH(h5::File::open(dir.path), Contains("is a directory"));
  write_bytes(dir.file("text.h5"), "this is not an HDF5 file\n");
  REQUIRE_THROWS_WITH(h5::File::open(dir.file("text.h5")), Contains("text.h5: not an HDF5 file"));
  REQUIRE_THROWS_WITH(h5::File::create(dir.file("no/such/dir/x.h5")), Contains("x.h5: cannot create HDF5 file"));
}

TEST_CASE("hdf5: HDF5's error stack never reaches stderr", "[hdf5]") {
  TempDir dir;
  write_bytes(dir.file("junk.h5"), std::string(4096, 'x'));
  {
    h5::File good = h5::File::create(dir.file("good.h5"));
    good.write("v", std::vector<double>(1000, 1.0));
    good.close();
    std::filesystem::resize_file(dir.file("good.h5"), std::filesystem::file_size(dir.file("good.h5")) / 2);
  }
  const std::string captured = dir.file("stderr.txt");
  std::fflush(stderr);
  int saved = dup(2);
  int fd = ::open(captured.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  REQUIRE(fd >= 0);
  dup2(fd, 2);
  ::close(fd);
  int failures = 0;
  auto attempt = [&](auto&& f) {
    try {
      f();
    } catch (const Error&) {
      ++failures;
    }
  };
  attempt([&] { h5::File::open(dir.file("junk.h5")); });
  attempt([&] { h5::File::open(dir.file("good.h5")); });  // truncated
  attempt([&] { h5::File::create(dir.file("missing/dir/x.h5")); });
  attempt([&] {
    h5::File f = h5::File::create(dir.file("other.h5"));
    f.write("v", std::vector<double>{1});
    f.dataset("v/below");
  });
  attempt([&] { h5::File::open(dir.file("other.h5")).attr_int64("absent"); });
  std::fflush(stderr);
  dup2(saved, 2);
  ::close(saved);
  CHECK(failures == 5);
  std::ifstream in(captured);
  std::stringstream text;
  text << in.rdbuf();
  REQUIRE(text.str().empty());
}

// Threads may write, read and fail at once (a study's workers write checkpoints and results.h5
// together): the wrapper serialises every HDF5 call (io/hdf5.h), and turns HDF5's error
// printing off in each thread (a thread-safe HDF5, such as Debian's, keeps it per thread:
// silenced in one thread only, this test's stderr fills with HDF5-DIAG stacks).
TEST_CASE("hdf5: threads writing, reading and failing at once each get their own values and errors", "[hdf5]") {
  TempDir dir;
  {
    h5::File good = h5::File::create(dir.file("truncated.h5"));
    good.write("v", std::vector<double>(1000, 1.0));
    good.close();
    std::filesystem::resize_file(dir.file("truncated.h5"), std::filesystem::file_size(dir.file("truncated.h5")) / 2);
  }
  std::string alone;  // the error one thread alone gets for the truncated file
  try {
    h5::File::open(dir.file("truncated.h5"));
  } catch (const Error& e) {
    alone = e.what();
  }
  REQUIRE_THAT(alone, Contains("truncated"));

  constexpr int kThreads = 4, kFiles = 25;
  std::vector<std::vector<std::string>> problems(kThreads);  // Catch2's CHECK is for one thread
  const std::string captured = dir.file("stderr.txt");  // HDF5's own error printing stays off
  std::fflush(stderr);
  const int saved = dup(2);
  const int fd = ::open(captured.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  REQUIRE(fd >= 0);
  dup2(fd, 2);
  ::close(fd);
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t)
    pool.emplace_back([&, t]() {
      for (int k = 0; k < kFiles; ++k) {
        const std::string path = dir.file("t" + std::to_string(t) + "_" + std::to_string(k) + ".h5");
        std::vector<double> values(2000);
        for (size_t i = 0; i < values.size(); ++i) values[i] = t * 1e6 + k * 1e3 + static_cast<double>(i);
        try {
          h5::File f = h5::File::create(path);
          h5::Group g = f.require_group("runs/t" + std::to_string(t));
          g.write("values", values);
          g.set_attr("file", static_cast<int64_t>(k));
          g.set_attr("name", "thread " + std::to_string(t));
          f.close();
          h5::File r = h5::File::open(path);
          const h5::Group rg = r.group("runs/t" + std::to_string(t));
          if (rg.read_vector<double>("values") != values) problems[t].push_back(path + ": other values read back");
          if (rg.attr_int64("file") != k || rg.attr_string("name") != "thread " + std::to_string(t))
            problems[t].push_back(path + ": other attributes read back");
        } catch (const std::exception& e) {
          problems[t].push_back(e.what());
        }
        try {
          h5::File::open(dir.file("truncated.h5"));
          problems[t].push_back("a truncated file opened");
        } catch (const Error& e) {
          if (e.what() != alone) problems[t].push_back(std::string("another error: ") + e.what());
        }
      }
    });
  for (std::thread& th : pool) th.join();
  std::fflush(stderr);
  dup2(saved, 2);
  ::close(saved);
  std::ifstream in(captured);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str() == "");
  for (int t = 0; t < kThreads; ++t) {
    INFO("thread " << t);
    std::string said;
    for (const std::string& p : problems[t]) said += p + "\n";
    CHECK(said == "");
  }
}

TEST_CASE("hdf5: a dataset that claims more values than the file stores is refused before allocating", "[hdf5]") {
  // A foreign or damaged file: a chunked dataset of 2^40 doubles, no chunk ever written
  // (HDF5 would read fill values); reading it must not try to allocate 8 TB.
  TempDir dir;
  const std::string path = dir.file("claims.h5");
  {
    h5::File f = h5::File::create(path);
    f.write("small", std::vector<double>{1, 2, 3});
    f.close();
  }
  {
    hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    REQUIRE(file >= 0);
    const hsize_t dims[1] = {hsize_t{1} << 40}, chunk[1] = {1024};
    hid_t space = H5Screate_simple(1, dims, nullptr);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, chunk);
    hid_t d = H5Dcreate2(file, "huge", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    REQUIRE(d >= 0);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Fclose(file);
  }
  h5::File f = h5::File::open(path);
  CHECK(f.read_vector<double>("small") == std::vector<double>{1, 2, 3});
  CHECK_THROWS_WITH(f.read_vector<double>("huge"),
                    Catch::Contains("claims.h5: dataset /huge has shape (1099511627776)") &&
                        Catch::Contains("but the file stores 0 bytes of it"));
  CHECK_THROWS_WITH(f.read_tensor<float>("huge"), Catch::Contains("but the file stores 0 bytes of it"));
}
