// tests/temp_dir.h: a fresh directory under /tmp for one test, removed afterwards.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace ordo::testing {

struct TempDir {
  std::string path;
  TempDir() {
    char name[] = "/tmp/ordo_test_XXXXXX";
    REQUIRE(mkdtemp(name) != nullptr);
    path = name;
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return path + "/" + name; }
};

}  // namespace ordo::testing
