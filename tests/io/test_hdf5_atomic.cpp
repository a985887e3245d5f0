// tests/io/test_hdf5_atomic.cpp: atomic_write replaces a file completely or not at all.
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "io/atomic_file.h"
#include "io/hdf5.h"

#include "tests/temp_dir.h"

using namespace ordo;
using Catch::Contains;

namespace {

using ordo::testing::TempDir;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

size_t entries(const std::string& dir) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) n += e.exists();
  return n;
}

}  // namespace

TEST_CASE("atomic_write: the new content replaces the old one", "[hdf5]") {
  TempDir dir;
  const std::string path = dir.file("out.txt");
  atomic_write(path, [](const std::string& tmp) { std::ofstream(tmp) << "first"; });
  CHECK(read_text(path) == "first");
  atomic_write(path, [&](const std::string& tmp) {
    CHECK(tmp == path + ".tmp." + std::to_string(getpid()));
    CHECK(read_text(path) == "first");  // still the old file while writing
    std::ofstream(tmp) << "second";
  });
  CHECK(read_text(path) == "second");
  CHECK(entries(dir.path) == 1);
}

TEST_CASE("atomic_write: a throwing writer leaves the old file and no temporary", "[hdf5]") {
  TempDir dir;
  const std::string path = dir.file("keep.txt");
  std::ofstream(path) << "old content";
  REQUIRE_THROWS_WITH(atomic_write(path,
                                   [](const std::string& tmp) {
                                     std::ofstream(tmp) << "half writ";
                                     fail("writer died");
                                   }),
                      Contains("writer died"));
  CHECK(read_text(path) == "old content");
  CHECK(entries(dir.path) == 1);
  // Same with an HDF5 writer that fails half-way, and with a non-ordo exception.
  REQUIRE_THROWS_WITH(atomic_write(path,
                                   [](const std::string& tmp) {
                                     h5::File f = h5::File::create(tmp);
                                     f.write("x", std::vector<double>{1, 2});
                                     f.dataset("missing");
                                   }),
                      Contains("dataset /missing missing"));
  REQUIRE_THROWS_AS(atomic_write(path, [](const std::string&) { throw std::runtime_error("boom"); }),
                    std::runtime_error);
  CHECK(read_text(path) == "old content");
  CHECK(entries(dir.path) == 1);
  // A writer that creates nothing is an error too.
  REQUIRE_THROWS_WITH(atomic_write(path, [](const std::string&) {}), Contains("the writer did not create"));
  CHECK(read_text(path) == "old content");
  // An unwritable destination: the rename fails, the temporary is cleaned up.
  std::filesystem::create_directory(dir.file("a_dir"));
  std::ofstream(dir.file("a_dir/inside")) << "x";
  REQUIRE_THROWS_WITH(atomic_write(dir.file("a_dir"), [](const std::string& tmp) { std::ofstream(tmp) << "y"; }),
                      Contains("cannot rename"));
  CHECK(entries(dir.path) == 2);
}
