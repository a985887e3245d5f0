// Compiled into the float64 gradient-check executable: it proves the build really is
// float64 (a float32 build here would make every tolerance meaningless).
#include <catch2/catch.hpp>

#include "core/tensor.h"

TEST_CASE("the gradient-check build computes in float64", "[gradcheck]") {
  STATIC_REQUIRE(sizeof(ordo::Real) == 8);
  REQUIRE(sizeof(ordo::Real) == 8);
}
