// tests/layers/test_encoding_table.cpp: docs/spec.md §2.14 ("Every encoding at a glance") has
// exactly one table row per registered encoding (layers/posenc/registry.cpp), and no row for a
// name that is not registered. A new encoding without its row fails here.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "layers/posenc/encoding.h"

using namespace ordo;

namespace {

const std::string kHeading = "### 2.14 Every encoding at a glance";

// The lines of docs/spec.md from the line after kHeading up to the next "## " heading.
std::vector<std::string> table_section() {
  const std::string path = std::string(ORDO_SOURCE_DIR) + "/docs/spec.md";
  std::ifstream in(path);
  INFO(path);
  REQUIRE(in.good());
  std::vector<std::string> section;
  int headings = 0;
  bool inside = false;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line == kHeading) {
      ++headings;
      inside = true;
      continue;
    }
    if (inside && line.rfind("## ", 0) == 0) inside = false;
    if (inside) section.push_back(line);
  }
  INFO("the heading '" << kHeading << "'");
  REQUIRE(headings == 1);
  return section;
}

// The rows of the section whose first cell is a name in backticks, "| `<name>` | ...".
std::vector<std::string> encoding_rows(const std::vector<std::string>& section) {
  std::vector<std::string> rows;
  for (const std::string& line : section)
    if (line.rfind("| `", 0) == 0) rows.push_back(line);
  return rows;
}

std::set<std::string> registered_names() {
  std::set<std::string> names;
  for (const EncodingInfo& e : encodings()) names.insert(e.name);
  return names;
}

}  // namespace

TEST_CASE("encoding table: docs/spec.md §2.14 has exactly one row per registered encoding", "[posenc]") {
  const std::vector<std::string> rows = encoding_rows(table_section());
  REQUIRE_FALSE(rows.empty());
  REQUIRE_FALSE(encodings().empty());
  for (const EncodingInfo& e : encodings()) {
    const std::string prefix = "| `" + e.name + "` |";
    int count = 0;
    for (const std::string& row : rows)
      if (row.rfind(prefix, 0) == 0) ++count;
    INFO("encoding '" << e.name << "': add one row starting with " << prefix << " to docs/spec.md §2.14");
    CHECK(count == 1);
  }
}

TEST_CASE("encoding table: docs/spec.md §2.14 has no row for an unregistered name", "[posenc]") {
  const std::vector<std::string> rows = encoding_rows(table_section());
  const std::set<std::string> names = registered_names();
  std::map<std::string, int> seen;
  for (const std::string& row : rows) {
    INFO("row: " << row);
    const size_t close = row.find('`', 3);
    REQUIRE(close != std::string::npos);
    // The first cell is the name alone: "| `<name>` |".
    CHECK(row.compare(close, 3, "` |") == 0);
    const std::string name = row.substr(3, close - 3);
    ++seen[name];
    INFO("'" << name << "' is not a registered encoding (layers/posenc/registry.cpp)");
    CHECK(names.count(name) == 1);
  }
  CHECK(seen.size() == rows.size());  // no name has two rows
}
