// tests/io/test_json_text.cpp: io/json_text.h's string literals, as RFC 8259 §7 spells them.
#include <catch2/catch.hpp>

#include "io/json_text.h"

using namespace ordo;

TEST_CASE("json_text quotes a string and escapes what JSON requires", "[io][json]") {
  CHECK(json_text("") == "\"\"");
  CHECK(json_text("AMD EPYC; built for avx512f") == "\"AMD EPYC; built for avx512f\"");
  CHECK(json_text("a \"b\" \\c") == "\"a \\\"b\\\" \\\\c\"");
  CHECK(json_text("l1\nl2\r\tx") == "\"l1\\nl2\\r\\tx\"");
  CHECK(json_text(std::string("\x01\x1f", 2)) == "\"\\u0001\\u001f\"");
  CHECK(json_text(std::string("nul\0end", 7)) == "\"nul\\u0000end\"");
  CHECK(json_text("µs ≤ 1") == "\"µs ≤ 1\"");  // UTF-8 passes through
  std::string out = "[";
  json_text(out, "x");
  CHECK(out == "[\"x\"");  // appended
}
