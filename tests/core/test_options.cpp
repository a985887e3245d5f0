// tests/core/test_options.cpp: declared options keep canonical text, parse by type and name
// the flag in every error (core/options.h).
#include <catch2/catch.hpp>

#include "core/error.h"
#include "core/options.h"

using namespace ordo;
using Catch::Contains;

namespace {
const std::vector<OptionSpec> specs = {
    {"base", OptionType::Real, "1e4", "a number"},
    {"buckets", OptionType::Int, "32", "a count"},
    {"mode", OptionType::Text, "fast", "a word"},
    {"on", OptionType::Bool, "yes", "a switch"},
};
}  // namespace

TEST_CASE("options start at their declared defaults, kept as canonical text", "[core][options]") {
  const Options o(specs);
  CHECK(o.values().at("base") == "10000");
  CHECK(o.real("base") == 10000.0);
  CHECK(o.integer("buckets") == 32);
  CHECK(o.text("mode") == "fast");
  CHECK(o.values().at("on") == "true");
  CHECK(o.flag("on"));
}

TEST_CASE("set parses by type, wrong types and unknown names are errors naming the flag", "[core][options]") {
  Options o(specs);
  o.set("base", "0.1");
  CHECK(o.values().at("base") == "0.1");
  o.set("on", "off");
  CHECK_FALSE(o.flag("on"));
  CHECK_THROWS_WITH(o.set("buckets", "3.5"), "--buckets expects a whole number, got '3.5'");
  CHECK_THROWS_WITH(o.set("base", "nan"), "--base expects a finite number, got 'nan'");
  CHECK_THROWS_WITH(o.set("on", "maybe"), "--on expects true or false, got 'maybe'");
  CHECK_THROWS_WITH(o.set("colour", "red"), "unknown option --colour");
  CHECK_THROWS_WITH(o.integer("base"), Contains("holds a value of type number, read as type integer"));
  CHECK_THROWS_WITH(o.real("missing"), Contains("--missing is not declared"));
}

TEST_CASE("a declared range refuses other values whenever the option is set, defaults included", "[core][options]") {
  const OptionSpec base{"base", OptionType::Real, "10000", "a base", "> 1", [](double v) { return v > 1; }};
  Options o({base});
  o.set("base", "2");
  CHECK(o.real("base") == 2.0);
  CHECK_THROWS_WITH(o.set("base", "0.5"), "--base must be > 1, got 0.5");
  CHECK(o.real("base") == 2.0);  // a refused value changes nothing
  OptionSpec bad_default = base;
  bad_default.default_value = "1";
  CHECK_THROWS_WITH(Options({bad_default}), "--base must be > 1, got 1");
}

TEST_CASE("one name declared twice must agree, then the parts share one value", "[core][options]") {
  CHECK_NOTHROW(Options({{"vocab", OptionType::Int, "8", "fillers"}, {"vocab", OptionType::Int, "8", "symbols"}}));
  CHECK_THROWS_WITH(Options({{"vocab", OptionType::Int, "8", "a"}, {"vocab", OptionType::Int, "9", "b"}}),
                    Contains("--vocab is declared twice with different types, defaults or accepted values"));
  CHECK_THROWS_WITH(Options({{"vocab", OptionType::Int, "8", "a"}, {"vocab", OptionType::Real, "8", "b"}}),
                    Contains("--vocab is declared twice"));
}

TEST_CASE("integer lists take numbers and FROM:TO:STEP ranges, both ends included", "[core][options]") {
  using V = std::vector<int64_t>;
  CHECK(parse_int_list("eval-lens", "128,256") == V{128, 256});
  CHECK(parse_int_list("eval-lens", "64:512:64") == V{64, 128, 192, 256, 320, 384, 448, 512});
  CHECK(parse_int_list("eval-lens", "32,64:200:64") == V{32, 64, 128, 192});  // 256 > TO: not included
  CHECK(parse_int_list("eval-lens", "100:100:7") == V{100});
  CHECK(parse_int_list("eval-lens", "") == V{});
  CHECK_THROWS_WITH(parse_int_list("eval-lens", "64:512"),
                    "--eval-lens: '64:512' is neither a number nor a range FROM:TO:STEP (e.g. 64:512:64)");
  CHECK_THROWS_WITH(parse_int_list("eval-lens", "64:512:0"), "--eval-lens: the range 64:512:0 needs a positive STEP, got 0");
  CHECK_THROWS_WITH(parse_int_list("eval-lens", "512:64:64"),
                    "--eval-lens: the range 512:64:64 runs backwards (FROM 512 > TO 64)");
  CHECK_THROWS_WITH(parse_int_list("eval-lens", "1:100000:1"), "--eval-lens: the range 1:100000:1 has more than 10000 values");
  CHECK_THROWS_WITH(parse_int_list("eval-lens", "64:x:64"), "--eval-lens expects a whole number, got 'x'");
}
